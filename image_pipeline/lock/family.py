"""Locks of one family agree: a new image's lock starts from its closest sibling's versions.

Without preferences uv takes the newest release of every loose dependency, so an image added today
would drift from the images of its line locked last month (anthropic 2.17.0 where npu-a3 has 2.16.0)
for no reason but the date. The sibling is the first locked image (in pins.yaml order) of the same
device, python and CANN release on the same platform; its versions
are the new lock's preferences, and the PR body of the added image lists where the resolver still
chose otherwise (differences).
"""

from __future__ import annotations

from . import lockfile


def sibling(manifest, image, platform: str, root):
    """(name, LockFile) of the image's locked sibling on platform, or None."""
    for other in manifest.images.values():
        if other.name == image.name or platform not in other.platforms:
            continue
        if (other.device, other.python, other.cann_version) != (image.device, image.python, image.cann_version):
            continue
        lock = lockfile.read(lockfile.path_for(root, other.name, platform))
        if lock is not None:
            return other.name, lock
    return None


def differences(lock, sibling_lock) -> list:
    """`name version (sibling: version)` for each package both locks hold at different versions."""
    theirs = sibling_lock.by_name()
    return [f"{e.name} {e.version} (sibling: {theirs[e.name].version})" for e in sorted(lock.packages, key=lambda e: e.name)
            if e.name in theirs and theirs[e.name].version != e.version]
