"""pins.yaml -> Manifest: schema, references, axis expansion, compatibility rules.

An image's fields are merged from its own body, then each axis value it expands over
(lists are joined; setting any other field in two places is an error), then its
`override:` entry, if any, which replaces.
"""

from __future__ import annotations

import copy
import itertools
import math
import string
import sys
from pathlib import Path

from . import document, grammar, references, schema
from .document import Document, dotted
from .model import Component, Image, Index, Manifest, Patch, Registry, Runner, Tier

# old name -> new name: `overrides` was one letter from an image's `override`; `deviates` a near-synonym
# of `differs` (a pin against upstream's file) for another thing (the cpu stand-in against the NPU pin)
RENAMED_PIN_FIELDS = {"overrides": "wins_over", "deviates": "cpu_stand_in"}
# old component name -> new: components are named with hyphens, as their dists are; torch_npu stays the
# role's name (and the import's), as every role is named with underscores
RENAMED_COMPONENTS = {"torch_npu": "torch-npu", "torch_npu-sglang": "torch-npu-sglang",
                      "torch_npu-verl0.8.0": "torch-npu-verl0.8.0"}
REQUIRED_IMAGE_FIELDS = ("device", "base", "python", "platforms", "runner", "tag", "stack", "env")
# CI runs one job per image and platform (`build.py matrix`), and a GitHub Actions matrix runs at most
# 256 jobs: more builds could never all run. Checked before an image entry expands, so a few lines of
# axes cannot mean a million images.
MAX_BUILDS = 256
TOO_MANY = (f"pins.yaml may make at most {MAX_BUILDS} builds (images x platforms): CI runs one job per build, and "
            f"a GitHub Actions matrix runs at most {MAX_BUILDS}")


def load_manifest(path: Path, *, check_rules: bool = True) -> Manifest:
    return build_manifest(document.load(path), check_rules=check_rules)


def build_manifest(doc: Document, *, check_rules: bool = True) -> Manifest:
    if not isinstance(doc.data, dict):
        raise doc.error((), f"must be a mapping at the top level, got {schema.kind(doc.data)}")
    _read_renamed_fields(doc)
    _read_renamed_components(doc)
    schema.check(doc)
    data = doc.data
    tiers = _tiers(doc, data["tiers"])
    components = {name: Component(name, ("components", name), body) for name, body in data["components"].items()}
    manifest = Manifest(
        path=doc.path, doc=doc, repository=data["repository"],
        indexes={n: Index(n, b["url"], b["reason"]) for n, b in data["indexes"].items()},
        tiers=tiers,
        build_runners=dict(data["runners"]["build"]),
        runners={n: Runner(n, b["device"], b["runs_on"], b.get("npus", 0)) for n, b in data["runners"]["device"].items()},
        registries={n: Registry(n, b["url"], b["reason"]) for n, b in (data.get("registries") or {}).items()},
        components=components,
        patches=_patches(doc, data.get("patches") or {}),
        images={})
    _check_component_references(manifest)
    _check_artifact_urls(manifest)
    manifest.images = _images(manifest, data["images"], data.get("axes") or {})
    _check_usage(manifest)
    references.check(manifest)
    if check_rules:
        from .rules import check_all

        check_all(manifest)
    return manifest


def _read_renamed_fields(doc: Document) -> None:
    """A pin's field under its old name is read as the new one, with one line on stderr saying so; the old
    names are read for one release."""
    components = doc.data.get("components")
    for name, body in (components.items() if isinstance(components, dict) else ()):
        for old, new in RENAMED_PIN_FIELDS.items():
            if isinstance(body, dict) and old in body and new not in body:
                _rename(doc, body, ("components", name), old, new)


def _read_renamed_components(doc: Document) -> None:
    """A component under its old name is read under the new one, with one line on stderr saying so (its
    uses in images are mapped by _resolve); the old names are read for one release."""
    components = doc.data.get("components")
    for old, new in RENAMED_COMPONENTS.items():
        if isinstance(components, dict) and old in components and new not in components:
            _rename(doc, components, ("components",), old, new)


