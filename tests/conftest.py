"""Shared fixtures. Slow tests (marked `docker`) use the real Docker Engine and run in CI;
`network` tests resolve against the real package indexes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

COPIED = ("pins.yaml", "templates", "images", "README.md", ".hadolint.yaml", "patches", "payload", "smoke_tests",
          "installer")


def copy_repo(target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copyfile(source, target / name)
    return target


@pytest.fixture
def repo_copy(tmp_path) -> Path:
    """A scratch copy of everything `render`, `lock` and `image` read and write."""
    return copy_repo(tmp_path / "repo")


def run_build(*args, root: Path | None = None, check=False, env=None) -> subprocess.CompletedProcess:
    """The real CLI in a fresh interpreter: exit codes and stderr exactly as a user sees them."""
    cmd = [sys.executable, str(REPO / "build.py")]
    if root is not None:
        cmd += ["--root", str(root)]
    result = subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=REPO, env=env)
    if check and result.returncode:
        raise AssertionError(f"build.py {' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def tree_snapshot(directory: Path) -> dict:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) >= count, f"{old!r} not found {count}x in {path.name}"
    path.write_text(text.replace(old, new, count))


def manifest():
    from image_pipeline.manifest import load_manifest

    return load_manifest(REPO / "pins.yaml")


# ---------------------------------------------------------------- real Docker Engine (marked `docker`)

@pytest.fixture(scope="session")
def engine_client():
    from image_pipeline.build import engine

    return engine.client()


def build_promoted(api, platform: str | None = None, root: Path = REPO):
    """The real pipeline for the default image: built, smoke-tested and promoted (an image whose
    content tag exists is not rebuilt)."""
    from image_pipeline import network
    from image_pipeline.build import engine, pipeline
    from image_pipeline.manifest import load_manifest
    from image_pipeline.smoke import runner

    m = load_manifest(root / "pins.yaml")
    image = m.default_image
    platform = platform or engine.host_platform()
    return pipeline.run(api, m, image, platform, root, network.from_host(), plain=True, cache=REPO / ".cache",
                        smoke_runner=lambda ref: runner.run(api, image.name, ref, artifacts=REPO / "artifacts",
                                                            platform=platform))


@pytest.fixture(scope="session")
def cpu_image(engine_client):
    outcome = build_promoted(engine_client)
    assert outcome.promoted, f"the cpu image failed its smoke suite: {outcome.smoke and outcome.smoke.reason}"
    return outcome
