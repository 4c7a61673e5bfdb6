"""`build.py lock`: resolve every image for every platform it declares; write or --check."""

from __future__ import annotations

import time
from pathlib import Path

from ..errors import UserError
from . import check, lockfile
from .request import build_request
from .resolve import Resolver


def lock_all(manifest, root: Path, profile, cache: Path, *, images=None, platforms=None, log=print) -> dict:
    """{path: new text} for the selected locks, resolved; nothing is written here."""
    check.check_pins(manifest, root)
    resolver = Resolver(profile, cache, manifest)
    out = {}
    for image, platform in check.targets(manifest):
        if (images and image.name not in images) or (platforms and platform not in platforms):
            continue
        path = lockfile.path_for(root, image.name, platform)
        started = time.monotonic()
        lock = resolver.resolve(build_request(manifest, image, platform), lockfile.read(path))
        out[path] = lock.to_toml()
        externals = f", {len(lock.externals)} external" if lock.externals else ""
        log(f"lock {image.name} {platform}: {len(lock.packages)} packages{externals} "
            f"({time.monotonic() - started:.1f} s)")
    if not out:
        raise UserError("no lock matches the selection")
    return out
