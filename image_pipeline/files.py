"""Writing several generated files as one change: all of them, or none."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def atomic_write(path: Path, text: str) -> None:
    """Replace one file through a temporary file and a rename (text written byte for byte)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def commit(changes: dict) -> None:
    """Write {path: text} so that a failure part-way restores every file already replaced."""
    before = {path: (path.read_text() if path.exists() else None) for path in changes}
    done = []
    try:
        for path, text in changes.items():
            atomic_write(path, text)
            done.append(path)
    except BaseException:
        for path in done:
            if before[path] is None:
                path.unlink()
            else:
                atomic_write(path, before[path])
        raise


def link_or_copy(source: Path, target: Path) -> None:
    """A hard link keeps a multi-GB wheelhouse from being copied (a copy across filesystems)."""
    if target.exists():
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
