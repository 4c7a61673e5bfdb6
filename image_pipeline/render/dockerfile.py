"""images/<name>/Dockerfile (+ one per declared alternative) and pins.json, rendered in memory."""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path

import jinja2

from ..errors import UserError


@dataclass(frozen=True)
class TierView:
    """One layer of an image as the template sees it."""
    name: str
    doc: str
    position: int
    components: tuple
    built: tuple  # components a builder stage compiles (their wheel is mounted into this layer)

    @property
    def slug(self) -> str:
        return f"{self.position + 1}-{self.name}"

    def pinned(self, entries) -> list:
        """The lock entries of the tier's own components: their layer is the one a bump re-ships."""
        return [e for e in entries if e.name in {c.dist for c in self.components}]

    def dependencies(self, entries) -> list:
        """Every other lock entry of the tier: one layer beneath, reused while the pins move."""
        return [e for e in entries if e.name not in {c.dist for c in self.components}]


def needs_builder(comp) -> bool:
    return comp.source == "git" and bool(comp.build.get("cmake"))


def tiers_of(image) -> list:
    """The image's non-empty tiers, in install order."""
    views = []
    for tier in image.tiers:
        comps = tuple(c for t, _, c in image.installs() if t is tier)
        if comps:
            views.append(TierView(tier.name, tier.doc, tier.position, comps, tuple(c for c in comps if needs_builder(c))))
    return views


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


def render_image(env, manifest, image, alternative=None) -> dict:
    """{filename: text} for one image, or for one of its alternatives."""
    variant = with_alternative(image, alternative) if alternative else image
    tiers = tiers_of(variant)
    builders = [(tier, comp) for tier in tiers for comp in tier.built]
    text = render_template(env, "Dockerfile.j2", image.name, image=variant, repository=manifest.repository,
                           tiers=tiers, builders=builders, alternative=alternative,
                           base_env=sorted((variant.base.get("env") or {}).items()))
    text = re.sub(r"\n{3,}", "\n\n", text)
    pins = json.dumps(variant.pins(manifest.repository), indent=2, sort_keys=True) + "\n"
    suffix = f".{alternative.name}" if alternative else ""
    return {f"Dockerfile{suffix}": text, f"pins{suffix}.json": pins}
