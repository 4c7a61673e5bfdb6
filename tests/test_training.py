"""The training checks' judging code, without torch: the baseline gate cannot pass on nothing, a run that
was not sound cannot become a baseline, the trainer's command line per device and check, the observer
that names verl's classes per step, and the host's loss plot and baseline refusal."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from image_pipeline.errors import UserError
from image_pipeline.smoke import baseline as host_baseline
from image_pipeline.smoke import plot, runner
from smoke_tests import logwait, metrics, sft_launch, train
from smoke_tests.plan import load_checks, select

from conftest import REPO

STEPS = sft_launch.SETTINGS["steps"]
RANKS = sft_launch.SETTINGS["ranks"]
MADE_WITH = {"verl": "v-a", "torch": "t-a", "device": "cpu x86_64"}
LOSSES = [round(6.9 - 0.7 * step, 4) for step in range(STEPS)]


def _pins_of(image):
    return json.loads((REPO / "images" / image / "pins.json").read_text())


def sound_run(check="train", device="cpu", losses=LOSSES, exit_code=0):
    engine = sft_launch.SETTINGS["checks"][check]["engine_class"][device]
    observed = [{"rank": rank, "step": step, "trainer": "SFTTrainer", "worker": "TrainingWorker", "engine": engine,
                 "calls": "train_batch,forward_backward_batch,optimizer_step", "seconds": "0.5"}
                for rank in range(RANKS) for step in range(1, STEPS + 1)]
    logged = {step: {"train/loss": loss, "train/global_tokens": 100} for step, loss in enumerate(losses, 1)}
    return train.TrainingRun(exit_code, logged, observed)


def full_baseline(check="train", scale=1.0, made_with=MADE_WITH, device="cpu") -> str:
    run = sound_run(check, device)
    values = {key: value * scale for key, value in metrics.baseline_keys(train.metrics_of(check, run)).items()}
    return metrics.baseline_text("cpu", "cpu", "amd64", metrics.Baseline(values, dict(made_with)))


def judge_with(tmp_path, text, check="train", perf_gate=False, run=None):
    path = tmp_path / "cpu.cpu.amd64.txt"
    if text is not None:
        path.write_text(text)
    values = train.metrics_of(check, run or sound_run(check))
    return train.judge(check, values, path, MADE_WITH, perf_gate)


# --- the baseline gate ---------------------------------------------------------------------------------------

def test_a_complete_baseline_passes(tmp_path):
    problems, notes = judge_with(tmp_path, full_baseline())
    assert problems == [] and notes == ["compared with cpu.cpu.amd64.txt"]


def test_a_missing_baseline_fails(tmp_path):
    problems, _ = judge_with(tmp_path, None)
    assert len(problems) == 1 and "no baseline cpu.cpu.amd64.txt" in problems[0]


@pytest.mark.parametrize("text", ["", "# smoke baseline for image cpu on cpu (amd64)\n",
                                  "# header\nmade_with.verl:v-a\nmade_with.torch:t-a\n"],
                         ids=["empty", "header-only", "versions-only"])
def test_a_baseline_without_the_runs_keys_fails_naming_every_one(tmp_path, text):
    problems, _ = judge_with(tmp_path, text)
    produced = metrics.baseline_keys(train.metrics_of("train", sound_run()))
    assert len(problems) == 1 and f"lacks {len(produced)} of the {len(produced)} keys" in problems[0]
    assert all(key in problems[0] for key in produced)


def test_a_partial_baseline_fails_and_names_the_missing_keys(tmp_path):
    problems, _ = judge_with(tmp_path, f"train.loss.step_01:{LOSSES[0]}\n")
    produced = metrics.baseline_keys(train.metrics_of("train", sound_run()))
    assert len(problems) == 1 and f"lacks {len(produced) - 1} of the {len(produced)} keys" in problems[0]
    assert "train.loss.step_01," not in problems[0] and "train.loss.step_02" in problems[0]
    assert "train.step_time_s.mean" in problems[0]  # perf keys must be there too, compared or not


def test_another_checks_keys_do_not_stand_in(tmp_path):
    megatron_only = full_baseline().replace("train.", "train.megatron.")
    problems, _ = judge_with(tmp_path, megatron_only)
    assert problems and "lacks" in problems[0]


def test_a_baseline_edited_by_ten_percent_fails(tmp_path):
    problems, _ = judge_with(tmp_path, full_baseline(scale=1.1))
    assert problems and all("vs baseline" in p for p in problems)
    assert len(problems) == STEPS  # every step's loss, not the step time (perf gate off)


def test_step_time_is_compared_only_with_the_perf_gate(tmp_path):
    slower = full_baseline().replace("train.step_time_s.mean:0.5", "train.step_time_s.mean:0.4")
    assert judge_with(tmp_path, slower)[0] == []
    problems, notes = judge_with(tmp_path, slower, perf_gate=True)
    assert any(p.startswith("baseline cpu.cpu.amd64.txt: train.step_time_s.mean:") for p in problems)
    assert "(perf gate on)" in notes[0]


def test_a_baseline_key_the_run_lacks_fails(tmp_path):
    extra = full_baseline() + f"train.loss.step_{STEPS + 1:02d}:0.5\n"
    problems, _ = judge_with(tmp_path, extra)
    assert problems == [f"baseline cpu.cpu.amd64.txt: missing from this run: train.loss.step_{STEPS + 1:02d}"]


def test_a_run_with_no_metrics_cannot_pass_a_baseline(tmp_path):
    problems, _ = judge_with(tmp_path, full_baseline(), run=train.TrainingRun(1))
    assert problems == ["baseline cpu.cpu.amd64.txt: train produced no metric a baseline could hold"]


def test_an_unreadable_baseline_fails_with_its_line(tmp_path):
    problems, _ = judge_with(tmp_path, "train.loss.step_01:six\n")
    assert problems == ["baseline cpu.cpu.amd64.txt: line 1: train.loss.step_01: 'six' is not a number"]


def test_other_versions_are_a_note_not_a_failure(tmp_path):
    older = full_baseline(made_with={**MADE_WITH, "verl": "v-old"})
    problems, notes = judge_with(tmp_path, older)
    assert problems == [] and notes[1:] == ["baseline made with verl v-old, this run has v-a"]


def test_baseline_keys_belong_to_their_check():
    assert metrics.owner("train.loss.step_01") == "train"
    assert metrics.owner("train.megatron.loss.step_01") == "train.megatron"
    assert metrics.owner("train.megatron.tokens_per_s.mean") == "train.megatron"
    assert metrics.owner("sync.collective.synthetic.gbps") is None


# --- the run itself ------------------------------------------------------------------------------------------

def test_a_sound_run_has_no_problems():
    assert train.run_problems("train", "cpu", sound_run()) == []
    assert train.run_problems("train.megatron", "npu", sound_run("train.megatron", "npu")) == []


def test_a_run_whose_loss_does_not_fall_fails():
    flat = sound_run(losses=[6.9] * STEPS)
    assert train.run_problems("train", "cpu", flat) == [
        "loss did not fall enough: 6.9000 -> 6.9000 (must reach <= 50%)"]


def test_a_trainer_that_exited_nonzero_fails():
    assert train.run_problems("train", "cpu", sound_run(exit_code=1)) == [
        "verl's trainer exited 1 (see train.verl.log)"]


def test_a_step_missing_on_one_rank_fails():
    run = sound_run()
    run.observed = [o for o in run.observed if not (o["rank"] == 1 and o["step"] == 3)]
    problems = train.run_problems("train", "cpu", run)
    assert len(problems) == 1 and problems[0].startswith("rank 1: verl did steps [1, 2, 4,")


def test_a_step_through_another_engine_or_without_an_optimizer_step_fails():
    run = sound_run()
    run.observed[2]["engine"] = "MegatronEngineWithLMHead"
    run.observed[3]["calls"] = "train_batch,forward_backward_batch"
    problems = train.run_problems("train", "cpu", run)
    assert len(problems) == 1 and problems[0].startswith("rank 0: steps [3, 4] were not SFTTrainer -> "
                                                         "FSDPEngineWithLMHead")


def test_a_step_verl_did_not_log_fails():
    run = sound_run()
    del run.logged[STEPS]
    assert f"verl logged the loss of steps {list(range(1, STEPS))}, not 1..{STEPS}" in \
        train.run_problems("train", "cpu", run)


def test_metrics_of_a_run_skip_the_warmup_steps():
    values = train.metrics_of("train", sound_run())
    assert [k for k in values if ".loss." in k] == [f"train.loss.step_{s:02d}" for s in range(1, STEPS + 1)]
    assert values["train.step_time_s.mean"] == 0.5
    assert values["train.tokens_per_s.mean"] == pytest.approx(100 / 0.5)


def test_only_a_sound_run_leaves_a_candidate_baseline(tmp_path):
    baseline = tmp_path / "cpu.cpu.amd64.txt"
    good = train.report("train", "cpu", "cpu", sound_run(), MADE_WITH, tmp_path, baseline)
    assert good.status == "FAIL" and "no baseline" in good.detail  # failed the baseline only
    candidate = metrics.parse_baseline((tmp_path / "train.baseline.txt").read_text())
    assert candidate.made_with == MADE_WITH and set(candidate.values) == set(
        metrics.baseline_keys(train.metrics_of("train", sound_run())))
    assert (tmp_path / "train.diagnostics.txt").exists() and (tmp_path / "train.curve.json").exists()

    bad = tmp_path / "bad"
    bad.mkdir()
    result = train.report("train", "cpu", "cpu", sound_run(losses=[6.9] * STEPS), MADE_WITH, bad, baseline)
    assert result.status == "FAIL" and not (bad / "train.baseline.txt").exists()


def test_a_run_matching_its_baseline_passes_and_leaves_no_diagnostics(tmp_path):
    baseline = tmp_path / "cpu.cpu.amd64.txt"
    baseline.write_text(full_baseline())
    result = train.report("train", "cpu", "cpu", sound_run(), MADE_WITH, tmp_path, baseline)
    assert result.status == "PASS", result.detail
    assert not (tmp_path / "train.diagnostics.txt").exists()
    assert json.loads((tmp_path / "train.curve.json").read_text())["baseline"] == {
        str(step): loss for step, loss in enumerate(LOSSES, 1)}


def test_the_suite_merges_the_candidates_of_its_training_checks(tmp_path):
    from smoke_tests.__main__ import write_baseline_candidate

    for check in ("train", "train.megatron"):
        (tmp_path / f"{check}.baseline.txt").write_text(full_baseline(check, device="npu"))
    write_baseline_candidate(tmp_path, {"image": "npu-a3", "device": "npu"})
    merged = metrics.parse_baseline((tmp_path / "baseline.txt").read_text())
    assert {metrics.owner(k) for k in merged.values} == {"train", "train.megatron"}
    assert merged.made_with == MADE_WITH


# --- how verl is started -------------------------------------------------------------------------------------

def test_train_starts_verls_sft_trainer_with_torchrun_on_two_ranks(tmp_path):
    launch = sft_launch.command("train", "cpu", tmp_path, 29511, tmp_path / "train.verl.jsonl", python="/v/bin/python")
    assert launch.argv[:7] == ("/v/bin/torchrun", "--nnodes=1", "--nproc_per_node=2", "--master_addr=127.0.0.1",
                               "--master_port=29511", "-m", "smoke_tests.observe")
    assert launch.argv[7] == "verl.trainer.sft_trainer" and launch.argv[8:] == launch.overrides
    assert f"model.path={tmp_path}/model" in launch.overrides and "trainer.device=cpu" in launch.overrides
    assert "engine.strategy=fsdp2" in launch.overrides and "optim.lr=0.0" not in launch.overrides
    assert launch.env["VERL_ENGINE_DEVICE"] == "cuda" and launch.env["PYTHONUNBUFFERED"] == "1"
    assert launch.env["VERL_FILE_LOGGER_PATH"] == str(tmp_path / "train.verl.jsonl")


def test_on_npu_verl_keeps_its_defaults(tmp_path):
    launch = sft_launch.command("train", "npu", tmp_path, 1, tmp_path / "log")
    assert "VERL_ENGINE_DEVICE" not in launch.env and "trainer.device=npu" in launch.overrides
    assert not any("attn_implementation" in o or "use_remove_padding" in o for o in launch.overrides)


def test_the_megatron_check_drives_verls_megatron_engine_with_tensor_parallel_1(tmp_path):
    launch = sft_launch.command("train.megatron", "npu", tmp_path, 1, tmp_path / "log")
    assert {"engine=megatron", "optim=megatron", "engine.tensor_model_parallel_size=1"} <= set(launch.overrides)
    assert "engine.strategy=fsdp2" not in launch.overrides and "VERL_ENGINE_DEVICE" not in launch.env
    assert launch.argv[7] == "verl.trainer.sft_trainer"
    with pytest.raises(KeyError, match="no engine class for device 'cpu'"):
        sft_launch.command("train.megatron", "cpu", tmp_path, 1, tmp_path / "log")


def test_no_learn_sets_a_learning_rate_of_zero_last(tmp_path):
    for check, device in (("train", "cpu"), ("train", "npu"), ("train.megatron", "npu")):
        assert sft_launch.overrides(check, device, tmp_path, no_learn=True)[-1] == "optim.lr=0.0"


def test_npu_images_select_the_megatron_check_and_the_cpu_image_does_not():
    checks = load_checks()
    for image in ("npu-a2", "npu-a3", "npu-sglang-a3"):
        pins = _pins_of(image)
        chosen = [c.name for c in select(checks, pins["device"], "", False, roles=pins["stack"])]
        assert {"train", "train.megatron"} <= set(chosen), image
    cpu = _pins_of("cpu")
    assert "train.megatron" not in [c.name for c in select(checks, "cpu", "train", False, roles=cpu["stack"])]
    with pytest.raises(ValueError, match="'train.megatron' does not apply"):
        select(checks, "cpu", "train.megatron", False, roles=cpu["stack"])


def test_every_training_check_is_in_the_training_table_and_fails_under_no_learn():
    table = json.loads((REPO / "smoke_tests/checks.json").read_text())
    runs = {c["name"] for c in table["checks"] if c["run"].startswith("smoke_tests.train:")}
    assert runs == set(sft_launch.checks())
    assert set(next(f for f in table["faults"] if f["name"] == "no-learn")["fails"]) == runs


# --- the observer --------------------------------------------------------------------------------------------

FAKE_VERL = {
    "verl/__init__.py": "",
    "verl/trainer/__init__.py": "",
    "verl/workers/__init__.py": "",
    "verl/workers/engine/__init__.py": "",
    "verl/workers/engine/fake.py": """
        class FakeEngineWithLMHead:
            def train_batch(self):
                self.forward_backward_batch()
                self.optimizer_step()
            def forward_backward_batch(self):
                pass
            def optimizer_step(self):
                pass
    """,
    "verl/workers/engine_workers.py": """
        from verl.workers.engine.fake import FakeEngineWithLMHead
        class TrainingWorker:
            engine = FakeEngineWithLMHead()
            def train_batch(self, skip_optimizer=False):
                if skip_optimizer:
                    self.engine.forward_backward_batch()
                else:
                    self.engine.train_batch()
    """,
    "verl/trainer/sft_trainer.py": """
        import sys
        from verl.workers.engine_workers import TrainingWorker
        class SFTTrainer:
            def __init__(self):
                self.worker = TrainingWorker()
                self.engine = self.worker.engine
            def fit(self, steps):
                for step in range(steps):
                    self.worker.train_batch(skip_optimizer=step == 2)
        if __name__ == "__main__":
            SFTTrainer().fit(int(sys.argv[1]))
    """,
}


def test_the_observer_names_the_classes_of_every_step(tmp_path):
    for name, text in FAKE_VERL.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    result = subprocess.run([sys.executable, "-m", "smoke_tests.observe", "verl.trainer.sft_trainer", "4"],
                            capture_output=True, text=True, cwd=tmp_path,
                            env=dict(os.environ, RANK="1", PYTHONPATH=f"{tmp_path}{os.pathsep}{REPO}"))
    assert result.returncode == 0, result.stderr
    assert "verl-observe rank=1 trainer=SFTTrainer engine=FakeEngineWithLMHead fit starts" in result.stdout
    observed = train.parse_observed(result.stdout)
    assert [(o["rank"], o["step"]) for o in observed] == [(1, 1), (1, 2), (1, 3), (1, 4)]
    assert {o["trainer"] for o in observed} == {"SFTTrainer"} and {o["worker"] for o in observed} == {"TrainingWorker"}
    assert observed[0]["engine"] == "FakeEngineWithLMHead"
    assert observed[0]["calls"] == "train_batch,forward_backward_batch,optimizer_step"
    assert observed[2]["calls"] == "forward_backward_batch"  # the step that skipped the optimizer shows it
    assert result.stdout.rstrip().endswith("verl-observe rank=1 done steps=4")


def test_observed_steps_are_found_behind_a_progress_bar():
    line = ("Epoch 1/1:  12%|#         | 1/8 [00:06<00:45,  6.57s/it]verl-observe rank=0 step=2 trainer=SFTTrainer "
            "worker=TrainingWorker engine=FSDPEngineWithLMHead calls=train_batch seconds=0.2")
    assert train.parse_observed(f"noise\n{line}\n") == [
        {"rank": 0, "step": 2, "trainer": "SFTTrainer", "worker": "TrainingWorker", "engine": "FSDPEngineWithLMHead",
         "calls": "train_batch", "seconds": "0.2"}]


def test_the_observer_fails_when_the_module_fails(tmp_path):
    (tmp_path / "boom.py").write_text("raise SystemExit(3)\n")
    result = subprocess.run([sys.executable, "-m", "smoke_tests.observe", "boom"], capture_output=True, text=True,
                            cwd=tmp_path, env=dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{REPO}"))
    assert result.returncode == 3 and "done steps=0" in result.stdout


# --- the log wait --------------------------------------------------------------------------------------------

class FakeClock:
    def __init__(self):
        self.now, self.sleeps = 0.0, []

    def time(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def test_the_wait_for_verls_log_is_bounded_and_polls(tmp_path):
    clock = FakeClock()
    (tmp_path / "empty.jsonl").write_text("")
    assert not logwait.wait_for_content(tmp_path / "empty.jsonl", sleep=clock.sleep, clock=clock.time)
    assert clock.sleeps == [logwait.POLL_S] * 6 and clock.now == logwait.CAP_S == 60


def test_diagnostics_show_the_last_4096_bytes_and_survive_a_missing_log(tmp_path):
    log = tmp_path / "train.verl.log"
    log.write_text("x" * 5000 + "THE END")
    text = logwait.describe(log)
    assert "=== wc -c train.verl.log\n5007" in text
    assert text.rstrip().endswith("x" * (4096 - 7) + "THE END")
    missing = logwait.describe(tmp_path / "train.verl.jsonl")
    assert missing.count("(unavailable: FileNotFoundError") == 3


# --- the host --------------------------------------------------------------------------------------------------

def _outcome(tmp_path, statuses, candidates=(), merged=True, exit_code=1):
    outcome = runner.SmokeRun("cpu", "ref", tmp_path, exit_code=exit_code,
                              results=[{"name": n, "status": s} for n, s in statuses.items()])
    for name in candidates:
        (tmp_path / f"{name}.baseline.txt").write_text("x")
    if merged:
        (tmp_path / "baseline.txt").write_text("merged\n")
    return outcome


def test_a_run_that_failed_only_its_baseline_comparison_becomes_the_baseline(tmp_path):
    outcome = _outcome(tmp_path, {"conformance.versions": "PASS", "train": "FAIL", "batch_invariance.cpu": "MEASURED"},
                       candidates=["train"])
    assert host_baseline.candidate_of(outcome) == "merged\n"


@pytest.mark.parametrize("statuses, candidates, words", [
    ({"conformance.versions": "FAIL", "train": "PASS"}, ["train"], "conformance.versions FAIL"),
    ({"train": "FAIL"}, [], "train FAIL"),
    ({"train": "NOT RUN"}, [], "train NOT RUN"),
    ({"sync.mooncake": "FAIL", "train": "FAIL"}, ["train"], "sync.mooncake FAIL"),
], ids=["other-check-failed", "training-run-unsound", "not-run", "sync-failed"])
def test_a_failing_run_cannot_become_a_baseline(tmp_path, statuses, candidates, words):
    with pytest.raises(UserError, match="the smoke suite failed") as caught:
        host_baseline.candidate_of(_outcome(tmp_path, statuses, candidates))
    assert words in caught.value.message


def test_an_unfinished_run_or_one_without_a_candidate_cannot_become_a_baseline(tmp_path):
    with pytest.raises(UserError, match="did not finish"):
        host_baseline.candidate_of(_outcome(tmp_path, {}, exit_code=None))
    passed = tmp_path / "passed"
    passed.mkdir()
    with pytest.raises(UserError, match="left no baseline.txt"):
        host_baseline.candidate_of(_outcome(passed, {"train": "PASS"}, merged=False, exit_code=0))


def test_the_host_plots_the_runs_loss_over_the_baselines(tmp_path):
    data = {"check": "train", "run": {"2": 5.0, "1": 6.0}, "baseline": {"1": 6.1, "2": 5.1}, "baseline_file": "b.txt"}
    (tmp_path / "train.curve.json").write_text(json.dumps(data))
    assert plot.curves(data) == {"run": ([1, 2], [6.0, 5.0]), "baseline": ([1, 2], [6.1, 5.1])}
    lines = plot.figure(data).axes[0].get_lines()
    assert [list(line.get_ydata()) for line in lines] == [[6.0, 5.0], [6.1, 5.1]]
    assert plot.write_loss_plots(tmp_path) == [tmp_path / "train.loss.png"]
    assert (tmp_path / "train.loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_diagnostics_carry_what_a_failed_check_left(tmp_path):
    class GoneContainer:
        attrs = {}

        def reload(self):
            raise RuntimeError("gone")

    (tmp_path / "train.diagnostics.txt").write_text("=== tail -c 4096 train.verl.log\nTraceback: boom\n")
    outcome = runner.SmokeRun("cpu", "ref", tmp_path, exit_code=1, reason="train FAIL")
    text = runner.write_diagnostics(outcome, GoneContainer()).read_text()
    assert "=== train.diagnostics.txt\n=== tail -c 4096 train.verl.log\nTraceback: boom" in text


def test_the_pr_body_shows_the_loss_and_a_baseline_made_with_other_versions(tmp_path):
    from image_pipeline.review import prbody

    data = {"check": "train", "run": {"1": 6.9, "8": 1.2}, "baseline": {"1": 6.9, "8": 1.25},
            "baseline_file": "cpu.cpu.amd64.txt", "made_with": {"verl": "v-new", "torch": "t"},
            "baseline_made_with": {"verl": "v-old", "torch": "t"}}
    (tmp_path / "train.curve.json").write_text(json.dumps(data))
    parts, notes = prbody._training(tmp_path)
    assert parts == ["`train` loss 6.900 -> 1.200 (baseline 1.250)"]
    assert len(notes) == 1 and "baseline cpu.cpu.amd64.txt was made with verl v-old, this run has v-new" in notes[0]


def test_the_no_learn_fault_of_a_run_reaches_the_trainers_command(tmp_path):
    from smoke_tests.outcome import CheckInput

    for faults, lr in (((), False), (("no-learn",), True)):
        launch = train.launch_of(CheckInput({"image": "cpu"}, faults=faults), "train", "cpu", tmp_path, tmp_path / "l")
        assert ("optim.lr=0.0" in launch.argv) is lr, faults
