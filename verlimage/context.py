"""Assemble an image's build context and hash everything that goes into it.

Layout of the context (the rendered Dockerfile COPYs from these names):
  Dockerfile, pins.json        images/<name>/
  payload/, smoke_tests/       shipped into the image
  patches/                     the image's diffs + patches.json
  wheelhouse/, artifacts/      host downloads, installed offline
  netprofile/                  pip.conf + CA for the build stage (not hashed: no effect on content)
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from .paths import CACHE_DIR
from .wheelhouse import sha256_file

IGNORED = ("__pycache__", ".pytest_cache", ".mypy_cache")
UNHASHED = ("netprofile",)


@dataclass(frozen=True)
class BuildContext:
    directory: Path
    content_hash: str  # sha256 hex over every hashed file, the base image id and the build args

    @property
    def short_hash(self) -> str:
        return self.content_hash[:12]


def assemble(image, root: Path, wheelhouse: Path, artifacts: list, profile, base_id: str,
             cache: Path = CACHE_DIR) -> BuildContext:
    target = cache / "context" / image.name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    image_dir = root / "images" / image.name
    for name in ("Dockerfile", "pins.json"):
        shutil.copyfile(image_dir / name, target / name)
    _copy_tree(root / "payload", target / "payload")
    _copy_tree(root / "smoke_tests", target / "smoke_tests")
    _write_patches(image, root, target / "patches")
    _link_tree(wheelhouse, target / "wheelhouse")
    (target / "artifacts").mkdir()
    for artifact in artifacts:
        _link(artifact, target / "artifacts" / artifact.name)
    if not image.offline:
        profile.write_context(target / "netprofile")
    digest = content_hash(target, extra={"base": base_id, "buildargs": profile.buildargs()})
    return BuildContext(target, digest)


def _write_patches(image, root: Path, target: Path) -> None:
    target.mkdir()
    declared = []
    for patch in image.patches:
        shutil.copyfile(root / patch.diff, target / Path(patch.diff).name)
        declared.append(patch.as_dict())
    (target / "patches.json").write_text(json.dumps(declared, indent=1, sort_keys=True) + "\n")


def content_hash(directory: Path, extra: dict) -> str:
    """sha256 over (path, file sha256) of the context, plus extra inputs. Wheelhouse files are
    taken from wheelhouse.json (hashed when downloaded) instead of being read again."""
    digest = hashlib.sha256(json.dumps(extra, sort_keys=True).encode())
    known = _wheelhouse_hashes(directory / "wheelhouse")
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        rel = path.relative_to(directory)
        if rel.parts[0] in UNHASHED:
            continue
        file_hash = known.get(rel.as_posix()) or sha256_file(path)
        digest.update(f"{rel.as_posix()}\0{file_hash}\n".encode())
    return digest.hexdigest()


def _wheelhouse_hashes(directory: Path) -> dict:
    index = directory / "wheelhouse.json"
    if not index.exists():
        return {}
    files = json.loads(index.read_text())["files"]
    return {f"wheelhouse/{name}": sha for name, sha in files.items()}


def _copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(*IGNORED, "*.pyc"))


def _link_tree(source: Path, target: Path) -> None:
    target.mkdir()
    for path in source.iterdir():
        if path.is_file():
            _link(path, target / path.name)


def _link(source: Path, target: Path) -> None:
    """Hard links keep a multi-GB wheelhouse from being copied for every build."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
