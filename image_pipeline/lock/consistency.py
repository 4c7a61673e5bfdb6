"""Offline checks of pins.yaml against the committed locks (no network, no resolver run).

  stale   a lock whose input fingerprint differs from what pins.yaml asks now (or missing)
  pins    a pin that a locked package's own requirements reject, e.g. torch 2.13.0 while the
          locked vllm-ascend 0.23.0 requires torch==2.10.0: caught by `render` and `lock`
          before anything is written, with both requirements and the pins.yaml line; a pin's
          `wins_over` exempts only the requirers it names (each must require the pin in a lock)
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

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
    requirement of the highest-layer package (the framework, over a sibling of the pin). A pin's
    `wins_over` exempts only the requirers it names: every other requirer's specifier still binds."""
    _check_wins_over_names_requirers(manifest, root)
    for image, platform in targets(manifest):
        lock = lockfile.read(lockfile.path_for(root, image.name, platform))
        if lock is None:
            continue
        found = _violations(manifest, image, platform, lock)
        if found:
            requirer, comp, version, line = found[0]
            same = [f"{r.name} {r.version}" for r, c, _, _ in found[1:] if c is comp]
            also = f"; also rejected by {', '.join(same)}" if same else ""
            exempt = comp.get("wins_over")
            unnamed = f"; its wins_over names {', '.join(exempt)}, not {requirer.name}" if exempt else ""
            raise manifest.error(comp.keypath + ("version",), (
                f"{requirer.text(manifest)} requires {line.split(';')[0].strip()}; "
                f"{pin_line(manifest, comp.name)} pins {comp.dist} {version} "
                f"(locked for {image.name} on {platform}{also}){unnamed}"))


@dataclass(frozen=True)
class Requirer:
    """A locked package whose requirements the lock records: one of the stack's own pins (its metadata,
    or the pin's `requires`), an external, a source build or an archive's pin."""
    name: str
    version: str
    tier: str
    lines: tuple
    component: str
    extras: tuple = ()

    def text(self, manifest) -> str:
        where = f" ({pin_line(manifest, self.component)})" if self.component in manifest.components else ""
        return f"{self.name} {self.version}{where}"


def requirers(manifest, request, lock) -> list:
    out = []
    for entry in lock.packages:
        current = request.stack.get(entry.name)
        if entry.requires is None or current is None or current[2] != entry.version:
            continue
        extras = tuple(manifest.components[current[0]].get("extras") or ())
        out.append(Requirer(entry.name, entry.version, current[1], tuple(entry.requires), current[0], extras))
    for item in [*lock.externals, *lock.source_builds, *lock.archives]:
        name = item.get("dist") or item["component"]
        out.append(Requirer(name, item["version"], item["tier"], tuple(item.get("requires") or ()), item["component"]))
    return out


def _violations(manifest, image, platform, lock) -> list:
    """(requirer, rejected component, its pinned version, requirement line), highest layer first."""
    image = image.on(platform)
    request = build_request(manifest, image, platform)
    pinned = _pinned(manifest, image, platform)
    order = {tier: i for i, tier in enumerate(request.tier_order)}
    found = []
    for requirer in requirers(manifest, request, lock):
        for line in requirer.lines:
            problem = _rejects(line, request, requirer, pinned)
            if problem:
                found.append((requirer, problem[0], problem[1], line))
    return sorted(found, key=lambda f: -order.get(f[0].tier, 0))


def _pinned(manifest, image, platform) -> dict:
    """dist -> (component, version) of every versioned pin of the image on this platform."""
    image = image.on(platform)
    out = {}
    for comp in [*image.components, *image.constraints]:
        version = comp.version_for(platform)
        if version:
            out[comp.dist] = (comp, version)
    return out


def _rejects(line, request, requirer, pinned):
    try:
        requirement = parse_requirement(line)
    except ValueError:
        return None
    if not applies(line, request, requirer.extras):
        return None
    target = pinned.get(canonicalize_name(requirement.name))
    if target is None:
        return None
    comp, version = target
    if requirer.name in (comp.get("wins_over") or {}):
        return None
    try:
        if requirement.specifier.contains(Version(version), prereleases=True):
            return None
    except InvalidVersion:
        return None
    return comp, version


def _check_wins_over_names_requirers(manifest, root) -> None:
    """Each package a `wins_over` names requires the pinned distribution in some lock of the pin's images
    (the lock's `via`, or a requirement it records): a misspelt or stale name would exempt nobody."""
    for comp in manifest.components.values():
        named = comp.get("wins_over") or {}
        seen, locked = set(), []
        for image in (manifest.images[name] for name in manifest.users_of(comp.name)):
            for platform in image.platforms:
                lock = lockfile.read(lockfile.path_for(root, image.name, platform))
                if lock is None:
                    continue
                locked.append(image.name)
                entry = lock.by_name().get(comp.dist)
                seen.update(entry.via if entry else ())
                if {canonicalize_name(d) for d in named} - seen:  # not all in `via`: look at recorded requirements
                    request = build_request(manifest, image.on(platform), platform)
                    seen.update(r.name for r in requirers(manifest, request, lock) if comp.dist in _names(r.lines))
        for dist in named:
            if locked and canonicalize_name(dist) not in seen:
                close = difflib.get_close_matches(canonicalize_name(dist), sorted(seen), n=1)
                raise manifest.error(comp.keypath + ("wins_over", dist), (
                    f"{dist} requires {comp.dist} in no lock of {', '.join(dict.fromkeys(locked))}"
                    + (f" (did you mean {close[0]!r}?)" if close else "")))


def _names(lines) -> set:
    out = set()
    for line in lines:
        try:
            out.add(canonicalize_name(parse_requirement(line).name))
        except ValueError:
            continue
    return out
