"""What each layer of an image installs on one platform, from its lock: one description that
both the build context (builder/context.py) and the bare-metal install script
(render/install_script.py: its layout, which host_plan.complete fills from the lock at run time) are
made from, so a host install cannot differ from the image's.

A part is one run of installer/install_tier.py, one layer of the image, in tiers/<n>-<tier>/<layer>/
(layers.layers_of): deps and pins; in a tier pins.yaml splits, deps-<dist> for each large
dependency (layers.own_layers), deps for the others and pins-<component> for each component.
Each part has:
  rule     which of its tier's locked packages it takes (host_plan.takes)
  entries  the locked packages it installs (requirements.txt: `name==version --hash=sha256:...`)
  items    what the lock did not resolve, as install_tier.py's sources.json lists them; each
           also says under `fetch` where its file or tree comes from (the build context drops
           that key: the host has already fetched it)
"""

from __future__ import annotations

from dataclasses import dataclass

from .layers import Layer, TierView, layers_of, needs_builder, tiers_of
from .host_plan import FETCH, compiles, item, requirement_line as _line, split_source_builds, takes


@dataclass(frozen=True)
class Part:
    tier: TierView
    layer: Layer
    rule: dict  # which of the tier's locked packages it takes: {"only": [dists]} | {"except": [dists]}
    specs: tuple  # the layout entry of each pinned component (item_spec)
    entries: tuple  # lock Entries
    items: tuple  # dicts: install_tier.py items plus `fetch`

    @property
    def slug(self) -> str:
        return f"{self.tier.slug}/{self.layer.name}"

    def requirements(self) -> str:
        return "".join(requirement_line(entry) + "\n" for entry in self.entries)

    def sources(self, image, items=None) -> dict:
        """sources.json of the part; `items` as materialized (file names filled, `fetch` dropped)."""
        items = [_without_fetch(item) for item in (self.items if items is None else items)]
        compiling = compiles((e.artifact.kind for e in self.entries), items)
        return {"items": items, "compile": compiling, "apt_build": list(image.apt_build) if compiling else [],
                "soc_version": image.soc_version}

    @property
    def builds_wheels(self) -> bool:
        """Whether it installs an sdist (locked, or an item's): installer/build_wheels.py builds it into a
        wheel on the target platform, in a stage FROM the image as it stands before this layer."""
        return (any(entry.artifact.kind == "sdist" for entry in self.entries)
                or any(_from_source(item) for item in self.items))

    @property
    def installs_wheels(self) -> bool:
        """Whether everything it installs is a wheel, or an sdist built into one (builds_wheels): unpacking
        runs no code of the target platform, so installer/cross_install.py installs it on the build platform
        (the Dockerfile: cross_installed). A git tree or a builder stage's wheel keeps it in the image's stage."""
        return (all(entry.artifact.kind == "wheel" or _is_sdist(entry.artifact.name) for entry in self.entries)
                and all(_is_wheel(item) or _from_source(item) for item in self.items))

    def layout(self) -> dict:
        """What an install script carries of this part: no version, file or hash (host_plan.complete adds them)."""
        return {"slug": self.slug, "tier": self.tier.name, "takes": self.rule, "items": list(self.specs)}


def requirement_line(entry) -> str:
    return _line(entry.name, entry.version, entry.artifact.sha256)


def parts(image, platform: str, lock, own: dict) -> list:
    """Every part of the image on `platform`, one per layer the Dockerfile has (layers_of, in its
    order), also where it installs nothing on this platform. own: layers.own_layers."""
    installed = {c.name for c in image.on(platform).components}
    tables = _tables(lock)
    out = []
    for tier in tiers_of(image):
        entries = sorted((e for e in lock.packages if e.tier == tier.name), key=lambda e: e.name)
        taken = {c.dist for c in tier.components if c.name in installed} | set(own.get(tier.name, ()))
        for layer in layers_of(tier, own):
            comps = [c for c in layer.components if c.name in installed]
            if layer.components:
                rule = {"only": sorted({c.dist for c in comps})}
            else:
                rule = {"only": [layer.dist]} if layer.dist else {"except": sorted(taken)}
            specs = tuple(item_spec(comp) for comp in comps)
            in_part = [e for e in entries if takes(rule, e.name)]
            kept, built = split_source_builds(list(specs), [_package(e) for e in in_part])
            items = tuple(built) + tuple(i for i in (item(spec, tables, comp.as_pin(), platform)
                                                     for spec, comp in zip(specs, comps)) if i is not None)
            kept_names = {p["name"] for p in kept}
            out.append(Part(tier, layer, rule, specs, tuple(e for e in in_part if e.name in kept_names), items))
    return out


def cross_installed(image, locks: dict, own: dict) -> tuple:
    """The slugs of the layers installed on the build platform on every platform the image is locked for
    (Part.installs_wheels): the one Dockerfile of all its platforms installs those there and copies them in.
    A bump that brings a git tree or a source build into a layer changes its render (the drift gate names it)."""
    slugs = [part.slug for part in parts(image, next(iter(locks)), next(iter(locks.values())), own)] if locks else []
    emulated = {part.slug for platform, lock in locks.items() for part in parts(image, platform, lock, own)
                if not part.installs_wheels}
    return tuple(slug for slug in slugs if slug not in emulated)


def wheel_builds(image, locks: dict, own: dict, cross: tuple) -> tuple:
    """Of the cross-installed layers (cross_installed), those with an sdist on some platform
    (Part.builds_wheels): the Dockerfile builds their wheels on the target platform before the build
    platform installs them."""
    built = {part.slug for platform, lock in locks.items() for part in parts(image, platform, lock, own)
             if part.builds_wheels}
    return tuple(slug for slug in cross if slug in built)


def item_spec(comp) -> dict:
    """The component as the layout names it: what host_plan.item needs besides the lock and pins.json."""
    build = comp.build
    spec = {"component": comp.name, "dist": comp.dist, "env": dict(build.get("env", {})),
            "soc_env": build.get("soc_env", ""), "source": comp.source}
    if comp.source == "git":
        import_path = {"import_path": comp.import_path} if comp.import_path else {}
        spec["git"] = {"kind": "built"} if needs_builder(comp) else {"kind": "git", **comp.install, **import_path}
    return spec


def _package(entry) -> dict:
    """A lock Entry as host_plan reads a package of the lock file."""
    art = entry.artifact
    return {"name": entry.name, "kind": art.kind, "file": {"name": art.name, "sha256": art.sha256, "url": art.url}}


def _tables(lock) -> dict:
    """The lock's own tables, keyed as its TOML names them (what host_plan.item reads on the host)."""
    return {"source-builds": lock.source_builds, "archives": lock.archives, "externals": lock.externals}


def _item(image, comp, lock, platform: str):
    """How install_tier.py installs a component the lock did not resolve (None: the lock did); the pin is
    the component's pins.json entry, which the host reads."""
    return item(item_spec(comp), _tables(lock), comp.as_pin(), platform)


def _is_sdist(name: str) -> bool:
    """The sdists installer/build_wheels.py builds (its is_sdist): PyPI's formats."""
    return name.endswith((".tar.gz", ".zip"))


def _from_source(item: dict) -> bool:
    """An item pip builds from an sdist (installer/install_tier.py's from_source)."""
    return item["kind"] == "sdist" or (item["kind"] == "index" and _is_sdist(item["file"]))


def _is_wheel(item: dict) -> bool:
    return item["kind"] == "wheels" or (item["kind"] == "index" and item["file"].endswith(".whl"))


def _without_fetch(item: dict) -> dict:
    return {key: value for key, value in item.items() if key != FETCH}
