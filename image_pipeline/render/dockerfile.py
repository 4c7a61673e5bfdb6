"""images/<name>/Dockerfile (+ one per declared alternative) and pins.json, rendered in memory."""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path

import jinja2

from ..errors import UserError
from ..lock import lockfile

# In a tier pins.yaml splits, a dependency whose file is at least this large (on some platform of the
# image) is a layer of its own: when a bump drops or adds a dependency, only the small ones' shared layer is re-shipped, and
# a large one moves in its own layer. Layers above a removed one are rebuilt, byte for byte the same
# (the steps are reproducible), so a registry already has them.
OWN_LAYER_BYTES = 5_000_000
# Every time a build step writes is set to this one constant: 1980-01-01, the earliest time a zip file
# can hold (Python's zipfile refuses older files). Not the inputs' commit time: a build argument that
# changed with every commit would invalidate every cached step, and a bump would rebuild and re-ship
# all of them. The bootstrapped base uses it too.
SOURCE_DATE_EPOCH = 315532800


@dataclass(frozen=True)
class TierView:
    """One tier of an image as the template sees it (its layers: layers_of)."""
    name: str
    doc: str
    position: int
    components: tuple
    built: tuple  # components a builder stage compiles (their wheel is mounted into this layer)
    split: bool  # pins.yaml's split_dependencies: a layer per large dependency and per component

    @property
    def slug(self) -> str:
        return f"{self.position + 1}-{self.name}"


def needs_builder(comp) -> bool:
    return comp.source == "git" and bool(comp.build.get("cmake"))


def tiers_of(image) -> list:
    """The image's non-empty tiers, in install order."""
    views = []
    for tier in image.tiers:
        comps = tuple(c for t, _, c in image.installs() if t is tier)
        if comps:
            views.append(TierView(tier.name, tier.doc, tier.position, comps, tuple(c for c in comps if needs_builder(c)),
                                  tier.split_dependencies))
    return views


def own_layers(image, locks) -> dict:
    """{tier name: sorted dependency names with a layer of their own}, for the tiers pins.yaml splits,
    from the image's locks of every platform: the Dockerfile, shared by the platforms, has one step per
    name. Each step costs seconds natively and about 20 s under QEMU, so only tiers bumped often split."""
    pinned = {c.dist for c in image.components}
    split = {tier.name for tier in image.tiers if tier.split_dependencies}
    out = {}
    for lock in locks:
        for entry in lock.packages:
            if entry.tier in split and entry.name not in pinned and (entry.artifact.size or 0) >= OWN_LAYER_BYTES:
                out.setdefault(entry.tier, set()).add(entry.name)
    return {tier: tuple(sorted(names)) for tier, names in out.items()}


@dataclass(frozen=True)
class Layer:
    """One install step of a tier: tiers/<n>-<tier>/<name>/ in the build context."""
    name: str  # deps | pins; in a split tier deps-<dist> | deps | pins-<component>
    dist: str = ""  # the large dependency a deps-<dist> layer holds alone
    components: tuple = ()  # the pinned components a pins layer installs


def layers_of(tier, own: dict) -> list:
    """The layers of one tier, in install order: its dependencies, then its components. A split tier
    has a layer per large dependency, one for the rest, then one per component (its bump re-ships that
    one); any other tier two: deps, pins."""
    if not tier.split:
        return [Layer("deps"), Layer("pins", components=tier.components)]
    return ([Layer(f"deps-{dist}", dist=dist) for dist in own.get(tier.name, ())] + [Layer("deps")]
            + [Layer(f"pins-{comp.name}", components=(comp,)) for comp in tier.components])


def with_alternative(image, alternative):
    """The image with `alternative` in place of the component it is an alternative to."""
    target = alternative.get("alternative_to")
    stack = {role: tuple(alternative if c.name == target else c for c in comps) for role, comps in image.stack.items()}
    return dataclasses.replace(image, stack=stack)


def environment(templates: Path) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), undefined=jinja2.StrictUndefined,
                              keep_trailing_newline=True, autoescape=False)


def render_template(env, template: str, image_name: str, **context) -> str:
    """A template rendered for one image; a template error is one line naming the template and its line."""
    try:
        return env.get_template(template).render(**context)
    except jinja2.TemplateError as exc:
        where = f"{exc.filename or 'templates'}:{exc.lineno}" if getattr(exc, "lineno", None) else "templates"
        raise UserError(f"template error while rendering {image_name}: {exc.message}", file=where) from None


def locked_own_layers(root: Path, image) -> dict:
    """own_layers from the locks in the tree at root (a platform not locked yet has none)."""
    locks = [lockfile.read(lockfile.path_for(root, image.name, platform)) for platform in image.platforms]
    return own_layers(image, [lock for lock in locks if lock is not None])


def render_image(env, manifest, image, alternative=None) -> dict:
    """{filename: text} for one image, or for one of its alternatives."""
    own = locked_own_layers(manifest.path.parent, image)
    variant = with_alternative(image, alternative) if alternative else image
    tiers = tiers_of(variant)
    layers = {tier.name: layers_of(tier, own) for tier in tiers}
    builders = [(tier, comp, layer) for tier in tiers for layer in layers[tier.name] for comp in layer.components
                if comp in tier.built]
    text = render_template(env, "Dockerfile.j2", image.name, image=variant, repository=manifest.repository,
                           tiers=tiers, builders=builders, alternative=alternative, layers=layers, source_date_epoch=SOURCE_DATE_EPOCH,
                           base_env=sorted((variant.base.get("env") or {}).items()))
    text = re.sub(r"\n{3,}", "\n\n", text)
    pins = json.dumps(variant.pins(manifest.repository), indent=2, sort_keys=True) + "\n"
    suffix = f".{alternative.name}" if alternative else ""
    return {f"Dockerfile{suffix}": text, f"pins{suffix}.json": pins}
