"""What the resolver is asked for one image on one platform, derived from pins.yaml alone.

The request is a pure function of the pins (no network): its fingerprint is recorded in the
lock, so the drift gate can tell a stale lock offline. Requirements that live inside a
pinned artifact (`requires_from`) are named here by the artifact's sha256 and read at
resolution time.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from packaging.utils import canonicalize_name

from ..manifest.model import PLATFORM_ARCH

TEST_TIER = "test-tools"  # locked with the image, never installed in it


@dataclass(frozen=True)
class Root:
    requirement: str  # PEP 508
    component: str
    tier: str


@dataclass(frozen=True)
class External:
    """A pin the lock lists without resolving it: installed as pinned, --no-deps."""
    component: str
    dist: str
    version: str  # or the git ref
    origin: str  # index URL, or git repo
    reason: str
    tier: str
    commit: str = ""
    requires: tuple = ()


@dataclass(frozen=True)
class SourceBuild:
    """A pinned artifact (sdist URL) installed from source in the image."""
    component: str
    dist: str
    version: str
    url: str
    sha256: str
    tier: str
    requires_from: str = ""


@dataclass(frozen=True)
class Archive:
    """A pinned archive of wheels (sgl-kernel-npu's release zip), installed --no-deps.

    sha256 is the pin's; without one the lock records what it downloads, or the reason it could not."""
    component: str
    version: str
    url: str
    sha256: str
    wheels: tuple  # canonical distributions of the wheels inside
    tier: str
    external: str = ""  # why no sha256 is pinned
    requires: tuple = ()


@dataclass
class Request:
    image: str
    platform: str
    python: str
    uv_platform: str
    roots: list = field(default_factory=list)
    constraints: list = field(default_factory=list)
    overrides: list = field(default_factory=list)
    excludes: list = field(default_factory=list)
    dependency_metadata: list = field(default_factory=list)  # {name, version, requires-dist}
    sources: dict = field(default_factory=dict)  # dist -> index name
    indexes: dict = field(default_factory=dict)  # index name -> canonical URL
    externals: list = field(default_factory=list)
    source_builds: list = field(default_factory=list)
    archives: list = field(default_factory=list)
    stack: dict = field(default_factory=dict)  # dist -> (component, tier, version) of the stack's own pins
    tier_order: list = field(default_factory=list)

    def fingerprint(self, resolver_version: str) -> str:
        data = asdict(self)
        if not data["archives"]:
            del data["archives"]  # so the locks of images without archives keep their fingerprint
        data["resolver"] = resolver_version
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def uv_platform(image, platform: str) -> str:
    return f"{PLATFORM_ARCH[platform]}-manylinux_{image.base.get('glibc')}"


def build_request(manifest, image, platform: str) -> Request:
    image = image.on(platform)
    request = Request(image=image.name, platform=platform, python=image.python,
                      uv_platform=uv_platform(image, platform),
                      indexes={name: index.url for name, index in manifest.indexes.items()},
                      tier_order=[tier.name for tier in image.tiers] + [TEST_TIER])
    for tier, _, comp in image.installs():
        _add_component(request, comp, tier.name, platform, manifest)
    for comp in image.constraints:
        _add_constraint(request, comp, platform, manifest)
    for comp in image.test_tools:
        request.roots.append(Root(_pin(comp, platform), comp.name, TEST_TIER))
    for comp in image.components + list(image.constraints):
        for requirement in comp.build.get("requires", ()):
            request.roots.append(Root(requirement, comp.name, image.tiers[0].name))
    request.excludes += [canonicalize_name(dist) for dist in image.omits]
    # a test tool another pin's `without` leaves out of the image is still locked, in its own tier
    request.excludes = sorted(set(request.excludes) - {comp.dist for comp in image.test_tools})
    return request


def _pin(comp, platform) -> str:
    extras = f"[{','.join(comp.get('extras'))}]" if comp.get("extras") else ""
    return f"{comp.dist}{extras}=={comp.version_for(platform)}"


def _add_component(request, comp, tier, platform, manifest):
    if comp.source in ("pypi", "url", "git"):
        request.stack[comp.dist] = (comp.name, tier, comp.version_for(platform) if comp.source != "git" else comp.ref)
    reason = comp.external_reason(platform)
    requires = comp.requires_for(platform)
    request.excludes += [canonicalize_name(dist) for dist in comp.get("without") or {}]
    if comp.source == "archive":
        build = comp.build_for(platform)
        request.archives.append(Archive(
            component=comp.name, version=comp.version, url=comp.url_for(platform), sha256=build.get("sha256", ""),
            wheels=comp.wheels, tier=tier, external=reason or "", requires=tuple(requires or ())))
        request.excludes += list(comp.wheels)
        request.roots += [Root(r, comp.name, tier) for r in requires or ()]
        return
    if reason:
        request.externals.append(External(
            component=comp.name, dist=comp.dist, version=comp.version_for(platform) or comp.ref,
            origin=comp.get("repo") or manifest.indexes[comp.index_for(platform)].url, reason=reason, tier=tier,
            commit=comp.get("commit", ""), requires=tuple(requires or ())))
        request.excludes.append(comp.dist)
        request.roots += [Root(r, comp.name, tier) for r in requires or ()]
        return
    if comp.source == "url":
        request.source_builds.append(SourceBuild(
            component=comp.name, dist=comp.dist, version=comp.version, url=comp.get("url"), sha256=comp.get("sha256"),
            tier=tier, requires_from=comp.get("requires_from", "")))
        request.excludes.append(comp.dist)
        request.roots += [Root(r, comp.name, tier) for r in requires or ()]
        return
    request.roots.append(Root(_pin(comp, platform), comp.name, tier))
    _common(request, comp, platform, manifest)
    if requires is not None:
        request.dependency_metadata.append({"name": comp.dist, "version": comp.version_for(platform),
                                            "requires-dist": list(requires)})


def _add_constraint(request, comp, platform, manifest):
    pin = f"{comp.dist}=={comp.version_for(platform)}"
    (request.overrides if comp.get("wins_over") else request.constraints).append(pin)
    index = comp.index_for(platform)
    if index != "pypi":
        request.sources[comp.dist] = index


def _common(request, comp, platform, manifest):
    if comp.get("wins_over"):
        request.overrides.append(f"{comp.dist}=={comp.version_for(platform)}")
    index = comp.index_for(platform)
    if index != "pypi":
        request.sources[comp.dist] = index
