"""verl's own CPU tests (the pinned verl wheel ships them) inside the promoted cpu image, with the
locked test tools mounted for the run only; and the rule that judges a run: every collected test
passes, only the committed deselect list leaves tests out."""

import json

import pytest

from smoke_tests import verl_tests

from conftest import REPO, manifest, run_build

RECORDED = json.loads((REPO / "records/verl_tests.json").read_text())["measured"]


@pytest.fixture(scope="module")
def verl_tests_run(cpu_image):
    result = run_build("verl-tests", "cpu", "--tag", cpu_image.tags.final)
    summary = sorted((REPO / "artifacts" / "cpu").glob("*/summary.json"))[-1]
    return result, json.loads(summary.read_text())


@pytest.mark.docker
def test_verls_cpu_tests_pass_in_the_image(verl_tests_run):
    result, summary = verl_tests_run
    assert result.returncode == 0, result.stdout[-3000:]
    assert summary["verl"] == manifest().default_image.role("verl").version
    assert summary["files"] > 0 and summary["collected"] > 0
    assert summary["passed"] == summary["collected"], summary
    assert summary["failed"] == summary["errors"] == summary["skipped"] == 0, summary


def _run_like(record, **changes):
    """A summary as the check writes it, from a recorded run (the counts docs/reference.md shows)."""
    return {**{k: record[k] for k in ("verl", "files", "collected", "passed", "failed", "skipped")},
            "errors": 0, "device": "cpu", "exit_code": 0, **changes}


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_the_recorded_runs_pass_the_rule(key):
    assert verl_tests.problems_of(_run_like(RECORDED[key])) == []


@pytest.mark.parametrize("change,words", [
    (lambda r: {"passed": r["passed"] - 1, "failed": 1, "exit_code": 1}, "1 failed"),
    (lambda r: {"passed": r["passed"] - 1, "errors": 1, "exit_code": 1}, "1 error(s)"),
    (lambda r: {"passed": r["passed"] - 1, "skipped": 1}, "1 skipped"),
    (lambda r: {"collected": 0, "passed": 0, "exit_code": 5}, "no test collected (pytest exit 5)"),
    (lambda r: {"files": 0, "collected": 0, "passed": 0, "exit_code": 4}, "ships no *_on_cpu.py tests"),
    (lambda r: {"exit_code": 3}, "pytest exit 3"),
], ids=["one-failure", "one-error", "one-skip", "nothing-collected", "no-files", "internal-error"])
def test_one_test_left_out_or_failing_fails_the_check(change, words):
    record = next(iter(RECORDED.values()))
    problems = verl_tests.problems_of(_run_like(record, **change(record)))
    assert any(words in p for p in problems), problems


def test_every_deselected_test_says_why():
    data = json.loads((REPO / "smoke_tests/verl_tests.json").read_text())
    for entries in data["deselect"].values():
        for entry in entries:
            assert set(entry) == {"nodeid", "reason"} and len(entry["reason"]) > 20, entry


def test_the_recorded_counts_are_for_the_pinned_verl():
    """The README's table of verl's own tests must not describe another release."""
    assert RECORDED, "no run recorded: python build.py verl-tests cpu --record"
    for key, record in RECORDED.items():
        image, platform = key.split()
        assert record["verl"] == manifest().images[image].on(platform).role("verl").version, key


@pytest.mark.docker
def test_the_test_tools_never_reach_the_image(engine_client, cpu_image):
    out = engine_client.containers.run(cpu_image.tags.final, ["python", "-c", "import importlib.util as u; "
                                       "print(u.find_spec('pytest') is None, u.find_spec('pytest_asyncio') is None)"],
                                       remove=True, network_mode="none").decode().split()
    assert out == ["True", "True"]
