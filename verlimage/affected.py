"""Which images a change affects, against a git ref, and the CI job matrix for them.

An image is affected when anything that goes into it differs from the base ref: its
rendered Dockerfile or pins.json (rendered from each side's own pins.yaml and templates,
so an un-rendered change counts too), the payload, the smoke tests, or its patches.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import render
from .errors import UserError
from .manifest import load_manifest

SHARED_TREES = ("payload", "smoke_tests")
RUNS_ON = {
    "hosted-cpu": ["ubuntu-latest"],
    "ascend-a2": ["self-hosted", "linux", "arm64", "ascend-a2"],
    "ascend-a3": ["self-hosted", "linux", "arm64", "ascend-a3"],
}


@dataclass
class Change:
    changed: list  # image names, in pins.yaml order
    added: list
    removed: list
    base_manifest: object
    manifest: object
    base_outputs: dict  # rendered files (path -> text) of the base tree
    outputs: dict  # and of this tree


@contextlib.contextmanager
def checkout(root: Path, ref: str):
    """The tree of `ref` in a temporary directory (git archive: no worktree, no checkout)."""
    result = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", ref], capture_output=True)
    if result.returncode:
        raise UserError(f"cannot read git ref {ref!r}: {result.stderr.decode().strip().splitlines()[-1:]}",
                        key="--base")
    with tempfile.TemporaryDirectory(prefix="base-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(result.stdout)) as archive:
            archive.extractall(tmp, filter="data")
        yield Path(tmp)


def fingerprints(root: Path, manifest, outputs: dict) -> dict:
    """name -> sha256 of everything that goes into the image's build, from this tree and its render."""
    shared = hashlib.sha256()
    for tree in SHARED_TREES:
        for path in sorted((root / tree).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                shared.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    result = {}
    for name, image in manifest.images.items():
        digest = hashlib.sha256(shared.digest())
        for filename in render.IMAGE_FILES:
            digest.update(outputs[Path("images") / name / filename].encode())
        for patch in image.patches:
            digest.update((root / patch.diff).read_bytes())
        result[name] = digest.hexdigest()
    return result


def compare(root: Path, base_ref: str) -> Change:
    manifest = load_manifest(root / "pins.yaml")
    outputs = render.render_all(manifest, root / "templates", root)
    now = fingerprints(root, manifest, outputs)
    with checkout(root, base_ref) as base_root:
        try:
            base_manifest = load_manifest(base_root / "pins.yaml")
            base_outputs = render.render_all(base_manifest, base_root / "templates", base_root)
            before = fingerprints(base_root, base_manifest, base_outputs)
        except UserError:
            # an unreadable base: everything counts as changed
            base_manifest, base_outputs, before = None, {}, {}
    changed = [n for n in manifest.images if n in before and before[n] != now[n]]
    added = [n for n in manifest.images if n not in before]
    removed = [n for n in before if n not in now]
    return Change(changed, added, removed, base_manifest, manifest, base_outputs, outputs)


def matrix(change: Change) -> dict:
    """GitHub Actions matrix: one job per affected image, with the runner it needs."""
    include = []
    for name in change.changed + change.added:
        image = change.manifest.images[name]
        include.append({"image": name, "device": image.device, "runner": image.runner,
                        "runs_on": RUNS_ON[image.runner], "platforms": ",".join(image.platforms)})
    return {"include": include}
