"""pins.yaml -> validated, expanded model of components and images."""

from __future__ import annotations

import copy
import itertools
import re
import string
from dataclasses import dataclass, field
from pathlib import Path

from packaging.version import Version

from . import schema
from .errors import UserError
from .yamlstrict import Document, dotted, load

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "pins.yaml"


@dataclass(frozen=True)
class Component:
    name: str
    source: str
    keypath: tuple
    version: str | None = None
    package: str | None = None
    repo: str | None = None
    tag: str | None = None
    branch: str | None = None
    commit: str | None = None
    url: str | None = None
    sha256: str | None = None
    image: str | None = None
    digest: str | None = None
    python: str | None = None
    cpu_index: str | None = None
    build: dict = field(default_factory=dict)
    bootstrap: dict = field(default_factory=dict)
    env_scripts: tuple = ()
    reason: str = ""
    issue: str = ""

    @property
    def build_env(self) -> list:
        return list((self.build.get("env") or {}).items())

    @property
    def build_cmake(self) -> list:
        return list(self.build.get("cmake") or ())

    @property
    def build_pip(self) -> list:
        return list(self.build.get("pip") or ())

    @property
    def dist(self) -> str:
        return self.package or self.name

    @property
    def ref(self) -> str | None:
        return self.tag or self.branch

    @property
    def release(self) -> Version | None:
        if self.version:
            return Version(self.version)
        if self.source in ("git", "image") and self.tag:
            return schema.release_of_tag(self.tag)
        return None

    @property
    def reference(self) -> str:
        """Base images: the reference to pull or to import a bootstrapped base under."""
        return f"{self.image}:{self.tag}"

    @property
    def summary(self) -> str:
        if self.source == "pypi":
            return self.version
        if self.source == "url":
            return f"{self.version} (sha256 {self.sha256[:12]})"
        if self.source == "git":
            return f"{self.ref} @ {self.commit[:12]}"
        return self.reference + (f"@{self.digest}" if self.digest else "")

    @property
    def link(self) -> str:
        """Where a reviewer can look this pin up."""
        if self.source == "pypi":
            return f"https://pypi.org/project/{self.dist}/{self.version}/"
        if self.source == "git":
            return f"{self.repo.removesuffix('.git')}/tree/{self.commit}"
        if self.source == "url":
            return self.url
        return f"https://{self.image}" if "." in self.image.split("/")[0] else f"https://hub.docker.com/r/{self.image}"

    def as_dict(self) -> dict:
        out = {"name": self.name, "source": self.source}
        for key in ("package", "version", "repo", "tag", "branch", "commit", "url", "sha256", "image",
                    "digest", "python"):
            value = getattr(self, key)
            if value:
                out[key] = value
        if self.source == "git" and not self.version and self.release:
            out["version"] = str(self.release)  # what the tag says the source is
        if self.source == "pypi" or self.package:
            out["dist"] = self.dist
        return out


@dataclass(frozen=True)
class Patch:
    name: str
    package: str
    file: str
    sha256: str
    diff: str
    reason: str
    issue: str
    keypath: tuple

    def as_dict(self) -> dict:
        return {"name": self.name, "package": self.package, "file": self.file, "sha256": self.sha256,
                "diff": Path(self.diff).name}


