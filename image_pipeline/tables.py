"""Markdown and plain-text tables, and unified diffs: one way to write each."""

from __future__ import annotations

import difflib


def markdown(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _cell(value) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def text(header, rows) -> str:
    """Left-aligned columns for terminals."""
    table = [tuple(str(c) for c in header)] + [tuple(str(c) for c in row) for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table)


def unified_diff(old: str, new: str, name: str, new_label: str = "") -> str:
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{name}",
                                        f"b/{name}{new_label}"))


def size(n_bytes) -> str:
    return f"{n_bytes / 1e6:,.0f} MB" if n_bytes >= 1e6 else f"{n_bytes / 1e3:,.0f} kB"
