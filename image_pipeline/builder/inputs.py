"""The one list of an image's build inputs, and the content hash (tag) made from it.

Both `build.py image` (is the tag already built?) and `build.py affected` (which images does
a change touch?) call build_inputs: the rendered Dockerfile and pins.json, the platform's
lock (whose sha256 of every locked file stands in for the files, so locally built bytes never
reach the hash), the trees shipped into or run in the build, the declared patches, and the
code that assembles the context. The content hash adds the base image's id, the platform
and the build args; no download is needed to compute it.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import NamedTuple

from ..lock import lockfile
from ..paths import INSTALLER, PAYLOAD, REPO, SMOKE

TREES = (INSTALLER, PAYLOAD, SMOKE)
# the code that turns a lock and the repository into a build context, and that writes the config,
# labels and SBOM around the built layers
ASSEMBLY_CODE = ("image_pipeline/builder/context.py", "image_pipeline/builder/wheelhouse.py",
                 "image_pipeline/builder/inputs.py", "image_pipeline/lock/lockfile.py",
                 "image_pipeline/render/install_plan.py", "image_pipeline/builder/image_config.py",
                 "image_pipeline/builder/sbom.py")
IGNORED = ("__pycache__", ".pytest_cache", ".mypy_cache")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tree_hash(root: Path, tree: str) -> str:
    digest = hashlib.sha256()
    for path in sorted((root / tree).rglob("*")):
        if path.is_file() and not any(part in IGNORED for part in path.parts) and path.suffix != ".pyc":
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_inputs(root: Path, image, platform: str, rendered: dict) -> dict:
    """name -> sha256 of everything that decides what the image holds, for one platform.

    rendered: {"Dockerfile": text, "pins.json": text} of the image (or of an alternative)."""
    # a tree holding the code (a checkout of another revision) is hashed with its own code
    code_root = root if (root / ASSEMBLY_CODE[0]).exists() else REPO
    lock_path = lockfile.path_for(root, image.name, platform)
    inputs = {
        "Dockerfile": sha256_bytes(rendered["Dockerfile"].encode()),
        "pins.json": sha256_bytes(rendered["pins.json"].encode()),
        "lock": sha256_bytes(lock_path.read_bytes()) if lock_path.exists() else "missing",
        "platform": sha256_bytes(platform.encode()),
    }
    for tree in TREES:
        inputs[f"tree:{tree}"] = tree_hash(root, tree)
    for patch in image.patches:
        inputs[f"patch:{patch.name}"] = sha256_bytes((root / patch.diff).read_bytes())
    for module in ASSEMBLY_CODE:
        inputs[f"code:{module}"] = sha256_bytes((code_root / module).read_bytes())
    return inputs


def content_hash(inputs: dict, base_id: str, buildargs: dict) -> str:
    payload = json.dumps({"inputs": inputs, "base": base_id, "buildargs": buildargs}, sort_keys=True)
    return sha256_bytes(payload.encode())


class SourceDate(NamedTuple):
    commit: str  # "" outside a git checkout
    epoch: int


def source_date(root: Path, image) -> SourceDate:
    """The last commit that changed any of the image's inputs, and its time: the time the image's config,
    labels and SBOM carry (its files carry one constant: templates/Dockerfile.j2 says why). Two clones of
    one commit agree on it, and so do two commits whose inputs are the same; a tree outside git (a
    scratch copy) gets 0, the time Nix and ko stamp."""
    paths = ["pins.yaml", "templates", f"images/{image.name}", *TREES, "patches", *ASSEMBLY_CODE]
    result = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%H %ct", "--", *paths],
                            capture_output=True, text=True)
    commit, _, epoch = result.stdout.strip().partition(" ")
    if result.returncode or not epoch:
        return SourceDate("", 0)
    return SourceDate(commit, int(epoch))