def _rename(doc: Document, mapping: dict, parent: tuple, old: str, new: str) -> None:
    """Move mapping[old] (at parent + (old,) in doc) to new, with its line numbers, and say so on stderr."""
    keypath = parent + (old,)
    print(f"warning: {doc.name}:{doc.line(keypath)}: {dotted(keypath)}: renamed to {new!r} "
          f"(the old name is read until the next release)", file=sys.stderr)
    mapping[new] = mapping.pop(old)
    for path in [p for p in doc.lines if p[:len(keypath)] == keypath]:
        doc.lines[parent + (new,) + path[len(keypath):]] = doc.lines[path]


def renamed_component(name: str, where: str) -> str:
    """The component's name today: an old one is read for one release, with one line on stderr."""
    if name not in RENAMED_COMPONENTS:
        return name
    print(f"warning: {where}: component {name!r} is renamed {RENAMED_COMPONENTS[name]!r} (the old name is read until "
          f"the next release)", file=sys.stderr)
    return RENAMED_COMPONENTS[name]


def _tiers(doc, raw) -> tuple:
    seen: dict = {}
    tiers = []
    for position, body in enumerate(raw):
        for index, role in enumerate(body["roles"]):
            if role in seen:
                raise doc.error(("tiers", position, "roles", index), f"role {role!r} is already in tier {seen[role]!r}")
            seen[role] = body["name"]
        tiers.append(Tier(body["name"], tuple(body["roles"]), body["doc"], position, body.get("split_dependencies", False)))
    return tuple(tiers)


def _patches(doc, raw) -> dict:
    out = {}
    for name, body in raw.items():
        keypath = ("patches", name)
        if not (doc.path.parent / body["diff"]).is_file():
            raise doc.error(keypath + ("diff",), f"{body['diff']} does not exist")
        out[name] = Patch(name=name, keypath=keypath, package=body["target"]["package"], file=body["target"]["file"],
                          sha256=body["sha256"], diff=body["diff"], reason=body["reason"], issue=body.get("issue", ""))
    return out


def _check_component_references(manifest) -> None:
    for comp in manifest.components.values():
        for key in ("index",):
            if comp.get(key) and comp.get(key) not in manifest.indexes:
                raise manifest.error(comp.keypath + (key,), f"unknown index{schema.suggest(comp.get(key), manifest.indexes)}")
        for platform, build in (comp.get("builds") or {}).items():
            if build.get("index") and build["index"] not in manifest.indexes:
                raise manifest.error(comp.keypath + ("builds", platform, "index"),
                                     f"unknown index{schema.suggest(build['index'], manifest.indexes)}")
        target = comp.get("alternative_to")
        if target and target not in manifest.components:
            raise manifest.error(comp.keypath + ("alternative_to",),
                                 f"unknown component{schema.suggest(target, manifest.components)}")


def _check_artifact_urls(manifest) -> None:
    """An archive's URL templates, checked with the version they are filled with."""
    for comp in manifest.components.values():
        if comp.source == "archive":
            for platform, build in comp.get("builds").items():
                try:
                    grammar.artifact_url(build["url"], comp.version)
                except ValueError as exc:
                    raise manifest.error(comp.keypath + ("builds", platform, "url"), str(exc)) from None


def _images(manifest, raw, axes) -> dict:
    doc = manifest.doc
    images = {}
    builds = 0
    for key, body in raw.items():
        keypath = ("images", key)
        where = keypath + ("expand",) if body.get("expand") else keypath
        for name, merged, origins, combo in _expand(doc, key, body, axes, room=MAX_BUILDS - builds):
            if name in images:
                raise doc.error(keypath, f"image name {name!r} is produced twice")
            try:
                grammar.file_name(name)
            except ValueError as exc:
                raise doc.error(keypath, f"image name {exc}: it names the directory images/<name>/") from None
            images[name] = _image(manifest, name, keypath, merged, origins, combo)
            builds += len(images[name].platforms)
        if builds > MAX_BUILDS:
            raise doc.error(where, f"{len(images)} images make {builds} builds; {TOO_MANY}")
    defaults = [name for name, img in images.items() if img.default]
    if len(defaults) != 1:
        raise doc.error(("images",), f"exactly one image must set default: true, found {len(defaults)}")
    return images


