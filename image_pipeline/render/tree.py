"""Render every generated file in memory, compare it with the tree, write it atomically.

Files are only written once everything rendered, each through a temporary file and an
atomic rename, so a failure leaves the tree exactly as it was.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .. import tables
from ..files import atomic_write
from ..lock import consistency
from ..manifest.model import platform_slug
from ..paths import DOCUMENTS, GITATTRIBUTES
from . import dockerfile, install_script, readme


def render_all(manifest, root: Path, extra_blocks: dict) -> dict:
    """{path relative to root: text} for every generated file, the documents (README, docs/) included."""
    consistency.check_pins(manifest, root)
    env = dockerfile.environment(root / "templates")
    outputs = {}
    for image in manifest.images.values():
        for alternative in [None, *manifest.alternatives_of(image)]:
            for name, text in dockerfile.render_image(env, manifest, image, alternative).items():
                outputs[Path("images") / image.name / name] = text
        scripts = install_script.render_scripts(env, manifest, image, root,
                                                outputs[Path("images") / image.name / "Dockerfile"])
        for name, text in scripts.items():
            outputs[Path("images") / image.name / name] = text
    generated = sorted([*(rel for rel in outputs), *expected_locks(manifest)], key=lambda p: p.as_posix())
    outputs[Path(GITATTRIBUTES)] = gitattributes(generated)
    documents = {doc: (root / doc).read_text() for doc in DOCUMENTS if (root / doc).exists()}
    if documents:
        outputs.update({Path(doc): text for doc, text in
                        readme.regenerate_all(documents, manifest, root, extra_blocks).items()})
    return outputs


def gitattributes(generated: list) -> str:
    """Every file render writes under images/ and every lock, marked generated: review tools fold their
    diffs (the README and docs/ hold hand-written text between their generated blocks, so they are not)."""
    lines = [f"/{path.as_posix()} linguist-generated=true" for path in generated]
    return (f"# GENERATED FILE: do not edit. Written by `python build.py render` from the list of files it renders\n"
            f"# and the locks (`render --check` fails when it lags).\n" + "\n".join(lines) + "\n")


def expected_locks(manifest) -> set:
    return {Path("images") / img.name / f"pylock.{platform_slug(p)}.toml"
            for img in manifest.images.values() for p in img.platforms}


def drift(outputs: dict, manifest, root: Path) -> list:
    """Unified diffs (as text) between the tree and a fresh render, plus stray files and dirs."""
    problems = []
    for rel, want in outputs.items():
        path = root / rel
        have = path.read_text() if path.exists() else ""
        if have != want:
            problems.append(tables.unified_diff(have, want, str(rel), " (fresh render)") or f"--- {rel}: missing\n")
        elif not _mode_ok(path):
            problems.append(f"--- {rel}: not executable (chmod +x, or `make render`)\n")
    allowed = set(outputs) | expected_locks(manifest)
    images_dir = root / "images"
    for path in sorted(images_dir.rglob("*")) if images_dir.is_dir() else []:
        rel = path.relative_to(root)
        if path.is_dir() and rel.parts[1] not in manifest.images and len(rel.parts) == 2:
            problems.append(f"--- {rel}/: stale image directory (not in pins.yaml)\n")
        elif path.is_file() and rel not in allowed and rel.parts[1] in manifest.images:
            problems.append(f"--- {rel}: not generated, remove it\n")
    return problems


def _mode_ok(path: Path) -> bool:
    return path.suffix != ".sh" or os.access(path, os.X_OK)


def stale_locks(manifest, root: Path, resolver_version: str) -> list:
    return [f"--- {line}\n" for line in consistency.stale(manifest, root, resolver_version)]


def write(outputs: dict, manifest, root: Path) -> list:
    """Write changed files atomically and remove stale image dirs; return what changed."""
    changed = []
    for rel, text in outputs.items():
        path = root / rel
        if path.exists() and path.read_text() == text and _mode_ok(path):
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text)
        changed.append(str(rel))
    images_dir = root / "images"
    for path in sorted(images_dir.iterdir()) if images_dir.is_dir() else []:
        if path.is_dir() and path.name not in manifest.images:
            shutil.rmtree(path)
            changed.append(f"images/{path.name}/ (removed)")
    return changed
