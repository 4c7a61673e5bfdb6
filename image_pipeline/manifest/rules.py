"""Compatibility rules, checked on every load of pins.yaml.

Each rule yields (keypath, message) violations; messages name both pins involved with
their pins.yaml lines, so that the fix is obvious from one line.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Callable

from packaging.utils import canonicalize_name

from . import references
from .model import PLATFORM_ARCH, ROLLOUT_BACKENDS

RULES: list = []

REQUIRED_ROLES = {
    "cpu": ("torch", "megatron", "bridge", "mooncake", "transformers", "verl"),
    "npu": ("torch", "torch_npu", "megatron", "mindspeed", "bridge", "mooncake", "transformers", "verl"),
}
# A release image holds what its upstream file installs: verl's v0.8.0 images carry no Mooncake.
NOT_REQUIRED_ON_RELEASE_LINES = ("mooncake",)
NPU_ONLY_ROLES = ("torch_npu", "triton_ascend", "vllm_ascend", "mindspeed", "sgl_kernel")
# Roles whose release the cpu stand-in shares with the NPU images (megatron: the X.Y line).
SHARED_ROLES = ("torch", "vllm", "megatron", "bridge", "mooncake", "transformers", "verl")
NPU_MOONCAKE = "mooncake-transfer-engine-npu"


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


def describe() -> list:
    """(id, doc) of every rule, for the README and PR bodies."""
    return [(r.id, r.doc) for r in RULES]


def _platform_views(manifest):
    """Each image as built for each of its platforms (a role may name another component per platform)."""
    for img in manifest.images.values():
        yield from (img.on(platform) for platform in img.platforms)


def _line_of(ref):
    """core_r0.16.0 / core_v0.16.1 -> (0, 16)."""
    match = re.fullmatch(r"core_[rv](\d+)\.(\d+)(?:\.\w+)*", ref or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def _major_minor(version):
    return tuple(version.release[:2]) if version else None


def _megatron_line(comp):
    return _line_of(comp.ref) if comp.source == "git" else _major_minor(comp.release)


@rule("roles", "each image has the roles its device needs (a release line: what its upstream file installs, Mooncake "
               "optional) and one rollout backend, each filled by a fitting source")
def _roles(manifest):
    for img in manifest.images.values():
        for role in REQUIRED_ROLES[img.device]:
            if role not in img.stack and not (img.release and role in NOT_REQUIRED_ON_RELEASE_LINES):
                yield img.where(("stack",)), f"image {img.name!r} ({img.device}) needs a {role!r} component"
        backends = [pair for pair in ROLLOUT_BACKENDS if any(r in img.stack for r in pair)]
        if img.device == "npu" and (len(backends) != 1 or not all(r in img.stack for r in backends[0])):
            yield img.where(("stack",)), (f"npu image {img.name!r} needs exactly one rollout backend: "
                                          f"{' or '.join('+'.join(p) for p in ROLLOUT_BACKENDS)}")
        if img.device != "npu":
            for role in NPU_ONLY_ROLES:
                if role in img.stack:
                    yield img.where(("stack", role)), f"{role!r} is for npu images only (image {img.name!r})"
        if img.base.source != "image":
            yield img.where(("base",)), f"base {img.base.name!r} must be a component with source: image"
        for role, comps in img.stack.items():
            for comp in comps:
                if comp.source == "image":
                    yield img.where(("stack", role)), f"{comp.name!r} is a base image, not an installable component"


@rule("soc", "npu images name their SoC, cpu images do not")
def _soc(manifest):
    for img in manifest.images.values():
        if img.device == "npu" and not img.soc_version:
            yield img.keypath, f"npu image {img.name!r} needs soc_version"
        if img.device == "cpu" and img.soc_version:
            yield img.where(("soc_version",)), f"cpu image {img.name!r} must not set soc_version"


@rule("runners", "every platform of an image has a hosted build runner, and a device runner of the image's device or "
                 "a waiver saying why its device checks cannot run; a waiver only where no device runner exists")
def _runners(manifest):
    for img in manifest.images.values():
        if img.runner.device != img.device:
            yield img.where(("runner",)), (f"device runner {img.runner.name!r} holds a {img.runner.device}, not the "
                                           f"{img.device} of {img.name!r}")
        for platform in img.platforms:
            if platform not in manifest.build_runners:
                yield ("runners", "build"), f"no build runner for {platform}, a platform of {img.name!r}"
            has_runner, waived = img.device_runs_on(platform) is not None, platform in img.waivers
            if not has_runner and not waived:
                yield img.where(("runner",)), (f"device runner {img.runner.name!r} has no runs_on for {platform}, a "
                                               f"platform of {img.name!r}: add one, or device_checks_waived: "
                                               f"{{{platform}: why}} to publish it without device checks")
            if has_runner and waived:
                yield img.where(("device_checks_waived", platform)), (
                    f"device runner {img.runner.name!r} runs {img.name!r}'s device checks on {platform}: "
                    f"remove the waiver")
        for platform in img.waivers:
            if platform not in img.platforms:
                yield img.where(("device_checks_waived", platform)), f"{platform} is not a platform of {img.name!r}"


@rule("torch-npu-matches-torch", "torch_npu and torch share major.minor")
def _torch_npu(manifest):
    for img in _platform_views(manifest):
        torch, npu = img.role("torch"), img.role("torch_npu")
        if torch and npu and _major_minor(torch.release) != _major_minor(npu.release):
            yield npu.keypath, (f"{manifest.pin_text(npu)} and {manifest.pin_text(torch)} must share major.minor "
                                f"(bump them together: bump torch X --also torch-npu=X)")


@rule("vllm-ascend-matches-vllm", "vllm and vllm-ascend come from one release line (major.minor)")
def _vllm(manifest):
    for img in _platform_views(manifest):
        vllm, ascend = img.role("vllm"), img.role("vllm_ascend")
        if vllm and ascend and _major_minor(vllm.release) != _major_minor(ascend.release):
            yield ascend.keypath, f"{manifest.pin_text(ascend)} and {manifest.pin_text(vllm)} must share major.minor"


@rule("mindspeed-matches-megatron", "MindSpeed's branch line core_rX.Y equals Megatron-LM's")
def _mindspeed(manifest):
    for img in _platform_views(manifest):
        mind, mega = img.role("mindspeed"), img.role("megatron")
        if not (mind and mega):
            continue
        if mega.source != "git" or _line_of(mega.ref) is None:
            yield mega.keypath, f"{manifest.pin_text(mega)}: MindSpeed needs Megatron-LM from git on a core_rX.Y line"
        elif _line_of(mind.ref) != _line_of(mega.ref):
            yield mind.keypath, (f"{manifest.pin_text(mind)} and {manifest.pin_text(mega)} must be on the same "
                                 f"core_rX.Y line")


@rule("cpu-shares-npu-releases", "the cpu stand-in installs the release of torch, vllm, transformers, verl, mbridge "
                                 "and Mooncake (Megatron: its X.Y line) of the NPU images of its line with its rollout "
                                 "backend, unless the pin says why not")
def _shared(manifest):
    views = list(_platform_views(manifest))
    for cpu in (img for img in views if img.device == "cpu"):
        npu = [img for img in views if img.device == "npu" and img.backend == cpu.backend
               and img.release == cpu.release]
        for role in SHARED_ROLES:
            mine = cpu.role(role)
            if mine is None or mine.get("cpu_stand_in"):
                continue
            for img in npu:
                theirs = img.role(role)
                if theirs is None or theirs is mine:
                    continue
                same = (_megatron_line(mine) == _megatron_line(theirs) if role == "megatron"
                        else mine.release == theirs.release)
                if not same:
                    yield mine.keypath, (f"{manifest.pin_text(mine)} differs from {img.name}'s "
                                         f"{manifest.pin_text(theirs)}: share the release or say why in `cpu_stand_in`")
                    break


def _members(img) -> list:
    """(keypath, component) of everything an image's lock is made from: base, stack, constraints, test tools."""
    out = [(img.where(("base",)), img.base)]
    out += [(img.where(("stack", role)), comp) for role, comps in img.stack.items() for comp in comps]
    out += [(img.where(("constraints", i)), comp) for i, comp in enumerate(img.constraints)]
    out += [(img.where(("test_tools", i)), comp) for i, comp in enumerate(img.test_tools)]
    return out