@dataclass(frozen=True)
class Image:
    name: str
    keypath: tuple  # of the images.<key> it was expanded from
    device: str
    base: Component
    python: str
    platforms: tuple
    runner: str
    soc_version: str
    tag_format: str
    default: bool
    stack: dict  # role -> Component, in install order
    apt_build: tuple
    apt_runtime: tuple
    env: dict
    patches: tuple
    axes: dict  # axis -> value
    origins: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def components(self) -> list:
        """Every component the image uses: base first, then in install order."""
        return [self.base] + list(self.stack.values())

    @property
    def human_tag(self) -> str:
        return self.tag_format.format(**self.tag_fields())

    @property
    def constraints(self) -> list:
        """pip constraints every install in the build stage must keep."""
        return [f"{c.dist}=={c.version}" for role, c in self.stack.items()
                if role in schema.PROTECTED_ROLES and c.source == "pypi"]

    @property
    def offline(self) -> bool:
        """True when every Python package comes from the wheelhouse (no source builds)."""
        return all(c.source == "pypi" for c in self.stack.values())

    def tag_fields(self) -> dict:
        values = {"name": self.name, "python": self.python, **self.axes}
        values["base"] = str(self.base.release) if self.base.release else self.base.tag
        for role, comp in self.stack.items():
            values[role] = str(comp.release) if comp.release else comp.ref
        return values

    def where(self, rel: tuple) -> tuple:
        """The pins.yaml keypath a merged field came from (image body, axis or override)."""
        return _origin(self.origins, self.keypath, rel)

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
            "base": self.base.as_dict(),
            "stack": {role: comp.as_dict() for role, comp in self.stack.items()},
            "env": dict(self.env),
            "patches": [p.as_dict() for p in self.patches],
        }


@dataclass
class Manifest:
    path: Path
    doc: Document
    repository: str
    components: dict
    images: dict  # name -> Image, in file order
    patches: dict

    @property
    def default_image(self) -> Image:
        return next(img for img in self.images.values() if img.default)

    def image(self, name: str) -> Image:
        if name not in self.images:
            raise UserError(f"unknown image {name!r} (known: {', '.join(self.images)})", file=self.doc.name)
        return self.images[name]

    def error(self, keypath, message) -> UserError:
        return self.doc.error(keypath, message)

    def users_of(self, component: str) -> list:
        return [img.name for img in self.images.values() if any(c.name == component for c in img.components)]


def load_manifest(path: Path | None = None, *, check_rules: bool = True) -> Manifest:
    doc = load(path or DEFAULT_PATH)
    return build_manifest(doc, check_rules=check_rules)


def build_manifest(doc: Document, *, check_rules: bool = True) -> Manifest:
    data = doc.data
    schema.check_fields(data, schema.TOP, (), doc)
    if data["schema"] != 1:
        raise doc.error(("schema",), f"unsupported schema version {data['schema']} (this tool reads 1)")
    components = _load_components(doc, data["components"])
    patches = _load_patches(doc, data.get("patches") or {})
    axes = _load_axes(doc, data.get("axes") or {})
    images = _load_images(doc, data["images"], axes, components, patches)
    manifest = Manifest(doc.path, doc, data["repository"], components, images, patches)
    _check_usage(manifest)
    if check_rules:
        from .rules import check_all

        check_all(manifest)
    return manifest


def _mapping(doc, value, keypath, what):
    if not isinstance(value, dict) or not value:
        raise doc.error(keypath, f"must be a non-empty mapping of {what}")
    return value


def _load_components(doc, raw) -> dict:
    out = {}
    for name, body in _mapping(doc, raw, ("components",), "name: pin").items():
        keypath = ("components", name)
        problem = schema.check_name(name)
        if problem:
            raise doc.error(keypath, f"component name {problem}")
        if not isinstance(body, dict):
            raise doc.error(keypath, "must be a mapping")
        source = body.get("source")
        if source not in schema.SOURCES:
            raise doc.error(keypath + ("source",), f"must be one of {', '.join(schema.SOURCES)}, got {source!r}")
        schema.check_fields(body, schema.COMPONENT[source], keypath, doc)
        if source == "git" and ("tag" in body) == ("branch" in body):
            raise doc.error(keypath, "set exactly one of 'tag' or 'branch'")
        out[name] = _component(name, keypath, body)
    return out


