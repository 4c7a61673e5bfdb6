"""The validated, expanded pins: indexes, tiers, runners, components, patches and images."""

from __future__ import annotations

import re
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from .grammar import fill_version

PLATFORM_ARCH = {"linux/amd64": "x86_64", "linux/arm64": "aarch64"}
SOURCES_ROOT = "/opt/sources"  # git trees an image puts on its import path live here
# rollout backends: (the role that names it, its NPU companion role)
ROLLOUT_BACKENDS = (("vllm", "vllm_ascend"), ("sglang", "sgl_kernel"))


def release_of_tag(tag: str) -> Version | None:
    """The leading version in a tag: v0.23.0 -> 0.23.0, 9.1.0-910b-... -> 9.1.0."""
    match = re.match(r"v?(\d+(?:\.\d+)*(?:\.?post\d+)?)", tag or "")
    if not match:
        return None
    try:
        return Version(match.group(1))
    except InvalidVersion:
        return None


def python_of_tag(tag: str) -> str | None:
    match = re.search(r"py(3\.\d+)", tag or "")
    return match.group(1) if match else None


def platform_slug(platform: str) -> str:
    """linux/arm64 -> linux-arm64 (file names), and arm64 for tags."""
    return platform.replace("/", "-")


def arch_of(platform: str) -> str:
    return platform.split("/", 1)[1]


@dataclass(frozen=True)
class Index:
    name: str
    url: str
    reason: str


@dataclass(frozen=True)
class Tier:
    name: str
    roles: tuple
    doc: str
    position: int
    split_dependencies: bool = False


@dataclass(frozen=True)
class Runner:
    """A runner kind holding a device: where a candidate's device checks run."""
    name: str
    device: str
    runs_on: dict  # platform -> [labels]; a platform left out has no such runner
    npus: int = 0  # NPU devices a node holds (/dev/davinci0..npus-1); 0: not declared


@dataclass(frozen=True)
class Registry:
    name: str
    url: str
    reason: str


@dataclass(frozen=True)
class Component:
    """One pin. `spec` is its pins.yaml mapping; the properties read it by meaning."""

    name: str
    keypath: tuple
    spec: dict = field(compare=True, hash=False)

    def __hash__(self):
        return hash((self.name, self.keypath))

    def get(self, key: str, default: Any = None) -> Any:
        return self.spec.get(key, default)

    @property
    def source(self) -> str:
        return self.spec["source"]

    @property
    def dist(self) -> str:
        """Canonical distribution name (PEP 503)."""
        return canonicalize_name(self.spec.get("package") or self.name)

    @property
    def version(self) -> str | None:
        return self.spec.get("version")

    @property
    def ref(self) -> str | None:
        return self.spec.get("tag") or self.spec.get("branch")

    @property
    def release(self) -> Version | None:
        if self.version:
            return Version(self.version)
        if self.source in ("git", "image"):
            return release_of_tag(self.spec.get("tag"))
        return None

    def external_reason(self, platform: str) -> str | None:
        """Why the lock cannot resolve it for this platform (None: it can).

        External pins are installed as pinned and --no-deps, from their own source."""
        if self.source == "git":
            return "git sources are fetched at their pinned commit, not resolved"
        if self.source == "archive" and self.build_for(platform).get("sha256"):
            return None
        return self.build_for(platform).get("external") or self.spec.get("external")

    def requires_for(self, platform: str) -> list | None:
        """Dependencies installed for it instead of its own metadata's (None: its metadata's)."""
        build = self.build_for(platform)
        if "requires" in build:
            return list(build["requires"])
        return list(self.spec["requires"]) if "requires" in self.spec else None

    @property
    def build(self) -> dict:
        return self.spec.get("build") or {}

    @property
    def wheels(self) -> tuple:
        """Archives: the canonical distributions of the wheels inside."""
        return tuple(canonicalize_name(w) for w in self.spec.get("wheels") or ())

    @property
    def install(self) -> dict:
        """Git sources: {subdirectory, pyproject, path} of how the tree is installed."""
        return self.spec.get("install") or {}

    @property
    def import_path(self) -> str:
        """Git sources put on the import path instead of pip-installed: where the image keeps the tree's
        directory (upstream's Megatron-Bridge is on PYTHONPATH, never installed)."""
        path = self.install.get("path")
        return f"{SOURCES_ROOT}/{self.name}/{path}" if path else ""

    @property
    def reference(self) -> str:
        """Base images: the reference to pull, or to import a bootstrapped base under."""
        return f"{self.spec['image']}:{self.spec['tag']}"

    @property
    def summary(self) -> str:
        if self.source == "pypi":
            return self.version
        if self.source == "url":
            return f"{self.version} (sha256 {self.spec['sha256'][:12]})"
        if self.source == "git":
            return f"{self.ref} @ {self.spec['commit'][:12]}"
        if self.source == "archive":
            return f"{self.version} ({', '.join(self.wheels)})"
        return self.reference + (f"@{self.spec['digest']}" if self.spec.get("digest") else "")

    @property
    def link(self) -> str:
        """Where a reviewer can look this pin up."""
        if self.source == "pypi":
            return f"https://pypi.org/project/{self.dist}/{self.version}/"
        if self.source == "git":
            return f"{self.spec['repo'].removesuffix('.git')}/tree/{self.spec['commit']}"
        if self.source == "url":
            return self.spec["url"]
        if self.source == "archive":
            return self.url_for(next(iter(self.spec["builds"])))
        host = self.spec["image"].split("/")[0]
        return f"https://{self.spec['image']}" if "." in host else f"https://hub.docker.com/r/{self.spec['image']}"

    def build_for(self, platform: str) -> dict:
        """{index, local} of this release on a platform (torch on x86_64: the +cpu build)."""
        return (self.spec.get("builds") or {}).get(platform, {})

    def url_for(self, platform: str) -> str:
        """Archives: the download URL of a platform's build, its {version} filled."""
        return fill_version(self.build_for(platform)["url"], self.version)

    def version_for(self, platform: str) -> str | None:
        local = self.build_for(platform).get("local")
        return f"{self.version}+{local}" if local and self.version else self.version

    def index_for(self, platform: str) -> str:
        return self.build_for(platform).get("index") or self.spec.get("index") or "pypi"

    def as_pin(self, platform: str | None = None) -> dict:
        """What pins.json says about this component."""
        out = {"name": self.name, "source": self.source}
        for key in ("version", "repo", "tag", "branch", "commit", "url", "sha256", "image", "digest"):
            if self.spec.get(key):
                out[key] = self.spec[key]
        if self.source not in ("image", "archive"):
            out["dist"] = self.dist
        if self.source == "git" and not self.version and self.release:
            out["version"] = str(self.release)
        if self.spec.get("extras"):
            out["extras"] = list(self.spec["extras"])
        if self.source == "archive":
            out["wheels"] = list(self.wheels)
        if self.import_path:
            out["import_path"] = self.import_path
        return out


