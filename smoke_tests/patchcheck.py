"""The patches pins.json declares are applied: marker present, file still as patched."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

MARKER_DIR = Path(sys.prefix) / "verl-image-patches"


def applied(pins: dict) -> tuple:
    problems, lines = [], []
    for patch in pins.get("patches", []):
        marker = MARKER_DIR / f"{patch['name']}.json"
        if not marker.exists():
            problems.append(f"patch {patch['name']}: not applied (no {marker})")
            continue
        record = json.loads(marker.read_text())
        target = Path(record["path"])
        found = hashlib.sha256(target.read_bytes()).hexdigest() if target.exists() else "missing"
        if record["state"] == "applied" and found != record["patched_sha256"]:
            problems.append(f"patch {patch['name']}: {target} changed after patching (sha256 {found})")
        lines.append(f"patch {patch['name']}: {record['state']} on {record['file']}")
    if not pins.get("patches"):
        lines.append("no patches declared for this image")
    return problems, lines
