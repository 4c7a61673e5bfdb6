"""Offline checks of pins.yaml against the committed locks (no network, no resolver run).

  stale   a lock whose input fingerprint differs from what pins.yaml asks now (or missing)
  pins    a pin that a locked package's own requirements reject, e.g. torch 2.13.0 while the
          locked vllm-ascend 0.23.0 requires torch==2.10.0: caught by `render` and `lock`
          before anything is written, with both requirements and the pins.yaml line
"""

from __future__ import annotations

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from ..errors import UserError
from . import lockfile
from .request import build_request
from .resolve import applies, parse_requirement, pin_line


def targets(manifest) -> list:
    """(image, platform) of every lock, in pins.yaml order."""
    return [(image, platform) for image in manifest.images.values() for platform in image.platforms]


def stale(manifest, root, resolver_version: str) -> list:
    """One line per lock that is missing or was made from other inputs than pins.yaml asks now."""
    problems = []
    for image, platform in targets(manifest):
        path = lockfile.path_for(root, image.name, platform)
        lock = lockfile.read(path)
        want = build_request(manifest, image, platform).fingerprint(resolver_version)
        if lock is None:
            problems.append(f"{path.relative_to(root)}: missing; run `make lock`")
        elif lock.inputs != want:
            problems.append(f"{path.relative_to(root)}: stale against pins.yaml; run `make lock`")
    return problems


def check_pins(manifest, root) -> None:
    """Raise the first pin that locked packages' declared requirements reject, naming the
    requirement of the highest-layer package (the framework, over a sibling of the pin)."""
    for image, platform in targets(manifest):
        lock = lockfile.read(lockfile.path_for(root, image.name, platform))
        if lock is None:
            continue
        found = _violations(manifest, image, platform, lock)
        if found:
            comp, version = found[0][1], found[0][2]
            same = [f"{e.name} {e.version}" for e, c, _, _ in found[1:] if c is comp]
            entry, _, _, line = found[0]
            also = f"; also rejected by {', '.join(same)}" if same else ""
            raise manifest.error(comp.keypath + ("version",), (
                f"{entry.name} {entry.version} requires {line.split(';')[0].strip()}; "
                f"{pin_line(manifest, comp.name)} pins {comp.dist} {version} "
                f"(locked for {image.name} on {platform}{also})"))


def _violations(manifest, image, platform, lock) -> list:
    """(entry, rejected component, its pinned version, requirement line), highest layer first."""
    image = image.on(platform)
    request = build_request(manifest, image, platform)
    pinned = _pinned(manifest, image, platform)
    order = {tier: i for i, tier in enumerate(request.tier_order)}
    found = []
    for entry in lock.packages:
        current = request.stack.get(entry.name)
        if entry.requires is None or current is None or current[2] != entry.version:
            continue
        extras = manifest.components[current[0]].get("extras") or ()
        for line in entry.requires:
            problem = _rejects(line, request, extras, pinned)
            if problem:
                found.append((entry, problem[0], problem[1], line))
    return sorted(found, key=lambda f: -order.get(request.stack[f[0].name][1], 0))


def _pinned(manifest, image, platform) -> dict:
    """dist -> (component, version) of every versioned pin of the image on this platform."""
    image = image.on(platform)
    out = {}
    for comp in [*image.components, *image.constraints]:
        version = comp.version_for(platform)
        if version and not comp.get("overrides"):
            out[comp.dist] = (comp, version)
    return out


def _rejects(line, request, extras, pinned):
    try:
        requirement = parse_requirement(line)
    except ValueError:
        return None
    if not applies(line, request, extras):
        return None
    target = pinned.get(canonicalize_name(requirement.name))
    if target is None:
        return None
    comp, version = target
    try:
        if requirement.specifier.contains(Version(version), prereleases=True):
            return None
    except InvalidVersion:
        return None
    return comp, version
