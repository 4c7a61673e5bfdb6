"""images/<name>/install.<os>-<arch>.sh: the bare-metal install of an image, rendered from the
same pins and lock as its Dockerfile.

The script checks the host for the facts the image's base pins (architecture, glibc, python,
CANN), then hands baremetal/host_install.py a plan: the image's parts (render/install_plan.py,
the same ones the build context holds), its patches, its pins.json and the ENV of the final
stage of the rendered Dockerfile (read from it, so the activation file sets what a container
gets). A pins.yaml bump or a re-lock changes the plan, so the script changes in the same
render as the Dockerfile.
"""

from __future__ import annotations

import json
import re
import shlex

from ..lock import lockfile
from ..manifest.model import PLATFORM_ARCH, platform_slug
from . import dockerfile, install_plan


def script_name(platform: str) -> str:
    return f"install.{platform_slug(platform)}.sh"


def render_scripts(env, manifest, image, root, dockerfile_text: str) -> dict:
    """{file name: text} for each platform of the image that has a lock."""
    out = {}
    own = dockerfile.locked_own_layers(root, image)
    for platform in image.platforms:
        lock = lockfile.read(lockfile.path_for(root, image.name, platform))
        if lock is None:
            continue  # `build.py lock` first; render --check reports the missing lock
        plan = build_plan(manifest, image, platform, lock, own, dockerfile_text)
        text = dockerfile.render_template(
            env, "install.sh.j2", image.name, image=image, platform=platform, arch=PLATFORM_ARCH[platform], plan=plan, plan_json=plan_text(plan),
            script=script_name(platform), lock_path=f"images/{image.name}/pylock.{platform_slug(platform)}.toml",
            glibc=_glibc(image))
        out[script_name(platform)] = text
    return out


def build_plan(manifest, image, platform: str, lock, own: dict, dockerfile_text: str) -> dict:
    parts = []
    for part in install_plan.parts(image, platform, lock, own):
        sources = part.sources(image)
        sources["items"] = [dict(item) for item in part.items]  # with `fetch`: the host fetches them itself
        sources["apt_build"] = []  # the script checks the host's packages up front and never purges them
        parts.append({"slug": part.slug, "requirements": part.requirements().splitlines(),
                      "files": [{"name": e.artifact.name, "sha256": e.artifact.sha256, "url": e.artifact.url,
                                 "index": e.index, "project": e.name} for e in part.entries],
                      "sources": sources})
    env = final_env(dockerfile_text, skip=set(image.base.get("env") or {}))
    return {
        "format": 1,
        "image": image.name,
        "platform": platform,
        "lock_inputs": lock.inputs,
        "python": image.python,
        "device": image.device,
        "system_site_packages": "-m venv --system-site-packages" in dockerfile_text,  # the image's venv does
        "image_venv": dict(env)["VIRTUAL_ENV"],  # host_install.py writes the host's venv in its place
        "env_scripts": list(image.base.get("env_scripts") or ()),
        "env": env,
        "patches": [p.as_dict() for p in image.patches],
        "pins": image.pins(manifest.repository),
        "parts": parts,
    }


def final_env(dockerfile_text: str, skip=()) -> list:
    """[[key, value]] of every ENV of the Dockerfile's final stage, in order. The base's own ENV is
    left out: on a host it comes from the base's set_env scripts, which the activation file sources."""
    final = dockerfile_text[dockerfile_text.rindex("\nFROM "):]
    joined = re.sub(r"\\\n\s*", " ", final)
    pairs = []
    for line in joined.splitlines():
        if not line.startswith("ENV "):
            continue
        for word in shlex.split(line[4:], posix=True):
            key, _, value = word.partition("=")
            if key not in skip:
                pairs.append([key, value])
    return pairs


def plan_text(plan: dict) -> str:
    """The plan as JSON with one file or requirement per line, so a bump's diff reads line by line."""
    lines = ["{"]
    keys = list(plan)
    for number, key in enumerate(keys):
        comma = "," if number < len(keys) - 1 else ""
        if key != "parts":
            lines.append(f" {json.dumps(key)}: {json.dumps(plan[key], sort_keys=True)}{comma}")
            continue
        lines.append(' "parts": [')
        for index, part in enumerate(plan["parts"]):
            lines.append(f'  {{"slug": {json.dumps(part["slug"])},')
            for field in ("requirements", "files"):
                lines.append(f'   {json.dumps(field)}: [')
                rows = [json.dumps(row, sort_keys=True) for row in part[field]]
                lines += [f"    {row}," for row in rows[:-1]] + [f"    {row}" for row in rows[-1:]]
                lines.append("   ],")
            lines.append(f'   "sources": {json.dumps(part["sources"], sort_keys=True)}}}'
                         + ("," if index < len(plan["parts"]) - 1 else ""))
        lines.append(" ]" + comma)
    lines.append("}")
    return "\n".join(lines)


def _glibc(image) -> str:
    """The base's glibc as major.minor ("2_36" -> "2.36"): the newest manylinux the lock's wheels may need."""
    return image.base.get("glibc").replace("_", ".")