def _line_name(release) -> str:
    return f"release line {release}" if release else "the latest line"


@rule("release-line-frozen", "a release image installs the verl release it names and shares no component (base, "
                             "stack, constraints, test tools) with an image of another line, so that a bump of one "
                             "line never moves another line's locks")
def _frozen(manifest):
    owner: dict = {}  # component name -> (image, release) of the first image using it
    for img in manifest.images.values():
        verl = img.role("verl")
        if img.release and verl is not None and str(verl.release) != img.release.removeprefix("v"):
            yield img.where(("release",)), (f"image {img.name!r} is on release line {img.release} but installs "
                                            f"{manifest.pin_text(verl)}")
        for keypath, comp in _members(img):
            first = owner.setdefault(comp.name, (img, img.release))
            if first[1] != img.release:
                yield keypath, (f"{manifest.pin_text(comp)} is used by {img.name} ({_line_name(img.release)}) and "
                                f"{first[0].name} ({_line_name(first[1])}): a release line is frozen, give it a "
                                f"component of its own")


@rule("npu-upstream-named", "an NPU image names the upstream file it is checked against (`upstream`), which the "
                            "deviations table cites; what that file installs and the image leaves out is in `omits`, "
                            "never in its stack")
def _upstream_named(manifest):
    for img in manifest.images.values():
        if img.device == "npu" and not img.upstream:
            yield img.keypath, f"npu image {img.name!r} needs `upstream`: the upstream file it is checked against"
        installed = {c.dist for c in img.components} | {w for c in img.components for w in c.wheels}
        for dist in img.omits:
            if canonicalize_name(dist) in installed:
                yield img.where(("omits", dist)), f"image {img.name!r} omits {dist!r} but its stack installs it"


