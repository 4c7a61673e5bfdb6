"""verl's checkpoint engines between two containers on a private docker network (tests/compose/sync.yml,
started through pytest-docker): the pinned verl moves every byte, and the release before it, whose
Mooncake engine leaves a stale completion slot, is caught there too."""

import json
import os
import subprocess
import time

import pytest
from pytest_docker.plugin import get_docker_services

from smoke_tests.sync.checks import MIN_BUCKETS

from conftest import REPO, manifest

pytestmark = pytest.mark.docker
COMPOSE = REPO / "tests/compose/sync.yml"
REPORT_WAIT_S = 400
REPORTS = ("collective.json", "mooncake.json", "rollout.ip")


def _wait_for(path, timeout=REPORT_WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size:
            return json.loads(path.read_text()) if path.suffix == ".json" else path.read_text().strip()
        time.sleep(1)
    raise AssertionError(f"{path.name} did not appear within {timeout} s")


def sync_between_containers(image: str, reports, project: str) -> dict:
    """Both containers of sync.yml from `image`, run to the end; the rollout's reports by file name."""
    reports.chmod(0o777)
    saved = {key: os.environ.get(key) for key in ("SMOKE_IMAGE", "REPORTS")}
    os.environ.update(SMOKE_IMAGE=image, REPORTS=str(reports))  # what the compose file reads
    try:
        # Debian's docker-compose 1.29: no compose plugin for this engine
        with get_docker_services("docker-compose", str(COMPOSE), project, ["up -d"], ["down -v"]):
            try:
                return {name: _wait_for(reports / name) for name in REPORTS}
            except AssertionError as missing:
                raise AssertionError(f"{missing}; the containers' last lines:\n{_logs(project)}") from None
    finally:
        for key, value in saved.items():
            os.environ.pop(key) if value is None else os.environ.__setitem__(key, value)


def _logs(project: str) -> str:
    result = subprocess.run(["docker-compose", "-f", str(COMPOSE), "-p", project, "logs", "--no-color", "--tail", "30"],
                            capture_output=True, text=True)
    return (result.stdout + result.stderr)[-6000:]


@pytest.fixture(scope="module")
def pinned_sync(cpu_image, tmp_path_factory):
    return sync_between_containers(cpu_image.tags.final, tmp_path_factory.mktemp("sync-pinned"),
                                   f"verlsync{os.getpid()}pinned")


@pytest.fixture(scope="module")
def previous_sync(previous_verl_image, tmp_path_factory):
    reference, version = previous_verl_image
    return sync_between_containers(reference, tmp_path_factory.mktemp("sync-previous"),
                                   f"verlsync{os.getpid()}previous"), version


@pytest.mark.parametrize("backend,engine", [("collective", "HCCLCheckpointEngine"),
                                            ("mooncake", "MooncakeCheckpointEngine")])
def test_verls_engines_sync_between_two_containers_bit_for_bit(pinned_sync, backend, engine):
    report = pinned_sync[f"{backend}.json"]
    assert report["error"] == "", report["error"]
    assert report["ok"] and report["mismatches"] == []
    assert report["engine"] == f"verl {manifest().default_image.role('verl').version} {engine}"
    assert report["versions"] == 3 and report["buckets"] > 1  # as verl's engine counted them
    assert report["gbps"] > 0


def test_the_mooncake_sync_runs_where_a_stale_slot_shows(pinned_sync):
    """An even number (>= 4) of buckets per version, as verl's engine received them (smoke_tests/sync/checks.py
    says why): with an odd count the stale slot of the release before is consumed too late to corrupt."""
    buckets = pinned_sync["mooncake.json"]["buckets"]
    assert buckets >= MIN_BUCKETS and buckets % 2 == 0, buckets


def test_the_release_before_the_pinned_verl_fails_across_two_containers(previous_sync):
    reports, version = previous_sync
    report = reports["mooncake.json"]
    assert report["engine"] == f"verl {version} MooncakeCheckpointEngine", report
    assert report["error"] == "" and not report["ok"], report
    assert report["mismatches"] and "bytes differ from what the trainer sent" in report["mismatches"][0]
    assert report["buckets"] >= MIN_BUCKETS and report["buckets"] % 2 == 0


def test_the_sync_crossed_a_network_boundary(pinned_sync):
    assert not pinned_sync["rollout.ip"].startswith("127.")
