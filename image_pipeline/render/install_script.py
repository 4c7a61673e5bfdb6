"""images/<name>/install.<os>-<arch>.sh: the bare-metal install of an image, rendered from the
same pins and lock as its Dockerfile.

The script checks the host for the facts the image's base pins (architecture, glibc, python,
CANN), then hands baremetal/host_install.py the image's layout: its parts (render/install_plan.py,
the same ones the build context holds) without a version, file or hash, and the ENV of the final
stage of the rendered Dockerfile (read from it, so the activation file sets what a container
gets). host_install.py completes it from the committed lock and pins.json (render/host_plan.py), so
a version bump or a re-lock re-renders no script: only a change of layers, ENV or base does.
"""

from __future__ import annotations

import json
import re
import shlex

from ..lock import lockfile
from ..manifest.model import PLATFORM_ARCH, platform_slug
from . import dockerfile, install_plan, layers


def script_name(platform: str) -> str:
    return f"install.{platform_slug(platform)}.sh"


def render_scripts(env, manifest, image, root, dockerfile_text: str) -> dict:
    """{file name: text} for each platform of the image that has a lock."""
    out = {}
    own = layers.locked_own_layers(root, image)
    for platform in image.platforms:
        lock = lockfile.read(lockfile.path_for(root, image.name, platform))
        if lock is None:
            continue  # `build.py lock` first; render --check reports the missing lock
        text = dockerfile.render_template(
            env, "install.sh.j2", image.name, image=image, platform=platform, arch=PLATFORM_ARCH[platform],
            layout_json=layout_text(layout(image, platform, lock, own, dockerfile_text)), script=script_name(platform),
            lock_path=f"images/{image.name}/pylock.{platform_slug(platform)}.toml", glibc=_glibc(image))
        out[script_name(platform)] = text
    return out


def layout(image, platform: str, lock, own: dict, dockerfile_text: str) -> dict:
    """What the script hands host_install.py: everything of the plan but what the lock and pins.json hold."""
    env = final_env(dockerfile_text, skip=set(image.base.get("env") or {}))
    return {
        "format": 2,
        "image": image.name,
        "platform": platform,
        "python": image.python,
        "device": image.device,
        "system_site_packages": "-m venv --system-site-packages" in dockerfile_text,  # the image's venv does
        "image_venv": dict(env)["VIRTUAL_ENV"],  # host_install.py writes the host's venv in its place
        "env_scripts": list(image.base.get("env_scripts") or ()),
        "env": env,
        "soc_version": image.soc_version,
        "parts": [part.layout() for part in install_plan.parts(image, platform, lock, own)],
    }


def final_env(dockerfile_text: str, skip=()) -> list:
    """[[key, value]] of every ENV of the image's own stages (dockerfile.image_stages), in order. The base's own
    ENV is left out: on a host it comes from the base's set_env scripts, which the activation file sources."""
    joined = re.sub(r"\\\n\s*", " ", dockerfile.image_stages(dockerfile_text))
    pairs = []
    for line in joined.splitlines():
        if not line.startswith("ENV "):
            continue
        for word in shlex.split(line[4:], posix=True):
            key, _, value = word.partition("=")
            if key not in skip:
                pairs.append([key, value])
    return pairs


def layout_text(layout: dict) -> str:
    """The layout as JSON with one part per line, so a change of layers reads line by line in a diff."""
    keys = [key for key in layout if key != "parts"]
    lines = ["{", *(f" {json.dumps(key)}: {json.dumps(layout[key], sort_keys=True)}," for key in keys), ' "parts": [']
    rows = [json.dumps(part) for part in layout["parts"]]  # slug first: parts read in install order
    lines += [f"  {row}," for row in rows[:-1]] + [f"  {row}" for row in rows[-1:]]
    return "\n".join(lines + [" ]", "}"])


def _glibc(image) -> str:
    """The base's glibc as major.minor ("2_36" -> "2.36"): the newest manylinux the lock's wheels may need."""
    return image.base.get("glibc").replace("_", ".")

