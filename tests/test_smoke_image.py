"""The smoke suite inside the built cpu image, and proof that it catches broken images."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from verlimage import smoke

from conftest import REPO

pytestmark = pytest.mark.docker


def _run(engine_client, cpu_image, tmp_path, **kwargs):
    return smoke.run(engine_client, "cpu", cpu_image.tags.final, artifacts=tmp_path, echo=False, **kwargs)


def test_full_suite_passes_and_leaves_artifacts(engine_client, cpu_image, tmp_path):
    outcome = _run(engine_client, cpu_image, tmp_path)
    assert outcome.passed, outcome.reason
    names = [r["name"] for r in outcome.results]
    for required in ("conformance.versions", "conformance.external_modules", "train", "sync.nccl",
                     "sync.mooncake", "batch_invariance.on", "batch_invariance.off"):
        assert required in names
    suite = ET.parse(outcome.directory / "junit.xml").getroot()
    assert suite.get("tests") == str(len(names)) and suite.get("failures") == "0"
    assert outcome.log.stat().st_size > 0
    assert outcome.metrics["sync.nccl.synthetic.gbps"] > 0 and outcome.metrics["sync.mooncake.synthetic.gbps"] > 0
    assert outcome.metrics["train.loss.last"] < outcome.metrics["train.loss.first"]
    assert not (outcome.directory / "diagnostics.txt").exists()


def test_slot_drain_regression_is_caught(engine_client, cpu_image, tmp_path):
    outcome = _run(engine_client, cpu_image, tmp_path, only="sync.mooncake", faults=["no-slot-drain"])
    result = {r["name"]: r for r in outcome.results}
    assert not outcome.passed
    assert not result["sync.mooncake"]["passed"]
    assert "not bitwise equal" in result["sync.mooncake"]["detail"]
    assert result["sync.mooncake.throughput"]["passed"]  # one version: no stale slot to trip over


def test_a_corrupted_byte_is_caught(engine_client, cpu_image, tmp_path):
    outcome = _run(engine_client, cpu_image, tmp_path, only="sync.nccl", faults=["corrupt-byte"])
    detail = {r["name"]: r for r in outcome.results}["sync.nccl"]["detail"]
    assert not outcome.passed
    assert "1 of" in detail and "bytes differ" in detail


def test_bad_external_modules_value_is_named_and_diagnosed(engine_client, cpu_image, tmp_path):
    outcome = _run(engine_client, cpu_image, tmp_path, only="conformance.external_modules",
                   env={"VERL_USE_EXTERNAL_MODULES": "verl_cpu_platform,no_such_module"})
    detail = outcome.results[0]["detail"]
    assert not outcome.passed
    assert "VERL_USE_EXTERNAL_MODULES='verl_cpu_platform,no_such_module'" in detail
    assert "module 'no_such_module' failed to import" in detail
    diagnostics = (outcome.directory / "diagnostics.txt").read_text()
    for section in ("=== ls -l LOG", "=== wc -c LOG", "=== tail -c 4096 LOG", "=== container state",
                    "=== exit code\n1", "=== OOMKilled\nFalse", "=== npu-smi info"):
        assert section in diagnostics, section
    assert "npu-smi is not installed here" in diagnostics


def test_wrong_transformers_in_the_image_is_caught(engine_client, cpu_image, tmp_path):
    wheels = tmp_path / "ctx"
    wheels.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--dest", str(wheels),
                    "transformers==5.10.2"], check=True, capture_output=True)
    wheel = next(wheels.glob("transformers-*.whl")).name
    (wheels / "Dockerfile").write_text(f"FROM {cpu_image.tags.final}\nCOPY {wheel} /tmp/\n"
                                       f"RUN pip install --no-index --no-deps /tmp/{wheel} && rm /tmp/{wheel}\n")
    reference = "verl-ascend:cpu-wrong-transformers"
    engine_client.images.build(path=str(wheels), tag=reference, network_mode="host", rm=True)
    try:
        outcome = smoke.run(engine_client, "cpu", reference, artifacts=tmp_path / "art", echo=False,
                            only="conformance.versions")
    finally:
        engine_client.images.remove(reference, force=True)
    assert not outcome.passed
    assert "transformers: transformers is 5.10.2, pinned 5.10.4" in outcome.results[0]["detail"]


def test_each_diagnostic_fails_alone(engine_client, cpu_image, tmp_path):
    container = engine_client.containers.run(cpu_image.tags.final, ["true"], detach=True, network_mode="none")
    container.wait()
    container.remove()
    outcome = smoke.SmokeRun("cpu", cpu_image.tags.final, tmp_path, exit_code=3, reason="test")
    text = smoke.write_diagnostics(outcome, container).read_text()
    assert "=== container state\n(unavailable: NotFound" in text
    assert "=== ls -l LOG\n(unavailable" not in text or "No such file" in text
    assert "=== exit code\n3" in text


def test_training_is_reproducible_against_the_committed_baseline(cpu_image):
    from conftest import run_build

    result = run_build("baseline", "cpu")
    assert result.returncode == 0, result.stderr
    assert "cpu.cpu.txt: unchanged" in result.stdout or "train.step_time_s" in result.stdout
    changed = [line for line in result.stdout.splitlines()
               if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert all("step_time" in line for line in changed), changed  # losses are bitwise reproducible
