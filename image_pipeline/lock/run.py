"""`build.py lock`: resolve every image for every platform it declares; write or --check."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..errors import UserError
from . import consistency, family, kinds, lockfile
from .request import build_request
from .resolve import Resolver


def default_jobs() -> int:
    """uv spends a lock mostly waiting on index round trips, but its resolution is CPU work too: one lock
    per core."""
    return os.cpu_count() or 1


def lock_all(manifest, root: Path, profile, cache: Path, *, images=None, platforms=None, fresh=False, jobs=None,
             log=print) -> dict:
    """{path: new text} for the selected locks, resolved `jobs` at a time; nothing is written here.
    fresh: resolve without the previous lock's versions as preferences (a re-lock after an experiment
    otherwise keeps every stale version that is still allowed). A lock made for the first time prefers its
    closest sibling's versions (family.sibling), unless fresh. A wheel the new lock turns into an
    undeclared source build is refused (kinds.check), fresh or not."""
    consistency.check_pins(manifest, root)
    resolver = Resolver(profile, cache, manifest)
    selected = [(image, platform) for image, platform in consistency.targets(manifest)
                if (not images or image.name in images) and (not platforms or platform in platforms)]
    if not selected:
        raise UserError("no lock matches the selection")

    def one(target):
        image, platform = target
        path = lockfile.path_for(root, image.name, platform)
        started = time.monotonic()
        previous = lockfile.read(path)
        kin = family.sibling(manifest, image, platform, root) if previous is None and not fresh else None
        if kin:
            log(f"lock {image.name} {platform}: first lock, preferring the versions of {kin[0]}'s")
        lock = resolver.resolve(build_request(manifest, image, platform), previous, fresh=fresh,
                                sibling=kin[1] if kin else None)
        kinds.check(image, platform, previous, lock, path.relative_to(root))
        externals = f", {len(lock.externals)} external" if lock.externals else ""
        log(f"lock {image.name} {platform}: {len(lock.packages)} packages{externals} "
            f"({time.monotonic() - started:.1f} s)")
        return path, lock.to_toml()

    with ThreadPoolExecutor(max_workers=max(1, min(jobs or default_jobs(), len(selected)))) as pool:
        return dict(pool.map(one, selected))
