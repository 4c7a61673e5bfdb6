"""The CLI surface: help on every command, list/show/validate, lint, and engine-less errors."""

import json
import os
import subprocess
import sys

import pytest

from verlimage import context, engine
from verlimage.cli import COMMANDS, _load_commands

from conftest import REPO, run_build

_load_commands()


@pytest.mark.parametrize("name", [c[0] for c in COMMANDS])
def test_every_command_has_help(name):
    result = run_build(name, "--help")
    assert result.returncode == 0 and f"usage: build.py {name}" in result.stdout


def test_validate_list_and_show():
    assert run_build("validate").stdout.startswith("pins.yaml: ok (")
    listing = run_build("list").stdout.splitlines()
    assert listing[0].split() == ["IMAGE", "DEVICE", "RUNNER", "TAG"]
    assert any(line.startswith("cpu *") and "verl-ascend:cpu-py3.11-torch2.13.0" in line for line in listing)
    assert any("verl-ascend:cann9.1.0-a3-py3.11-torch2.13.0" in line for line in listing)
    shown = run_build("show", "npu-a3").stdout
    assert "torch_npu     torch_npu" in shown and "env VERL_USE_EXTERNAL_MODULES='mindspeed.megatron_adaptor'" in shown
    as_json = json.loads(run_build("show", "cpu", "--json").stdout)
    assert as_json == json.loads((REPO / "images/cpu/pins.json").read_text())
    unknown = run_build("show", "npu-a9")
    assert unknown.returncode == 2 and "unknown image 'npu-a9'" in unknown.stderr


def test_rendered_dockerfiles_pass_hadolint():
    result = run_build("lint")
    assert result.returncode == 0, result.stdout
    assert result.stdout.count(": ok") == 3


def test_hadolint_config_gives_a_reason_for_every_ignored_rule():
    lines = (REPO / ".hadolint.yaml").read_text().splitlines()
    rules = [i for i, line in enumerate(lines) if line.strip().startswith("- DL") or line.strip().startswith("- SC")]
    assert rules
    for index in rules:
        assert lines[index - 1].strip().startswith("# ") and len(lines[index - 1].strip()) > 12, lines[index]


def test_hadolint_fails_on_a_bad_dockerfile(repo_copy):
    path = repo_copy / "images/cpu/Dockerfile"
    path.write_text(path.read_text().replace('RUN pip install "torch==', 'RUN sudo pip install "torch=='))
    result = run_build("lint", root=repo_copy)
    assert result.returncode == 1 and "images/cpu/Dockerfile: FAILED" in result.stdout and "DL3004" in result.stdout


def test_no_engine_is_one_line_that_says_how_to_get_one():
    env = dict(os.environ, DOCKER_HOST="unix:///nonexistent/docker.sock")
    failed = subprocess.run([sys.executable, str(REPO / "build.py"), "smoke", "cpu"], capture_output=True,
                            text=True, env=env)
    assert failed.returncode == 2
    assert failed.stderr.strip() == f"error: {engine.HOW_TO_GET_ONE}"


def test_context_hash_covers_what_goes_into_the_build(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/file").write_text("one")
    first = context.content_hash(tmp_path, {"base": "x"})
    assert first == context.content_hash(tmp_path, {"base": "x"})
    assert first != context.content_hash(tmp_path, {"base": "y"})
    (tmp_path / "a/file").write_text("two")
    second = context.content_hash(tmp_path, {"base": "x"})
    assert second != first
    (tmp_path / "netprofile").mkdir()
    (tmp_path / "netprofile/pip.conf").write_text("index-url = https://user:token@host/simple")
    assert context.content_hash(tmp_path, {"base": "x"}) == second  # credentials do not change the tag


def test_npu_network_profile_stays_in_the_build_stage():
    text = (REPO / "images/npu-a3/Dockerfile").read_text()
    final = text.split("-- final image", 1)[1]
    build = text.split("AS build", 1)[1].split("-- final image", 1)[0]
    assert "COPY netprofile/ /tmp/netprofile/" in build
    assert "netprofile" not in final and "PIP_CONFIG_FILE" not in final
    args = [line for line in text.splitlines() if line.startswith("ARG ")]
    assert args == ["ARG BASE_IMAGE=quay.io/ascend/cann:9.1.0-a3-ubuntu22.04-py3.11", "ARG APT_MIRROR="]
    assert "netprofile" not in (REPO / "images/cpu/Dockerfile").read_text()
