"""verl's checkpoint engines between two containers on a private docker network, started by pytest-docker."""

import json
import os
import time

import pytest

from conftest import REPO, manifest

pytestmark = pytest.mark.docker
REPORT_WAIT_S = 400


@pytest.fixture(scope="session")
def sync_reports(tmp_path_factory):
    path = tmp_path_factory.mktemp("sync-reports")
    path.chmod(0o777)
    return path


@pytest.fixture(scope="session")
def docker_compose_file(cpu_image, sync_reports):
    os.environ["SMOKE_IMAGE"] = cpu_image.tags.final
    os.environ["REPORTS"] = str(sync_reports)
    return str(REPO / "tests/compose/sync.yml")


@pytest.fixture(scope="session")
def docker_compose_command():
    return "docker-compose"  # Debian's docker-compose 1.29 (no compose plugin for this engine)


@pytest.fixture(scope="session")
def docker_setup():
    return ["up -d"]


def _wait_for(path, timeout=REPORT_WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size:
            return json.loads(path.read_text()) if path.suffix == ".json" else path.read_text().strip()
        time.sleep(1)
    raise AssertionError(f"{path.name} did not appear within {timeout} s")


@pytest.mark.parametrize("backend,engine", [("collective", "HCCLCheckpointEngine"),
                                            ("mooncake", "MooncakeCheckpointEngine")])
def test_verls_engines_sync_between_two_containers_bit_for_bit(docker_services, sync_reports, backend, engine):
    report = _wait_for(sync_reports / f"{backend}.json")
    assert report["error"] == "", report["error"]
    assert report["ok"] and report["mismatches"] == []
    assert report["engine"] == f"verl {manifest().default_image.role('verl').version} {engine}"
    assert report["versions"] == 3 and report["buckets"] > 4
    assert report["gbps"] > 0


def test_the_sync_crossed_a_network_boundary(docker_services, sync_reports):
    _wait_for(sync_reports / "mooncake.json")
    rollout_ip = _wait_for(sync_reports / "rollout.ip")
    assert not rollout_ip.startswith("127.")