@dataclass(frozen=True)
class Patch:
    name: str
    keypath: tuple
    package: str
    file: str
    sha256: str
    diff: str
    reason: str
    issue: str

    def as_dict(self) -> dict:
        return {"name": self.name, "package": self.package, "file": self.file, "sha256": self.sha256,
                "diff": self.diff.rsplit("/", 1)[-1]}


@dataclass(frozen=True)
class Image:
    name: str
    keypath: tuple  # of the images.<key> it was expanded from
    device: str
    base: Component
    python: str
    platforms: tuple
    runner: Runner
    waivers: dict  # platform -> why it is published without device checks
    soc_version: str
    tag_format: str
    default: bool
    stack: dict  # role -> tuple of Components, in tier order
    only: dict  # component name -> the one platform it is installed on (others: every platform)
    constraints: tuple  # Components pinning dependencies of the stack
    test_tools: tuple  # Components locked with the image, installed only for `build.py verl-tests`
    tiers: tuple  # the manifest's Tiers
    apt_build: tuple
    apt_runtime: tuple
    env: dict
    patches: tuple
    axes: dict  # axis -> value
    release: str = ""  # the verl release the image line is frozen at ("": the latest line)
    upstream: str = ""  # the upstream file the image is checked against
    omits: dict = field(default_factory=dict)  # distribution -> why: what the upstream file installs, left out
    differs: dict = field(default_factory=dict)  # what -> why: how it differs at run time from upstream's image
    pip_extra_index: dict = field(default_factory=dict)  # platform -> the index torch comes from, when not PyPI
    upstream_tag_formats: tuple = ()  # upstream's names for this image's line, pushed as aliases
    upstream_soc: str = ""  # the SoC as upstream's tags spell it
    origins: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def components(self) -> list:
        """Every component the image installs, in install order (tier, then role)."""
        return [comp for _, _, comp in self.installs()]

    def installs(self) -> list:
        """(tier, role, component) in install order."""
        out = []
        for tier in self.tiers:
            for role in tier.roles:
                for comp in self.stack.get(role, ()):
                    out.append((tier, role, comp))
        return out

    def device_runs_on(self, platform: str) -> list | None:
        """Labels of the runner that runs the device checks for this platform (None: there is none)."""
        return self.runner.runs_on.get(platform)

    def on(self, platform: str) -> "Image":
        """The image as built for one platform: components meant for another platform left out."""
        stack = {role: tuple(c for c in comps if self.only.get(c.name, platform) == platform)
                 for role, comps in self.stack.items()}
        return dataclasses.replace(self, stack=stack, only={})

    def platforms_of(self, comp: Component) -> tuple:
        return (self.only[comp.name],) if comp.name in self.only else self.platforms

    def varies(self, role: str) -> bool:
        """Does the role install a different component per platform?"""
        return any(c.name in self.only for c in self.stack.get(role, ()))

    def role(self, role: str) -> Component | None:
        """The (first) component filling a role, or None."""
        comps = self.stack.get(role) or ()
        return comps[0] if comps else None

    @property
    def backend(self) -> str | None:
        """The rollout backend the image runs (vllm or sglang), or None."""
        return next((pair[0] for pair in ROLLOUT_BACKENDS if pair[0] in self.stack), None)

    def tier_of(self, comp: Component) -> Tier:
        return next(tier for tier, _, c in self.installs() if c is comp)

    def _pin(self, comp: Component) -> dict:
        pin = comp.as_pin()
        if comp.name in self.only:
            pin["platforms"] = [self.only[comp.name]]
        return pin

    @property
    def cann_version(self) -> str:
        if self.device != "npu":
            return ""
        release = self.base.release
        return str(release) if release else ""

    @property
    def human_tag(self) -> str:
        return self.tag_format.format(**self.tag_fields())

    @property
    def upstream_tags(self) -> tuple:
        """upstream's tags for this image, filled in (the tag-format rule checks each)."""
        return tuple(f.format(**self.tag_fields()) for f in self.upstream_tag_formats)

    def tag_fields(self) -> dict:
        values = {"name": self.name, "python": self.python, **self.axes}
        if self.upstream_soc:
            values["upstream_soc"] = self.upstream_soc
        values["base"] = str(self.base.release) if self.base.release else self.base.spec["tag"]
        for role in self.stack:
            if self.varies(role):
                continue  # no single value: a tag naming it is refused by the tag-fields rule
            comp = self.role(role)
            values[role] = str(comp.release) if comp.release else comp.ref
        return values

    def where(self, rel: tuple) -> tuple:
        """The pins.yaml keypath a merged field came from (image body, axis or override)."""
        for cut in range(len(rel), 0, -1):
            if rel[:cut] in self.origins:
                return self.origins[rel[:cut]] + rel[cut:]
        return self.keypath + rel

    def pins(self, repository: str) -> dict:
        """The resolved pins, as committed in images/<name>/pins.json and shipped in the image."""
        return {
            "image": self.name,
            "repository": repository,
            "tag": self.human_tag,
            "device": self.device,
            "python": self.python,
            "platforms": list(self.platforms),
            "soc_version": self.soc_version,
            "cann_version": self.cann_version,
            "base": self.base.as_pin(),
            "stack": {role: [self._pin(comp) for comp in self.stack[role]] for role in self.stack},
            "constraints": [comp.as_pin() for comp in self.constraints],
            "env": {**(self.base.get("env") or {}), **self.env},
            "patches": [p.as_dict() for p in self.patches],
            "wins_over": sorted({c.dist for c in [*self.components, *self.constraints] if c.get("wins_over")}),
            "without": sorted({canonicalize_name(d) for c in self.components for d in (c.get("without") or {})}
                              | {canonicalize_name(d) for d in self.omits}),
            "mounted_libraries": list(self.base.get("mounted_libraries") or ()),
            "pip_extra_index": dict(self.pip_extra_index),
        }


