"""Fingerprinted file patches: verify the upstream file, apply a unified diff, leave a marker.

  applied   the file had the declared upstream sha256; the diff was applied
  already   a marker says this patch was applied and the file is still as patched: no-op
  obsolete  upstream already contains the change: skipped (remove the patch from pins.yaml)
  mismatch  anything else: the patch must be re-derived for the new upstream (an error)
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchError(Exception):
    """One line that says what to do."""


@dataclass(frozen=True)
class Hunk:
    old_start: int
    old: tuple  # lines of the old side (context and removed)
    new: tuple  # lines of the new side (context and added)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def parse_diff(text: str) -> list:
    """Hunks of a unified diff, each read for exactly the line counts its @@ header states
    (so a removed line that itself starts with "-- " is not mistaken for a file header)."""
    lines, hunks, index = text.splitlines(), [], 0
    while index < len(lines):
        match = HUNK.match(lines[index])
        index += 1
        if not match:
            continue  # file headers and anything between hunks
        want_old, want_new = int(match.group(2) or 1), int(match.group(4) or 1)
        old, new = [], []
        while len(old) < want_old or len(new) < want_new:
            if index >= len(lines):
                raise PatchError(f"hunk at line {match.group(1)} ends early")
            tag, body = lines[index][:1], lines[index][1:]
            index += 1
            if tag in (" ", ""):
                old.append(body)
                new.append(body)
            elif tag == "-":
                old.append(body)
            elif tag == "+":
                new.append(body)
            elif tag != "\\":
                raise PatchError(f"not a unified diff line: {lines[index - 1][:60]!r}")
        hunks.append(Hunk(int(match.group(1)), tuple(old), tuple(new)))
    if not hunks:
        raise PatchError("the diff has no hunks")
    return hunks


def apply_hunks(text: str, hunks: list) -> str:
    lines = text.split("\n")
    shift = 0
    for number, hunk in enumerate(hunks, 1):
        at = hunk.old_start - 1 + shift
        if tuple(lines[at:at + len(hunk.old)]) != hunk.old:
            raise PatchError(f"hunk {number} does not match the file at line {hunk.old_start}")
        lines[at:at + len(hunk.old)] = hunk.new
        shift += len(hunk.new) - len(hunk.old)
    return "\n".join(lines)


def already_contains(text: str, hunks: list) -> bool:
    """True when every hunk's new side is in the file and no old side is (upstream has the fix)."""
    joined = text.split("\n")

    def present(block):
        size = len(block)
        return any(tuple(joined[i:i + size]) == block for i in range(len(joined) - size + 1))

    return all(present(h.new) and (h.old == h.new or not present(h.old)) for h in hunks)


def check(name: str, path: Path, upstream_sha256: str, diff_text: str, marker_dir: Path | None = None) -> str:
    """State of a patch against a file, without changing anything."""
    data = path.read_bytes()
    found = sha256(data)
    marker = _marker(marker_dir, name)
    if marker and found == marker.get("patched_sha256"):
        return "already"
    if found == upstream_sha256:
        return "applies"
    if already_contains(data.decode(), parse_diff(diff_text)):
        return "obsolete"
    raise PatchError(f"patch {name}: {path} has sha256 {found}, expected {upstream_sha256}: upstream changed, "
                     f"re-derive the patch for the new upstream file")


def apply(name: str, path: Path, upstream_sha256: str, diff_text: str, marker_dir: Path) -> str:
    """Apply once; returns applied | already | obsolete; raises PatchError on a mismatch."""
    state = check(name, path, upstream_sha256, diff_text, marker_dir)
    if state == "applies":
        patched = apply_hunks(path.read_text(), parse_diff(diff_text))
        path.write_text(patched)
        state = "applied"
    if state in ("applied", "obsolete"):
        marker_dir.mkdir(parents=True, exist_ok=True)
        (marker_dir / f"{name}.json").write_text(json.dumps({
            "name": name, "path": str(path), "file": path.name, "state": state,
            "upstream_sha256": upstream_sha256, "patched_sha256": sha256(path.read_bytes())}, indent=1))
    return state


def _marker(marker_dir, name):
    if marker_dir is None:
        return None
    path = Path(marker_dir) / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def locate(package: str, file: str) -> Path:
    """The installed file `file` (relative to site-packages) of distribution `package`."""
    import importlib.metadata as md

    try:
        dist = md.distribution(package)
    except md.PackageNotFoundError:
        raise PatchError(f"{package} is not installed: the patch has nothing to apply to") from None
    path = Path(dist.locate_file(file))
    if not path.is_file():
        raise PatchError(f"{package} has no file {file}")
    return path
