"""The layers of an image: its tiers in install order and the install steps of each, from pins.yaml and
the locks. The Dockerfile (render/dockerfile.py), the build context and the install scripts
(render/install_plan.py) are all made of these."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..lock import lockfile

# In a tier pins.yaml splits, a dependency whose file is at least this large (on some platform of the
# image) is a layer of its own: when a bump drops or adds a dependency, only the small ones' shared layer is re-shipped, and
# a large one moves in its own layer. Layers above a removed one are rebuilt, byte for byte the same
# (the steps are reproducible), so a registry already has them.
OWN_LAYER_BYTES = 5_000_000

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


def locks_of(root: Path, image) -> dict:
    """{platform: lock} of the image in the tree at root (a platform not locked yet has none)."""
    locks = {platform: lockfile.read(lockfile.path_for(root, image.name, platform)) for platform in image.platforms}
    return {platform: lock for platform, lock in locks.items() if lock is not None}


def locked_own_layers(root: Path, image) -> dict:
    """own_layers from the locks in the tree at root."""
    return own_layers(image, locks_of(root, image).values())
