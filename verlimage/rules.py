"""Compatibility rules, checked on every load of pins.yaml.

Each rule yields (keypath, message) violations; messages name both pins involved
with their pins.yaml lines so that the fix is obvious from one line.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Callable

from . import schema
from .errors import UserError

RULES: list = []


@dataclass(frozen=True)
class Rule:
    id: str
    doc: str
    check: Callable


def rule(rule_id: str, doc: str):
    def register(func):
        RULES.append(Rule(rule_id, doc, func))
        return func
    return register


def check_all(manifest) -> None:
    for item in RULES:
        for keypath, message in item.check(manifest):
            raise manifest.error(keypath, f"[{item.id}] {message}")


def violations(manifest) -> list:
    """Every violation (rule id, UserError), for reports that want them all."""
    found, seen = [], set()
    for item in RULES:
        for keypath, message in item.check(manifest):
            if (item.id, message) not in seen:  # npu-a2 and npu-a3 share most pins
                seen.add((item.id, message))
                found.append((item.id, manifest.error(keypath, f"[{item.id}] {message}")))
    return found


def _pin(manifest, comp) -> str:
    return f"{comp.name} {comp.summary} ({manifest.doc.name}:{manifest.doc.line(comp.keypath)})"


def _line_of(ref: str | None):
    """core_r0.16.0 / core_v0.16.1 -> (0, 16)."""
    match = re.fullmatch(r"core_[rv](\d+)\.(\d+)(?:\.\w+)*", ref or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def _major_minor(version):
    return tuple(version.release[:2]) if version else None


@rule("roles", "each image has the roles its device needs, each filled by a component of a fitting source")
def _roles(manifest):
    for img in manifest.images.values():
        for role in schema.REQUIRED_ROLES[img.device]:
            if role not in img.stack:
                yield img.where(("stack",)), f"image {img.name!r} ({img.device}) needs a {role!r} component"
        if img.device != "npu":
            for role in schema.NPU_ONLY_ROLES:
                if role in img.stack:
                    yield img.where(("stack", role)), f"{role!r} is for npu images only (image {img.name!r})"
        if img.base.source != "image":
            yield img.where(("base",)), f"base {img.base.name!r} must be a component with source: image"
        for role, comp in img.stack.items():
            if comp.source == "image":
                yield img.where(("stack", role)), f"{comp.name!r} is a base image, not an installable component"


@rule("soc", "npu images name their SoC, cpu images do not; runners fit the device")
def _soc(manifest):
    for img in manifest.images.values():
        if img.device == "npu" and not img.soc_version:
            yield img.keypath, f"npu image {img.name!r} needs soc_version"
        if img.device == "cpu" and img.soc_version:
            yield img.where(("soc_version",)), f"cpu image {img.name!r} must not set soc_version"
        wants_npu_runner = img.runner.startswith("ascend-")
        if wants_npu_runner != (img.device == "npu"):
            yield img.where(("runner",)), f"runner {img.runner!r} cannot run a {img.device} image ({img.name!r})"


@rule("torch-npu-matches-torch", "torch_npu and torch share major.minor")
def _torch_npu(manifest):
    for img in manifest.images.values():
        torch, npu = img.stack.get("torch"), img.stack.get("torch_npu")
        if torch and npu and _major_minor(torch.release) != _major_minor(npu.release):
            yield npu.keypath, (f"{_pin(manifest, npu)} and {_pin(manifest, torch)} must share major.minor "
                                f"(bump them together: bump torch X --also torch_npu=X)")


@rule("vllm-ascend-matches-vllm", "vllm and vllm-ascend come from one release line (major.minor)")
def _vllm(manifest):
    for img in manifest.images.values():
        vllm, ascend = img.stack.get("vllm"), img.stack.get("vllm_ascend")
        if vllm and ascend and _major_minor(vllm.release) != _major_minor(ascend.release):
            yield ascend.keypath, f"{_pin(manifest, ascend)} and {_pin(manifest, vllm)} must share major.minor"


@rule("mindspeed-matches-megatron", "MindSpeed's branch line core_rX.Y equals Megatron-LM's")
def _mindspeed(manifest):
    for img in manifest.images.values():
        mind, mega = img.stack.get("mindspeed"), img.stack.get("megatron")
        if not (mind and mega):
            continue
        if mega.source != "git" or _line_of(mega.ref) is None:
            yield mega.keypath, f"{_pin(manifest, mega)}: MindSpeed needs Megatron-LM from git on a core_rX.Y line"
        elif _line_of(mind.ref) != _line_of(mega.ref):
            yield mind.keypath, f"{_pin(manifest, mind)} and {_pin(manifest, mega)} must be on the same core_rX.Y line"


@rule("megatron-core-in-line", "the CPU image's megatron-core release is in the Megatron-LM X.Y line")
def _megatron_core(manifest):
    lines = {}
    for img in manifest.images.values():
        mega = img.stack.get("megatron")
        if mega and mega.source == "git" and _line_of(mega.ref):
            lines[_line_of(mega.ref)] = mega
    for img in manifest.images.values():
        core = img.stack.get("megatron")
        if not core or core.source != "pypi":
            continue
        for line, mega in lines.items():
            if _major_minor(core.release) != line:
                yield core.keypath, f"{_pin(manifest, core)} is not in the line of {_pin(manifest, mega)}"


@rule("mooncake-same-version", "Mooncake is the same release in every image")
def _mooncake(manifest):
    seen = {}
    for img in manifest.images.values():
        comp = img.stack.get("mooncake")
        if comp:
            seen.setdefault(comp.name, comp)
    comps = list(seen.values())
    for comp in comps[1:]:
        if comp.release != comps[0].release:
            yield comp.keypath, f"{_pin(manifest, comp)} and {_pin(manifest, comps[0])} must be the same release"


@rule("base-python", "the python in a base image's tag (or its python field) equals the image's python")
def _base_python(manifest):
    for img in manifest.images.values():
        base = img.base
        tagged = schema.python_of_tag(base.tag or "")
        if tagged and base.python and tagged != base.python:
            yield base.keypath + ("python",), f"tag {base.tag!r} says python {tagged}, python says {base.python}"
        found = tagged or base.python
        if not found:
            yield base.keypath, f"{base.name!r}: neither the tag nor a python field says which python it has"
        elif found != img.python:
            yield img.where(("python",)), (f"image {img.name!r} wants python {img.python} but its base "
                                           f"{_pin(manifest, base)} has python {found}")


@rule("ascend-direct-npu-only", "the ascend_direct Mooncake transport is built for npu images only, "
                                "and every npu image has it")
def _ascend_direct(manifest):
    for img in manifest.images.values():
        for role, comp in img.stack.items():
            if _has_ascend_direct(comp) and img.device != "npu":
                yield comp.keypath, f"{comp.name!r} builds ascend_direct but is used by {img.device} image {img.name!r}"
        mooncake = img.stack.get("mooncake")
        if img.device == "npu" and mooncake and not _has_ascend_direct(mooncake):
            yield mooncake.keypath, (f"npu image {img.name!r} needs Mooncake built from source with "
                                     f"-DUSE_ASCEND_DIRECT=ON, {mooncake.name!r} is not")


def _has_ascend_direct(comp) -> bool:
    flags = " ".join(comp.build_cmake) + " " + " ".join(f"{k}={v}" for k, v in comp.build_env)
    return "ASCEND_DIRECT=ON" in flags.upper() or "ascend_direct" in flags.lower()


@rule("url-names-version", "a downloaded artifact's URL contains its version")
def _url_version(manifest):
    for comp in manifest.components.values():
        if comp.source == "url" and comp.version not in comp.url:
            yield comp.keypath + ("url",), f"url does not contain version {comp.version} (stale url or version?)"


@rule("external-modules", "every image sets VERL_USE_EXTERNAL_MODULES (\"\" allowed) to importable module names")
def _external_modules(manifest):
    for img in manifest.images.values():
        if "VERL_USE_EXTERNAL_MODULES" not in img.env:
            yield img.where(("env",)), f"image {img.name!r} must set VERL_USE_EXTERNAL_MODULES (\"\" for none)"
            continue
        value = img.env["VERL_USE_EXTERNAL_MODULES"]
        for module in filter(None, value.split(",")):
            if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", module):
                yield img.where(("env", "VERL_USE_EXTERNAL_MODULES")), f"{module!r} is not a module name"


@rule("tag-format", "an image's human tag uses known fields and is a valid docker tag")
def _tag_format(manifest):
    for img in manifest.images.values():
        fields = img.tag_fields()
        names = [f for _, f, _, _ in string.Formatter().parse(img.tag_format) if f is not None]
        unknown = [n for n in names if n not in fields]
        if unknown:
            yield img.where(("tag",)), f"unknown field {{{unknown[0]}}} (known: {', '.join(sorted(fields))})"
        elif not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}", img.human_tag):
            yield img.where(("tag",)), f"{img.human_tag!r} is not a valid docker tag"
    tags = {}
    for img in manifest.images.values():
        if img.human_tag in tags:
            yield img.where(("tag",)), f"images {tags[img.human_tag]!r} and {img.name!r} get the same tag"
        tags.setdefault(img.human_tag, img.name)


@rule("patch-targets-installed", "a patch targets a distribution its image installs")
def _patch_targets(manifest):
    for img in manifest.images.values():
        dists = {c.dist.lower().replace("_", "-") for c in img.stack.values()}
        for patch in img.patches:
            if patch.package.lower().replace("_", "-") not in dists:
                yield patch.keypath + ("target", "package"), (
                    f"patch {patch.name!r} targets {patch.package!r}, which image {img.name!r} does not install")


def describe() -> list:
    """(id, doc) of every rule, for the README and PR bodies."""
    return [(r.id, r.doc) for r in RULES]


__all__ = ["check_all", "violations", "describe", "RULES", "UserError"]
