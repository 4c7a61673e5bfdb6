"""The smoke suite inside the built cpu image, and proof that it catches broken images and old verl."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from image_pipeline.builder import engine
from image_pipeline.smoke import runner

from conftest import REPO, manifest, run_build

pytestmark = pytest.mark.docker
CHECKS = json.loads((REPO / "smoke_tests/checks.json").read_text())
STEPS = json.loads((REPO / "smoke_tests/training.json").read_text())["steps"]
M = manifest()


def _run(engine_client, reference, tmp_path, **kwargs):
    return runner.run(engine_client, "cpu", reference, artifacts=tmp_path, echo=False, **kwargs)


@pytest.fixture(scope="module")
def baseline_run(cpu_image):
    """The whole suite, run once, the way a user checks that training still reproduces: `build.py baseline cpu`
    runs it in the promoted image and prints its table (with the run's artifacts directory), then the diff of
    the baseline it proposes against the committed one."""
    return run_build("baseline", "cpu")


@pytest.fixture(scope="module")
def full_run(baseline_run, cpu_image):
    printed = [line.removeprefix("artifacts: ") for line in baseline_run.stdout.splitlines()
               if line.startswith("artifacts: ")]
    assert len(printed) == 1, baseline_run.stdout[-3000:] + baseline_run.stderr
    outcome = runner.SmokeRun("cpu", cpu_image.tags.final, Path(printed[0]), exit_code=baseline_run.returncode)
    runner.collect(outcome)
    return outcome


def test_full_suite_passes_and_leaves_artifacts(full_run):
    assert full_run.passed, full_run.reason
    statuses = {r["name"]: r["status"] for r in full_run.results}
    expected = [c["name"] for c in CHECKS["checks"] if "cpu" in c.get("image_devices", ["cpu", "npu"]) and not c.get("optional")]
    assert list(statuses) == expected
    assert set(statuses.values()) == {"PASS", "MEASURED"}
    suite = ET.parse(full_run.directory / "junit.xml").getroot()
    assert suite.get("tests") == str(len(statuses)) and suite.get("failures") == "0"
    assert full_run.metrics["sync.collective.synthetic.gbps"] > 0 and full_run.metrics["sync.mooncake.synthetic.gbps"] > 0
    assert full_run.metrics[f"train.loss.step_{STEPS:02d}"] < full_run.metrics["train.loss.step_01"] / 2
    assert full_run.metrics["train.tokens_per_s.mean"] > 0
    assert (full_run.directory / "train.loss.png").read_bytes()[:4] == b"\x89PNG"
    assert "batch_invariance.cpu.bfloat16.max_abs_diff" in full_run.metrics
    assert not (full_run.directory / "diagnostics.txt").exists()
    assert json.loads((full_run.directory / "sbom.cdx.json").read_text())["bomFormat"] == "CycloneDX"  # the image's SBOM


def test_the_sync_checks_ran_verls_own_engines(full_run):
    details = {r["name"]: r["detail"] for r in full_run.results}
    verl = M.default_image.role("verl").version
    assert f"verl {verl} HCCLCheckpointEngine" in details["sync.collective"]
    assert f"verl {verl} MooncakeCheckpointEngine" in details["sync.mooncake"]
    log = (full_run.directory / "sync.mooncake.log").read_text()
    assert "send weights done" in log and "receive weights done" in log  # verl's own engine logging


def test_train_is_verls_trainer_and_engine_doing_every_step_on_two_ranks(full_run):
    from smoke_tests import train

    log = (full_run.directory / "train.log").read_text()
    assert "-m smoke_tests.observe verl.trainer.sft_trainer" in log and "--nproc_per_node=2" in log
    observed = train.parse_observed(log)
    assert sorted((o["rank"], o["step"]) for o in observed) == [(r, s) for r in (0, 1) for s in range(1, STEPS + 1)]
    assert {(o["trainer"], o["worker"], o["engine"]) for o in observed} == {
        ("SFTTrainer", "TrainingWorker", "FSDPEngineWithLMHead")}
    assert all({"forward_backward_batch", "optimizer_step"} <= set(o["calls"].split(",")) for o in observed)
    verl = M.default_image.role("verl").version
    assert f"made_with.verl:{verl}" in (full_run.directory / "baseline.txt").read_text()


def _applicable_to_cpu(names):
    return [n for n in names if "cpu" in next(c for c in CHECKS["checks"] if c["name"] == n).get("image_devices", ["cpu"])]


@pytest.mark.parametrize("fault", [f["name"] for f in CHECKS["faults"]])
def test_every_fault_fails_the_checks_it_targets(engine_client, cpu_image, tmp_path, fault):
    spec = next(f for f in CHECKS["faults"] if f["name"] == fault)
    targets = _applicable_to_cpu(spec["fails"])
    if not targets:
        pytest.skip(f"{fault} targets only NPU checks, which no cpu image runs; tests/test_runner_units.py runs them")
    outcome = _run(engine_client, cpu_image.tags.final, tmp_path, only=",".join(targets), faults=[fault],
                   env={"SMOKE_TIMEOUT_SCALE": "0.1"} if fault == "hang" else None)
    assert not outcome.passed
    for name in targets:
        assert outcome.status_of(name) == "FAIL", (name, outcome.results)
    if fault == "no-learn":
        result = next(r for r in outcome.results if r["name"] == "train")
        assert "loss did not fall enough" in result["detail"] and "vs baseline" in result["detail"]
        assert not (outcome.directory / "train.baseline.txt").exists()  # an unsound run proposes no baseline


def test_an_image_whose_pins_say_npu_fails_and_says_why(engine_client, cpu_image, tmp_path):
    pins = json.loads((REPO / "images/cpu/pins.json").read_text())
    pins["device"] = "npu"
    (tmp_path / "pins.json").write_text(json.dumps(pins))
    outcome = _run(engine_client, cpu_image.tags.final, tmp_path / "run", pins=tmp_path / "pins.json")
    assert not outcome.passed
    statuses = {r["name"]: r for r in outcome.results}
    assert statuses["train"]["status"] == "NOT RUN" and "no NPU in this container" in statuses["train"]["detail"]
    assert all(r["status"] != "PASS" for r in outcome.results if r["name"].startswith(("sync", "train")))
    assert "NOT RUN" in outcome.reason


def test_the_suite_passes_with_the_entrypoint_bypassed(engine_client, cpu_image, tmp_path):
    """A Kubernetes `command:` or `docker run --entrypoint python` gets the same environment."""
    outcome = _run(engine_client, cpu_image.tags.final, tmp_path, bypass_entrypoint=True,
                   only="conformance,train")
    assert outcome.passed, outcome.reason


def test_python_m_smoke_tests_works_from_the_default_working_directory(engine_client, cpu_image):
    listing = engine_client.containers.run(cpu_image.tags.final, ["python", "-m", "smoke_tests", "--list"],
                                           remove=True, network_mode="none").decode().split()
    assert listing == [c["name"] for c in CHECKS["checks"]]


def test_a_bad_fault_or_check_exits_2_before_any_container(engine_client, cpu_image):
    before = {c.id for c in engine_client.containers.list(all=True)}
    for args in (["--fault", "bogus"], ["--only", "nothere"]):
        result = run_build("smoke", "cpu", *args)
        assert result.returncode == 2 and result.stderr.startswith("error: --") and "\n" not in result.stderr.strip()
    # make test's other worker starts containers meanwhile: only one given these arguments is this test's
    started = [c for c in engine_client.containers.list(all=True) if c.id not in before]
    assert not [c for c in started if {"bogus", "nothere"} & set(c.attrs["Args"])]


def test_old_verl_fails_the_mooncake_sync_and_the_pinned_one_passes(engine_client, cpu_image, previous_verl_image,
                                                                   tmp_path, full_run):
    reference, version = previous_verl_image
    outcome = _run(engine_client, reference, tmp_path, only="sync.mooncake")
    result = {r["name"]: r for r in outcome.results}["sync.mooncake"]
    assert result["status"] == "FAIL" and "not bitwise equal" in result["detail"], result
    assert f"verl {version} MooncakeCheckpointEngine" in result["lines"][0]
    assert full_run.status_of("sync.mooncake") == "PASS"


def test_wrong_transformers_in_the_image_is_caught(engine_client, cpu_image, tmp_path):
    pinned = M.default_image.role("transformers").version
    older = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "transformers"], capture_output=True,
                           text=True).stdout
    other = next(v.strip() for v in older.split("versions:")[1].split(",") if v.strip() != pinned
                 and v.strip().split(".")[0] == pinned.split(".")[0])
    context = tmp_path / "ctx"
    context.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--dest", str(context),
                    f"transformers=={other}"], check=True, capture_output=True)
    wheel = next(context.glob("transformers-*.whl")).name
    (context / "Dockerfile").write_text(f"FROM {cpu_image.tags.final}\nCOPY {wheel} /tmp/\n"
                                        f"RUN pip install --no-index --no-deps /tmp/{wheel} && rm /tmp/{wheel}\n")
    reference = "verl-ascend:cpu-wrong-transformers"
    engine.build(context, reference, platform=engine.host_platform(), buildargs={}, labels={}, plain=True)
    try:
        outcome = _run(engine_client, reference, tmp_path / "art", only="conformance.versions")
    finally:
        engine_client.images.remove(reference, force=True)
    assert not outcome.passed
    assert f"transformers: transformers is {other}, pinned {pinned}" in outcome.results[0]["detail"]


def test_each_diagnostic_fails_alone(engine_client, cpu_image, tmp_path):
    container = engine_client.containers.run(cpu_image.tags.final, ["true"], detach=True, network_mode="none")
    container.wait()
    container.remove()
    outcome = runner.SmokeRun("cpu", cpu_image.tags.final, tmp_path, exit_code=3, reason="test")
    text = runner.write_diagnostics(outcome, container).read_text()
    assert "=== container state\n(unavailable: NotFound" in text
    assert "=== exit code\n3" in text and "npu-smi is not installed here" in text


def test_training_is_reproducible_against_the_committed_baseline(baseline_run):
    result = baseline_run
    assert result.returncode == 0, result.stderr
    changed = [line for line in result.stdout.splitlines()
               if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert all("step_time" in line or "tokens_per_s" in line for line in changed), changed  # losses reproduce