def _expand(doc, key, body, axes, *, room: int):
    keypath = ("images", key)
    expand = body.get("expand") or {}
    for axis, values in expand.items():
        if axis not in axes:
            raise doc.error(keypath + ("expand", axis), f"unknown axis{schema.suggest(axis, axes)}")
        for value in values:
            if value not in axes[axis]:
                raise doc.error(keypath + ("expand", axis), f"unknown value {value!r} of axis {axis!r}")
    placeholders = {f for _, f, _, _ in string.Formatter().parse(key) if f is not None}
    for name in sorted(placeholders - set(expand)):
        raise doc.error(keypath, f"name uses {{{name}}} but the image does not expand over it")
    for axis, values in expand.items():
        if len(values) > 1 and axis not in placeholders:
            raise doc.error(keypath, f"name must contain {{{axis}}}: the image expands over {len(values)} values")
    count = math.prod(len(values) for values in expand.values())
    if count > room:  # every image is built for at least one platform
        raise doc.error(keypath + ("expand",), f"expands to {count} images, with those before it at least "
                                               f"{MAX_BUILDS - room + count} builds; {TOO_MANY}")
    overrides = body.get("override") or {}
    produced = []
    for combo_values in itertools.product(*expand.values()):
        combo = dict(zip(expand, combo_values))
        name = key.format(**combo)
        produced.append(name)
        merged, origins = _merge_image(doc, keypath, body, axes, combo, overrides.get(name))
        yield name, merged, origins, combo
    for name in overrides:
        if name not in produced:
            raise doc.error(keypath + ("override", name),
                            f"overrides an image this entry does not produce ({', '.join(produced)})")


def _merge_image(doc, keypath, body, axes, combo, override):
    merged: dict = {}
    origins: dict = {}
    own = {k: v for k, v in body.items() if k not in ("expand", "override")}
    _merge(doc, merged, origins, own, keypath, (), replace=False)
    for axis, value in combo.items():
        _merge(doc, merged, origins, axes[axis][value], ("axes", axis, value), (), replace=False)
    if override is not None:
        _merge(doc, merged, origins, override, keypath + ("override",), (), replace=True)
    return merged, origins


def _merge(doc, target, origins, source, source_keypath, rel, *, replace):
    for key, value in source.items():
        here = rel + (key,)
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(doc, target[key], origins, value, source_keypath + (key,), here, replace=replace)
            continue
        if isinstance(value, list) and isinstance(target.get(key), list) and not replace:
            duplicate = next((item for item in value if item in target[key]), None)
            if duplicate is not None:
                raise doc.error(source_keypath + (key,), f"{duplicate!r} is also listed at {dotted(origins[here])}")
            target[key] = target[key] + copy.deepcopy(value)
            continue
        if key in target and not replace:
            raise doc.error(source_keypath + (key,),
                            f"also set at {dotted(origins.get(here, ()))}; set it in one place (or use override)")
        target[key] = copy.deepcopy(value)
        origins[here] = source_keypath + (key,)


