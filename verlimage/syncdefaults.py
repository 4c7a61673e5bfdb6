"""The checkpoint-sync defaults table (README), read from smoke_tests.config."""

from __future__ import annotations

import json

from smoke_tests import config


def defaults_table() -> str:
    lines = ["| setting | default | meaning |", "|---|---|---|"]
    for name, value, doc in config.rows():
        lines.append(f"| `{name}` | `{json.dumps(value)}` | {doc} |")
    return "\n".join(lines)
