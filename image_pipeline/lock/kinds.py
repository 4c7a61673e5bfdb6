"""A re-lock may not quietly change how a package reaches the image.

A locked package is a wheel (unpacked as built) or an sdist (compiled in the image, with whatever
settings its build happens to get). A resolution that turns a wheel into an sdist -- a release
published without a wheel for one platform, as vllm-ascend 0.23.0.post1 is -- would compile native
code with no kernel settings and drop the package's dependency edges from the lock, and the only
trace would be a layer's size. So such a change is refused, naming the package, the platform and
both files, unless pins.yaml declares the source build: a component for the package with a
`build` section (its env, pip options, build requirements) and a reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError


@dataclass(frozen=True)
class KindChange:
    name: str
    old: object  # lockfile.Artifact
    new: object


def changes(old_lock, new_lock) -> list:
    """Every package both locks hold whose artifact kind differs, in name order."""
    if old_lock is None:
        return []
    before = old_lock.by_name()
    return [KindChange(entry.name, before[entry.name].artifact, entry.artifact)
            for entry in sorted(new_lock.packages, key=lambda e: e.name)
            if entry.name in before and before[entry.name].artifact.kind != entry.artifact.kind]


def declared_source_builds(image) -> set:
    """The distributions pins.yaml says how to build from source in this image."""
    return {comp.dist for comp in [*image.components, *image.constraints] if comp.build}


def check(image, platform: str, old_lock, new_lock, path) -> None:
    """Refuse a wheel that became a source build the image does not declare."""
    declared = declared_source_builds(image)
    for change in changes(old_lock, new_lock):
        if change.new.kind == "sdist" and change.name not in declared:
            raise UserError(
                f"{change.name} loses its wheel on {platform}: {change.old.name} -> {change.new.name} would be "
                f"compiled in the image with no declared settings; pin a version with a {platform} wheel, or declare "
                f"the source build in pins.yaml (the component's `build`: env, pip, requires; why in its reason)",
                file=str(path))