def _image(manifest, name, keypath, merged, origins, combo) -> Image:
    doc = manifest.doc

    def where(rel):
        for cut in range(len(rel), 0, -1):
            if rel[:cut] in origins:
                return origins[rel[:cut]] + rel[cut:]
        return keypath + rel

    for required in REQUIRED_IMAGE_FIELDS:
        if required not in merged:
            raise doc.error(keypath, f"image {name!r}: missing required key {required!r}")
    def resolve(reference, keypath):
        return _resolve(manifest, _fill(doc, reference, combo, keypath), keypath)

    stack, only = _stack(manifest, merged, where, resolve)
    base = resolve(merged["base"], where(("base",)))
    constraints = tuple(resolve(n, where(("constraints", i))) for i, n in enumerate(merged.get("constraints") or ()))
    test_tools = tuple(resolve(n, where(("test_tools", i))) for i, n in enumerate(merged.get("test_tools") or ()))
    runner = manifest.runners.get(merged["runner"])
    if runner is None:
        raise doc.error(where(("runner",)), f"unknown runner{schema.suggest(merged['runner'], manifest.runners)}")
    image_patches = []
    for i, patch in enumerate(merged.get("patches") or ()):
        if patch not in manifest.patches:
            raise doc.error(where(("patches",)) + (i,), f"unknown patch {patch!r}")
        image_patches.append(manifest.patches[patch])
    apt = merged.get("apt") or {}
    torch = next(iter(stack.get("torch") or ()), None)
    pip_extra_index = {p: manifest.indexes[i].url for p in merged["platforms"]
                       if torch is not None and (i := torch.build_for(p).get("index") or torch.get("index"))
                       and i != "pypi" and i in manifest.indexes}
    return Image(
        name=name, keypath=keypath, device=merged["device"], base=base, python=merged["python"],
        platforms=tuple(merged["platforms"]), runner=runner, waivers=dict(merged.get("device_checks_waived") or {}),
        soc_version=merged.get("soc_version", ""),
        tag_format=merged["tag"], default=merged.get("default", False), stack=stack, only=only, constraints=constraints,
        test_tools=test_tools,
        tiers=manifest.tiers,
        apt_build=tuple(apt.get("build") or ()), apt_runtime=tuple(apt.get("runtime") or ()),
        env=dict(merged["env"]), patches=tuple(image_patches), axes=combo, release=merged.get("release", ""),
        upstream=_fill(doc, merged["upstream"], combo, where(("upstream",))) if merged.get("upstream") else "",
        omits=dict(merged.get("omits") or {}), differs=dict(merged.get("differs") or {}), pip_extra_index=pip_extra_index, upstream_tag_formats=tuple(merged.get("upstream_tags") or ()),
        upstream_soc=merged.get("upstream_soc", ""), origins=origins)


def _fill(doc, reference, combo, keypath) -> str:
    """A component reference with its {axis} placeholders replaced by the image's axis values."""
    names = [f for _, f, _, _ in string.Formatter().parse(reference) if f is not None]
    for name in names:
        if name not in combo:
            expands = ", ".join(combo) or "no axis"
            raise doc.error(keypath, f"{reference!r} uses {{{name}}} but the image expands over {expands}")
    return reference.format(**combo) if names else reference


def _stack(manifest, merged, where, resolve) -> tuple:
    """role -> components in tier order, and component name -> the one platform it is for
    (a role written {platform: component} installs another build per platform)."""
    stack, only = {}, {}
    order = [role for tier in manifest.tiers for role in tier.roles]
    platforms = set(merged["platforms"])
    for role, names in merged["stack"].items():
        keypath = where(("stack", role))
        if role not in order:
            raise manifest.doc.error(keypath, f"role {role!r} is in no tier (add it to tiers)")
        if isinstance(names, dict):
            if set(names) != platforms:
                raise manifest.doc.error(keypath, f"role {role!r} names {', '.join(sorted(names))}; the image is built "
                                                  f"for {', '.join(sorted(platforms))}: name one component per platform")
            comps = tuple(resolve(n, keypath + (p,)) for p, n in names.items())
            only.update({c.name: p for p, c in zip(names, comps)})
        else:
            comps = tuple(resolve(n, keypath) for n in ([names] if isinstance(names, str) else names))
        stack[role] = comps
    return {role: stack[role] for role in order if role in stack}, only


def _resolve(manifest, name, keypath) -> Component:
    if name not in manifest.components and isinstance(name, str):
        name = renamed_component(name, f"{manifest.doc.name}:{manifest.doc.line(keypath)}: {dotted(keypath)}")
    if name not in manifest.components:
        raise manifest.error(keypath, f"unknown component {name!r}{schema.suggest(name, manifest.components)}")
    return manifest.components[name]


def _check_usage(manifest) -> None:
    used = {c.name for img in manifest.images.values()
            for c in [img.base, *img.components, *img.constraints, *img.test_tools]}
    for name, comp in manifest.components.items():
        if name in used:
            continue
        if comp.get("alternative_to") in used:
            continue
        raise manifest.error(comp.keypath, "component is not used by any image (remove it or use it)")
    used_patches = {p.name for img in manifest.images.values() for p in img.patches}
    for name, patch in manifest.patches.items():
        if name not in used_patches:
            raise manifest.error(patch.keypath, "patch is not applied by any image")