@rule("base-python", "the python in a base image's tag (or its python field) equals the image's python")
def _base_python(manifest):
    from .model import python_of_tag

    for img in manifest.images.values():
        base = img.base
        tagged = python_of_tag(base.get("tag"))
        if tagged and base.get("python") and tagged != base.get("python"):
            yield base.keypath + ("python",), f"tag {base.get('tag')!r} says python {tagged}, python says {base.get('python')}"
        found = tagged or base.get("python")
        if not found:
            yield base.keypath, f"{base.name!r}: neither the tag nor a python field says which python it has"
        elif found != img.python:
            yield img.where(("python",)), (f"image {img.name!r} wants python {img.python} but its base "
                                           f"{manifest.pin_text(base)} has python {found}")


@rule("npu-base-env", "an NPU image's base names its set_env scripts: the build proves the image's ENV already "
                      "holds what they export, so launchers that bypass the entrypoint get the CANN environment")
def _npu_env(manifest):
    for img in manifest.images.values():
        if img.device == "npu" and not img.base.get("env_scripts"):
            yield img.base.keypath, (f"{img.base.name!r} is the base of npu image {img.name!r}: list its set_env "
                                     f"scripts in `env_scripts` (and in `env` what the base's ENV lacks)")


@rule("ascend-direct-npu-only", "NPU images get a Mooncake with the ascend_direct transport (the -npu wheel, or a "
                                "source build with -DUSE_ASCEND_DIRECT=ON); cpu images never do")