def _component(name, keypath, body) -> Component:
    plain = {k: body[k] for k in ("version", "package", "repo", "tag", "branch", "commit", "url", "sha256",
                                  "image", "digest", "python", "cpu_index") if k in body}
    return Component(
        name=name, source=body["source"], keypath=keypath, reason=body.get("reason", ""),
        issue=body.get("issue", ""), build=copy.deepcopy(body.get("build") or {}),
        bootstrap=dict(body.get("bootstrap") or {}), env_scripts=tuple(body.get("env_scripts") or ()),
        **plain)


def _load_patches(doc, raw) -> dict:
    if not isinstance(raw, dict):
        raise doc.error(("patches",), "must be a mapping of name: patch")
    out = {}
    for name, body in raw.items():
        keypath = ("patches", name)
        problem = schema.check_name(name)
        if problem:
            raise doc.error(keypath, f"patch name {problem}")
        schema.check_fields(body, schema.PATCH, keypath, doc)
        diff = Path(body["diff"])
        if diff.is_absolute() or diff.parts[0] != "patches" or not (doc.path.parent / diff).is_file():
            raise doc.error(keypath + ("diff",), f"{body['diff']} must be an existing file under patches/")
        out[name] = Patch(name=name, package=body["target"]["package"], file=body["target"]["file"],
                          sha256=body["sha256"], diff=body["diff"], reason=body["reason"],
                          issue=body.get("issue", ""), keypath=keypath)
    return out


def _load_axes(doc, raw) -> dict:
    if not isinstance(raw, dict):
        raise doc.error(("axes",), "must be a mapping of axis: {value: fields}")
    for axis, values in raw.items():
        problem = schema.check_name(axis)
        if problem or not re.fullmatch(r"[a-z_][a-z0-9_]*", axis):
            raise doc.error(("axes", axis), f"axis name must be an identifier, got {axis!r}")
        for value, bundle in _mapping(doc, values, ("axes", axis), "value: fields").items():
            problem = schema.check_name(value)
            if problem:
                raise doc.error(("axes", axis, value), f"axis value {problem}")
            schema.check_fields(bundle, schema.AXIS_FIELDS, ("axes", axis, value), doc, require=False)
    return raw


def _load_images(doc, raw, axes, components, patches) -> dict:
    images = {}
    for key, body in _mapping(doc, raw, ("images",), "name: image").items():
        keypath = ("images", key)
        schema.check_fields(body, schema.IMAGE, keypath, doc, require=False)
        for name, merged, origins, combo in _expand(doc, key, body, axes):
            if name in images:
                raise doc.error(keypath, f"image name {name!r} is produced twice")
            images[name] = _image(doc, name, keypath, merged, origins, combo, components, patches)
    defaults = [name for name, img in images.items() if img.default]
    if len(defaults) != 1:
        raise doc.error(("images",), f"exactly one image must set default: true, found {len(defaults)}")
    return images


def _expand(doc, key, body, axes):
    keypath = ("images", key)
    expand = body.get("expand") or {}
    if not isinstance(expand, dict):
        raise doc.error(keypath + ("expand",), "must be a mapping of axis: [values]")
    for axis, values in expand.items():
        if axis not in axes:
            raise doc.error(keypath + ("expand", axis), f"unknown axis{schema.suggest(axis, axes)}")
        problem = schema.check_str_list(values)
        if problem or not values:
            raise doc.error(keypath + ("expand", axis), problem or "must list at least one value")
        for value in values:
            if value not in axes[axis]:
                raise doc.error(keypath + ("expand", axis), f"unknown value {value!r} of axis {axis!r}")
    placeholders = {f for _, f, _, _ in string.Formatter().parse(key) if f is not None}
    for name in placeholders - set(expand):
        raise doc.error(keypath, f"name uses {{{name}}} but the image does not expand over it")
    for axis, values in expand.items():
        if len(values) > 1 and axis not in placeholders:
            raise doc.error(keypath, f"name must contain {{{axis}}}: the image expands over {len(values)} values")
    overrides = body.get("override") or {}
    if not isinstance(overrides, dict):
        raise doc.error(keypath + ("override",), "must be a mapping of image-name: fields")
    produced = []
    for combo_values in itertools.product(*expand.values()):
        combo = dict(zip(expand, combo_values))
        name = key.format(**combo)
        produced.append(name)
        merged, origins = _merge_image(doc, keypath, body, axes, combo, overrides.get(name))
        yield name, merged, origins, combo
    for name in overrides:
        if name not in produced:
            raise doc.error(keypath + ("override", name), f"overrides an image this entry does not produce "
                                                          f"({', '.join(produced)})")


