"""images/<name>/Dockerfile (+ one per declared alternative) and pins.json, rendered in memory."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import jinja2

from ..errors import UserError
from .install_plan import cross_installed, wheel_builds
from .layers import layers_of, locks_of, own_layers, tiers_of

# Every time a build step writes is set to this one constant: 1980-01-01, the earliest time a zip file
# can hold (Python's zipfile refuses older files). Not the inputs' commit time: a build argument that
# changed with every commit would invalidate every cached step, and a bump would rebuild and re-ship
# all of them. The bootstrapped base uses it too.
SOURCE_DATE_EPOCH = 315532800


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
    locks = locks_of(manifest.path.parent, image)
    own = own_layers(image, locks.values())
    variant = with_alternative(image, alternative) if alternative else image
    tiers = tiers_of(variant)
    layers = {tier.name: layers_of(tier, own) for tier in tiers}
    cross = cross_installed(variant, locks, own)
    built_here = wheel_builds(variant, locks, own, cross)
    builders = [(tier, comp, layer) for tier in tiers for layer in layers[tier.name] for comp in layer.components
                if comp in tier.built]
    text = render_template(env, "Dockerfile.j2", image.name, image=variant, repository=manifest.repository,
                           tiers=tiers, builders=builders, alternative=alternative, layers=layers, cross=cross,
                           wheel_builds=built_here,
                           source_date_epoch=SOURCE_DATE_EPOCH,
                           base_env=sorted((variant.base.get("env") or {}).items()))
    text = re.sub(r"\n{3,}", "\n\n", text)
    pins = json.dumps(variant.pins(manifest.repository), indent=2, sort_keys=True) + "\n"
    suffix = f".{alternative.name}" if alternative else ""
    return {f"Dockerfile{suffix}": text, f"pins{suffix}.json": pins}


def stages(text: str) -> dict:
    """{stage name (or #<index> if unnamed): (the stage or image it is FROM, its text)} of a rendered
    Dockerfile, in order."""
    out = {}
    for chunk in re.split(r"^(?=FROM )", text, flags=re.M)[1:]:
        words = chunk.split("\n", 1)[0].split()
        named = "AS" in words
        out[words[words.index("AS") + 1] if named else f"#{len(out)}"] = (
            words[words.index("AS") - 1] if named else words[-1], chunk)
    return out


def image_stages(text: str) -> str:
    """The instructions of the image itself in a rendered Dockerfile: its final stage and the stages that
    stage goes on from (`FROM <stage>`), first to last; the stages it only copies or mounts from are left out
    (a layer whose sdists are built splits the image there: render/install_plan.wheel_builds)."""
    found = stages(text)
    chain, name = [], next(reversed(found), None)
    while name in found and name not in chain:
        chain.append(name)
        name = found[name][0]
    return "".join(found[stage][1] for stage in reversed(chain))