def _ascend_direct(manifest):
    for img in _platform_views(manifest):
        mooncake = img.role("mooncake")
        if mooncake is None:
            continue
        for comp in [mooncake, *(c for c in manifest.alternatives_of(img) if c.get("alternative_to") == mooncake.name)]:
            has = _has_ascend_direct(comp)
            if img.device == "npu" and not has:
                yield comp.keypath, (f"npu image {img.name!r} needs Mooncake with ascend_direct: the "
                                     f"{NPU_MOONCAKE} wheel or a source build with -DUSE_ASCEND_DIRECT=ON, "
                                     f"{comp.name!r} is neither")
            if img.device != "npu" and has:
                yield comp.keypath, f"{comp.name!r} carries ascend_direct (needs CANN) but {img.name!r} is a {img.device} image"


def _has_ascend_direct(comp) -> bool:
    if comp.source == "git":
        return "-DUSE_ASCEND_DIRECT=ON" in comp.build.get("cmake", ())
    return comp.dist == NPU_MOONCAKE


@rule("url-names-version", "a downloaded artifact's URL contains its version")
def _url_version(manifest):
    for comp in manifest.components.values():
        if comp.source == "url" and comp.version not in comp.get("url"):
            yield comp.keypath + ("url",), f"url does not contain version {comp.version} (stale url or version?)"


@rule("vllm-ascend-source-soc", "a vllm-ascend source build compiles its kernels for the image's SoC (SOC_VERSION)")
def _vllm_ascend_source(manifest):
    for comp in manifest.components.values():
        if comp.source == "git" and comp.dist == "vllm-ascend":
            if comp.build.get("soc_env") != "SOC_VERSION" or comp.build.get("env", {}).get("COMPILE_CUSTOM_KERNELS") != "1":
                yield comp.keypath + ("build",), ("a vllm-ascend source build needs build.soc_env: SOC_VERSION and "
                                                  "build.env.COMPILE_CUSTOM_KERNELS: \"1\" (its setup.py fails without "
                                                  "SOC_VERSION when npu-smi is absent, as in any docker build)")


@rule("external-modules", "every image sets VERL_USE_EXTERNAL_MODULES (\"\" allowed) to importable module names")
def _external_modules(manifest):
    from . import grammar

    for img in manifest.images.values():
        if "VERL_USE_EXTERNAL_MODULES" not in img.env:
            yield img.where(("env",)), f"image {img.name!r} must set VERL_USE_EXTERNAL_MODULES (\"\" for none)"
            continue
        try:
            grammar.python_modules(img.env["VERL_USE_EXTERNAL_MODULES"])
        except ValueError as exc:
            yield img.where(("env", "VERL_USE_EXTERNAL_MODULES")), str(exc)


@rule("tag-format", "an image's human tag and upstream tags use known fields, are valid docker tags and name one "
                    "image each")
def _tag_format(manifest):
    for img in manifest.images.values():
        formats = [(("tag",), img.tag_format)] + [(("upstream_tags", i), f) for i, f in enumerate(img.upstream_tag_formats)]
        for rel, text in formats:
            problem = _tag_format_problem(manifest, img, text)
            if problem:
                yield img.where(rel), problem
    tags = {}
    for img in manifest.images.values():
        for rel, tag in [(("tag",), img.human_tag)] + [(("upstream_tags", i), t) for i, t in enumerate(img.upstream_tags)
                                                      if not _tag_format_problem(manifest, img, t)]:
            if tag in tags:
                yield img.where(rel), f"images {tags[tag]!r} and {img.name!r} get the same tag {tag!r}"
            tags.setdefault(tag, img.name)


def _tag_format_problem(manifest, img, text: str):
    fields = img.tag_fields()
    names = [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]
    unknown = [n for n in names if n not in fields]
    varying = [n for n in names if img.varies(n)]
    if varying:
        return (f"{{{varying[0]}}} installs another component per platform in {img.name!r}; one tag covers every "
                f"platform: leave it out")
    if unknown:
        return f"unknown field {{{unknown[0]}}} (known: {', '.join(sorted(fields))})"
    problem = references.tag_problem(references.every_tag(manifest, img, text.format(**fields)))
    return f"{problem} (-<arch> added)" if problem else None


