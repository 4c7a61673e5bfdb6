"""verl's own CPU tests (the pinned verl wheel ships them) inside the promoted cpu image, with the
locked test tools mounted for the run only."""

import json

import pytest

from image_pipeline.build import engine

from conftest import REPO, manifest, run_build

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def verl_tests_run(cpu_image):
    result = run_build("verl-tests", "cpu", "--tag", cpu_image.tags.final)
    summary = sorted((REPO / "artifacts" / "cpu").glob("*/summary.json"))[-1]
    return result, json.loads(summary.read_text())


def test_verls_cpu_tests_pass_in_the_image(verl_tests_run):
    result, summary = verl_tests_run
    assert result.returncode == 0, result.stdout[-3000:]
    assert summary["verl"] == manifest().default_image.role("verl").version
    assert summary["files"] > 0 and summary["errors"] == 0
    ran = summary["collected"]
    assert ran > 0 and summary["passed"] >= 0.95 * ran


def test_every_deselected_test_says_why():
    data = json.loads((REPO / "smoke_tests/verl_tests.json").read_text())
    for entries in data["deselect"].values():
        for entry in entries:
            assert set(entry) == {"nodeid", "reason"} and len(entry["reason"]) > 20, entry


def test_the_recorded_counts_are_for_the_pinned_verl():
    """The README's table of verl's own tests must not describe another release."""
    measured = json.loads((REPO / "records/verl_tests.json").read_text())["measured"]
    assert measured, "no run recorded: python build.py verl-tests cpu --record"
    for key, record in measured.items():
        image, platform = key.split()
        assert record["verl"] == manifest().images[image].on(platform).role("verl").version, key


def test_the_test_tools_never_reach_the_image(engine_client, cpu_image):
    out = engine_client.containers.run(cpu_image.tags.final, ["python", "-c", "import importlib.util as u; "
                                       "print(u.find_spec('pytest') is None, u.find_spec('pytest_asyncio') is None)"],
                                       remove=True, network_mode="none").decode().split()
    assert out == ["True", "True"]