def _merge_image(doc, keypath, body, axes, combo, override):
    merged: dict = {}
    origins: dict = {}
    own = {k: v for k, v in body.items() if k not in ("expand", "override")}
    _merge(doc, merged, origins, own, keypath, (), replace=False)
    for axis, value in combo.items():
        _merge(doc, merged, origins, axes[axis][value], ("axes", axis, value), (), replace=False)
    if override is not None:
        schema.check_fields(override, schema.AXIS_FIELDS, keypath + ("override",), doc, require=False)
        _merge(doc, merged, origins, override, keypath + ("override",), (), replace=True)
    return merged, origins


def _merge(doc, target, origins, source, source_keypath, rel, *, replace):
    for key, value in source.items():
        here = rel + (key,)
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(doc, target[key], origins, value, source_keypath + (key,), here, replace=replace)
            continue
        if key in target and not replace:
            first = origins.get(here, ())
            raise doc.error(source_keypath + (key,),
                            f"also set at {dotted(first)}; set it in one place (or use override)")
        target[key] = copy.deepcopy(value)
        origins[here] = source_keypath + (key,)


def _image(doc, name, keypath, merged, origins, combo, components, patches) -> Image:
    problem = schema.check_name(name)
    if problem:
        raise doc.error(keypath, f"image name {problem}")

    def where(rel):
        return _origin(origins, keypath, rel)

    for spec in schema.IMAGE.values():
        if spec.required and spec.name not in merged:
            raise doc.error(keypath, f"image {name!r}: missing required key {spec.name!r}")
    stack = {}
    for role in schema.ROLES:
        if role in merged["stack"]:
            stack[role] = _resolve(doc, merged["stack"][role], where(("stack", role)), components)
    base = _resolve(doc, merged["base"], where(("base",)), components)
    image_patches = []
    for i, patch in enumerate(merged.get("patches") or ()):
        if patch not in patches:
            raise doc.error(where(("patches",)) + (i,), f"unknown patch {patch!r}")
        image_patches.append(patches[patch])
    apt = merged.get("apt") or {}
    return Image(
        name=name, keypath=keypath, device=merged["device"], base=base, python=merged["python"],
        platforms=tuple(merged["platforms"]), runner=merged["runner"], soc_version=merged.get("soc_version", ""),
        tag_format=merged["tag"], default=merged.get("default", False), stack=stack,
        apt_build=tuple(apt.get("build") or ()), apt_runtime=tuple(apt.get("runtime") or ()),
        env=dict(merged["env"]), patches=tuple(image_patches), axes=combo, origins=origins)


def _origin(origins, keypath, rel):
    for cut in range(len(rel), 0, -1):
        if rel[:cut] in origins:
            return origins[rel[:cut]] + rel[cut:]
    return keypath + rel


def _resolve(doc, name, keypath, components) -> Component:
    if name not in components:
        raise doc.error(keypath, f"unknown component {name!r}{schema.suggest(name, components)}")
    return components[name]


def _check_usage(manifest: Manifest):
    used = {c.name for img in manifest.images.values() for c in img.components}
    for name, comp in manifest.components.items():
        if name not in used:
            raise manifest.error(comp.keypath, "component is not used by any image (remove it or use it)")
    used_patches = {p.name for img in manifest.images.values() for p in img.patches}
    for name, patch in manifest.patches.items():
        if name not in used_patches:
            raise manifest.error(patch.keypath, "patch is not applied by any image")
