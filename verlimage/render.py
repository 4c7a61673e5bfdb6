"""Render images/<name>/{Dockerfile,pins.json} and the README's generated blocks.

Everything is rendered in memory first; files are only written once every image
rendered, each through a temporary file and an atomic rename, so a failure leaves
the tree exactly as it was.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import jinja2

from . import readme
from .errors import UserError
from .paths import IMAGES_DIR, README, REPO, TEMPLATES_DIR

IMAGE_FILES = ("Dockerfile", "pins.json")


def environment(templates: Path = TEMPLATES_DIR) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render_image(env: jinja2.Environment, manifest, image) -> dict:
    """{filename: text} for one image."""
    try:
        dockerfile = env.get_template("Dockerfile.j2").render(image=image, repository=manifest.repository)
    except jinja2.TemplateError as exc:
        where = f"{exc.filename or 'templates'}:{exc.lineno}" if getattr(exc, "lineno", None) else "templates"
        raise UserError(f"template error while rendering {image.name}: {exc.message}", file=where) from None
    dockerfile = re.sub(r"\n{3,}", "\n\n", dockerfile)
    pins = json.dumps(image.pins(manifest.repository), indent=2, sort_keys=True) + "\n"
    return {"Dockerfile": dockerfile, "pins.json": pins}


def render_all(manifest, templates: Path = TEMPLATES_DIR, root: Path = REPO) -> dict:
    """{path relative to root: text} for every generated file, README included."""
    env = environment(templates)
    images_dir = (root / IMAGES_DIR.relative_to(REPO))
    outputs = {}
    for image in manifest.images.values():
        for name, text in render_image(env, manifest, image).items():
            outputs[(images_dir / image.name / name).relative_to(root)] = text
    readme_path = root / README.relative_to(REPO)
    if readme_path.exists():
        outputs[readme_path.relative_to(root)] = readme.regenerate(readme_path.read_text(), manifest)
    return outputs


def stale_dirs(manifest, root: Path = REPO) -> list:
    images_dir = root / IMAGES_DIR.relative_to(REPO)
    if not images_dir.is_dir():
        return []
    return sorted(p for p in images_dir.iterdir() if p.is_dir() and p.name not in manifest.images)


def drift(outputs: dict, manifest, root: Path = REPO) -> list:
    """Unified diffs (as text) between the tree and a fresh render, plus stale image dirs."""
    problems = []
    for rel, want in outputs.items():
        path = root / rel
        have = path.read_text() if path.exists() else ""
        if have != want:
            problems.append("".join(difflib.unified_diff(
                have.splitlines(keepends=True), want.splitlines(keepends=True),
                fromfile=f"a/{rel}", tofile=f"b/{rel} (fresh render)")) or f"--- {rel}: missing\n")
    images_dir = root / IMAGES_DIR.relative_to(REPO)
    if images_dir.is_dir():
        for image_dir in images_dir.iterdir():
            if image_dir.is_dir() and image_dir.name in manifest.images:
                for extra in sorted(set(p.name for p in image_dir.iterdir()) - set(IMAGE_FILES)):
                    problems.append(f"--- {image_dir.relative_to(root)}/{extra}: not generated, remove it\n")
    for stale in stale_dirs(manifest, root):
        problems.append(f"--- {stale.relative_to(root)}/: stale image directory (not in pins.yaml)\n")
    return problems


def write(outputs: dict, manifest, root: Path = REPO) -> list:
    """Write changed files atomically and remove stale image dirs; return what changed."""
    changed = []
    for rel, text in outputs.items():
        path = root / rel
        if path.exists() and path.read_text() == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, text)
        changed.append(str(rel))
    for stale in stale_dirs(manifest, root):
        shutil.rmtree(stale)
        changed.append(f"{stale.relative_to(root)}/ (removed)")
    return changed


def atomic_write(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