@dataclass
class Manifest:
    path: Any
    doc: Any
    repository: str
    indexes: dict
    tiers: tuple
    build_runners: dict  # platform -> runs-on labels of the hosted runner that builds every image
    runners: dict  # name -> Runner holding a device
    registries: dict
    components: dict
    patches: dict
    images: dict  # name -> Image, in file order

    @property
    def default_image(self) -> Image:
        return next(img for img in self.images.values() if img.default)

    def image(self, name: str) -> Image:
        from ..errors import UserError

        if name not in self.images:
            raise UserError(f"unknown image {name!r} (known: {', '.join(self.images)})", file=self.doc.name)
        return self.images[name]

    def error(self, keypath, message):
        return self.doc.error(keypath, message)

    def line(self, keypath) -> int:
        return self.doc.line(keypath)

    def pin_text(self, comp: Component) -> str:
        """`name summary (pins.yaml:LINE)`: how messages name a pin."""
        return f"{comp.name} {comp.summary} ({self.doc.name}:{self.line(comp.keypath)})"

    def lines(self) -> dict:
        """release ("" for the latest line) -> its images, in file order."""
        out: dict = {}
        for img in self.images.values():
            out.setdefault(img.release, []).append(img)
        return out

    def users_of(self, component: str) -> list:
        return [img.name for img in self.images.values()
                if any(c.name == component for c in [img.base, *img.components, *img.constraints, *img.test_tools])]

    def alternatives_of(self, image: Image) -> list:
        """Components declared as alternatives to one the image installs."""
        used = {c.name for c in image.components}
        return [c for c in self.components.values() if c.get("alternative_to") in used]