@rule("patch-targets-installed", "a patch targets a distribution its image installs")
def _patch_targets(manifest):
    for img in manifest.images.values():
        dists = {c.dist for c in img.components} | {w for c in img.components for w in c.wheels}
        for patch in img.patches:
            if canonicalize_name(patch.package) not in dists:
                yield patch.keypath + ("target", "package"), (
                    f"patch {patch.name!r} targets {patch.package!r}, which image {img.name!r} does not install")


@rule("alternatives-fit", "an alternative replaces a component of the same distribution, from another source")
def _alternatives(manifest):
    for comp in manifest.components.values():
        target = manifest.components.get(comp.get("alternative_to") or "")
        if target is None:
            continue
        if target.dist != comp.dist or target.source == comp.source:
            yield comp.keypath + ("alternative_to",), (f"{manifest.pin_text(comp)} cannot replace "
                                                       f"{manifest.pin_text(target)}: same distribution, other source")


# <name>-<version>-torch<X.Y.Z>-py3<minor>-cann<X.Y.Z>-<soc>-<arch>.zip: what the archive was built for
ARCHIVE_TARGET = re.compile(r"-torch(?P<torch>\d+(?:\.\d+)+)-py3(?P<minor>\d+)-cann(?P<cann>[0-9A-Za-z.]+)"
                            r"-(?P<chip>[0-9a-z]+)-(?P<arch>x86_64|aarch64)\.zip$")


@rule("archive-fits-image", "an archive has a build for every platform of its images, pinned by sha256 or declared "
                            "external, its URLs contain its version, and the torch, python, CANN, SoC and "
                            "architecture in each file name are the image's")
def _archives(manifest):
    for image in manifest.images.values():
        for platform in image.platforms:
            img = image.on(platform)
            for comp in (c for c in img.components if c.source == "archive"):
                yield from _archive_fits(manifest, img, comp, platform)


def _archive_fits(manifest, img, comp, platform):
    build = comp.build_for(platform)
    if not build:
        yield comp.keypath + ("builds",), f"{comp.name!r} has no build for {platform}, a platform of {img.name!r}"
        return
    where = comp.keypath + ("builds", platform, "url")
    url = comp.url_for(platform)
    if comp.version not in url:
        yield where, f"url does not contain version {comp.version} (stale url or version?)"
    if not build.get("sha256") and not comp.get("external"):
        yield comp.keypath + ("builds", platform), "pin the archive's sha256, or say in `external` why it cannot be"
    target = ARCHIVE_TARGET.search(url.rsplit("/", 1)[-1])
    if target is None:
        yield where, (f"cannot read torch, python, CANN, SoC and arch from {url.rsplit('/', 1)[-1]!r} "
                      f"(expected ...-torchX.Y.Z-pyXY-cannX.Y.Z-<soc>-<arch>.zip)")
        return
    yield from _archive_target(manifest, img, comp, platform, where, target)


def _archive_target(manifest, img, comp, platform, where, target):
    base_tag = img.base.spec["tag"].split("-")
    torch = img.role("torch")
    name = f"{comp.name} {comp.version} for {platform} ({manifest.doc.name}:{manifest.line(where)})"
    if target["cann"] != base_tag[0]:
        yield where, f"{name} is built for CANN {target['cann']}; {img.name}'s base {manifest.pin_text(img.base)} is CANN {base_tag[0]}"
    if len(base_tag) > 1 and target["chip"] != base_tag[1]:
        yield where, f"{name} is built for SoC {target['chip']}; {img.name}'s base {manifest.pin_text(img.base)} is {base_tag[1]}"
    if torch is not None and str(torch.release) != target["torch"]:
        yield where, f"{name} is built for torch {target['torch']}; {img.name} installs {manifest.pin_text(torch)}"
    if f"3.{target['minor']}" != img.python:
        yield where, (f"{name} is built for python 3.{target['minor']}; {img.name} is python {img.python} "
                      f"({manifest.doc.name}:{manifest.line(img.where(('python',)))})")
    if target["arch"] != PLATFORM_ARCH[platform]:
        yield where, f"{name} is the {target['arch']} build, listed for {platform}"
