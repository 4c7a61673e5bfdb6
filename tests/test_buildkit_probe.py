"""Which docker CLI builds: the probe in builder/engine.py, against stand-in clients on PATH (the real
ones need an engine; these only say what a real client says when it cannot build)."""

import stat

import pytest

from image_pipeline.builder import engine
from image_pipeline.errors import UserError

NO_BUILDX = "ERROR: BuildKit is enabled but the buildx component is missing or broken."
BROKEN_STORAGE = ("#1 [internal] load .dockerignore\n#1 ERROR: failed to prepare ujdp: symlink ../ujdp/diff "
                  "/var/lib/docker/overlay2/l/J62Q: no such file or directory")


def _client(directory, build_says: str, build_exit: int):
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "docker"
    script.write_text(f"#!/bin/sh\n[ \"$1\" = buildx ] && exit 1\n[ \"$1\" = rmi ] && exit 0\n"
                      f"echo '{build_says}' >&2\nexit {build_exit}\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return directory


@pytest.fixture
def probe(monkeypatch):
    engine.buildkit_command.cache_clear()
    yield lambda *dirs: (monkeypatch.setenv("PATH", ":".join(map(str, dirs))), engine.buildkit_command())[1]
    engine.buildkit_command.cache_clear()


def test_a_refused_probe_names_each_client_and_what_it_said(tmp_path, probe):
    newer = _client(tmp_path / "local", NO_BUILDX, 1)
    debian = _client(tmp_path / "usr", BROKEN_STORAGE, 1)
    with pytest.raises(UserError) as refused:
        probe(newer, debian)
    message = str(refused.value)
    assert "\n" not in message
    assert f"{newer}/docker: {NO_BUILDX}" in message
    assert f"{debian}/docker: #1 ERROR: failed to prepare ujdp" in message


def test_the_first_client_whose_probe_builds_is_the_one_used(tmp_path, probe):
    newer = _client(tmp_path / "local", NO_BUILDX, 1)
    debian = _client(tmp_path / "usr", "sha256:0123", 0)
    assert probe(newer, debian) == ((f"{debian}/docker", "build"), {"DOCKER_BUILDKIT": "1"})
