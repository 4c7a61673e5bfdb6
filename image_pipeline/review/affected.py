"""Which images (and platforms) a change affects, against a git ref, and the CI job matrix.

An image is affected on a platform when its build inputs differ between the base ref and this
tree: the very list `build.py image` hashes into its content tag (builder/inputs.py), computed
for each side from that side's own pins.yaml, templates, lock, trees and assembly code, so an
un-rendered pins change or a change to the code that assembles the context counts too.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..builder.inputs import build_inputs
from ..errors import UserError
from ..lock import lockfile
from ..manifest import load_manifest
from ..manifest.model import arch_of
from ..render import dockerfile


@dataclass
class Change:
    changed: dict = field(default_factory=dict)  # image -> {platform: [input names that differ]}
    added: list = field(default_factory=list)  # images new in this tree
    removed: list = field(default_factory=list)
    base_manifest: object = None
    manifest: object = None
    base_dockerfiles: dict = field(default_factory=dict)  # image -> rendered Dockerfile on the base side
    base_locks: dict = field(default_factory=dict)  # (image, platform) -> LockFile of the base side
    inputs: dict = field(default_factory=dict)  # (image, platform) -> build inputs of this tree

    @property
    def images(self) -> list:
        return [*self.changed, *self.added]


@contextlib.contextmanager
def tree_of(root: Path, ref: str):
    """The tree of `ref` in a temporary directory, extracted from `git archive`."""
    git_ref(ref)
    result = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", "--end-of-options", ref],
                            capture_output=True)
    if result.returncode:
        raise UserError(f"cannot read git ref {ref!r}: {result.stderr.decode().strip().splitlines()[-1:]}",
                        key="--base")
    with tempfile.TemporaryDirectory(prefix="base-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(result.stdout)) as archive:
            archive.extractall(tmp, filter="data")
        yield Path(tmp)


def git_ref(ref: str) -> str:
    """A ref a user names (--base): never read as an option (`--output=...`), one printable token."""
    if not ref or ref.startswith("-") or len(ref) > 256 or any(not c.isprintable() or c.isspace() for c in ref):
        raise UserError(f"{ref!r} is not a git ref (a branch, tag or commit: no leading '-', no space or control "
                        f"character)", key="--base")
    return ref


def is_work_tree(root: Path) -> bool:
    """Is `root` the top of a git work tree (so a ref names a version of its pins.yaml)?"""
    result = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    return result.returncode == 0 and Path(result.stdout.strip()).resolve() == root.resolve()


def manifest_at(root: Path, ref: str):
    """pins.yaml as of `ref`, loaded as written then (a rule added since does not make it unreadable); None
    when that version does not load (another schema, a broken file)."""
    with tree_of(root, ref) as base_root:
        try:
            return load_manifest(base_root / "pins.yaml", check_rules=False)
        except (UserError, OSError):
            return None


def all_inputs(root: Path, manifest) -> dict:
    """(image, platform) -> build inputs, and image -> rendered Dockerfile, for one tree."""
    env = dockerfile.environment(root / "templates")
    inputs, rendered_dockerfiles = {}, {}
    for image in manifest.images.values():
        rendered = dockerfile.render_image(env, manifest, image)
        rendered_dockerfiles[image.name] = rendered["Dockerfile"]
        for platform in image.platforms:
            inputs[(image.name, platform)] = build_inputs(root, image, platform, rendered)
    return inputs, rendered_dockerfiles


def compare(root: Path, base_ref: str) -> Change:
    manifest = load_manifest(root / "pins.yaml")
    now, _ = all_inputs(root, manifest)
    change = Change(manifest=manifest, inputs=now)
    with tree_of(root, base_ref) as base_root:
        try:
            # the base's pins as written then: a rule added since must not make every pin count as changed
            change.base_manifest = load_manifest(base_root / "pins.yaml", check_rules=False)
            before, change.base_dockerfiles = all_inputs(base_root, change.base_manifest)
            change.base_locks = {key: lockfile.read(lockfile.path_for(base_root, *key)) for key in before}
        except (UserError, OSError, KeyError):
            before = {}  # an unreadable base (another schema, a broken file): everything counts as changed
    for (image, platform), inputs in now.items():
        if not any(key[0] == image for key in before):
            if image not in change.added:
                change.added.append(image)
            continue
        old = before.get((image, platform), {})
        differ = sorted(k for k in inputs.keys() | old.keys() if inputs.get(k) != old.get(k))
        if differ:
            change.changed.setdefault(image, {})[platform] = differ
    change.removed = sorted({image for image, _ in before} - {image for image, _ in now})
    return change


def matrix(change: Change) -> dict:
    """GitHub Actions matrix: one job per (image, platform, stage) of every affected image, all its platforms
    (the merge publishes them together). The build stage runs on the hosted build runner of the platform; the
    device stage on the runner pins.yaml names for the image's device and platform, and nowhere when pins.yaml
    waives it there."""
    include = []
    for name in change.images:
        image = change.manifest.images[name]
        for platform in image.platforms:
            job = {"image": name, "platform": platform, "arch": arch_of(platform), "device": image.device}
            include.append({**job, "stage": "build", "runner": "build",
                            "runs_on": change.manifest.build_runners[platform]})
            if image.device_runs_on(platform) is not None:
                include.append({**job, "stage": "device", "runner": image.runner.name,
                                "runs_on": image.device_runs_on(platform)})
    return {"include": include}
