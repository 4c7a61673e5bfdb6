"""Shared fixtures. Slow tests (marked `docker`) use the real Docker Engine and run in CI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

COPIED = ("pins.yaml", "templates", "images", "README.md", ".hadolint.yaml", "patches", "payload", "smoke_tests")


@pytest.fixture
def repo_copy(tmp_path) -> Path:
    """A scratch copy of everything `render` reads and writes."""
    root = tmp_path / "repo"
    root.mkdir()
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name)
        elif source.exists():
            shutil.copyfile(source, root / name)
    return root


def run_build(*args, root: Path | None = None, check=False) -> subprocess.CompletedProcess:
    """The real CLI in a fresh interpreter: exit codes and stderr exactly as a user sees them."""
    cmd = [sys.executable, str(REPO / "build.py")]
    if root is not None:
        cmd += ["--root", str(root)]
    result = subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=REPO)
    if check and result.returncode:
        raise AssertionError(f"build.py {' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def tree_snapshot(directory: Path) -> dict:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) >= count, f"{old!r} not found {count}x in {path.name}"
    path.write_text(text.replace(old, new, count))


# ---------------------------------------------------------------- real Docker Engine (marked `docker`)

@pytest.fixture(scope="session")
def engine_client():
    from verlimage import engine

    return engine.client()


@pytest.fixture(scope="session")
def cpu_image(engine_client):
    """The promoted cpu image: built, smoke-tested and promoted by the real pipeline, once per session
    (an up-to-date image is found by its content hash and not rebuilt)."""
    from verlimage import netprofile, pipeline, smoke
    from verlimage.manifest import load_manifest

    manifest = load_manifest(REPO / "pins.yaml")
    image = manifest.default_image
    outcome = pipeline.run(engine_client, manifest, image, REPO, netprofile.from_host(), plain=True,
                           smoke_runner=lambda ref: smoke.run(engine_client, image.name, ref))
    assert outcome.promoted, f"the cpu image failed its smoke suite: {outcome.smoke and outcome.smoke.reason}"
    return outcome
