"""Smoke training is verl's training: verl's own SFT trainer on the image's device, against a baseline.

Each training check (training.json) writes the tiny Qwen2 as a Hugging Face checkpoint and a parquet
dataset into a scratch directory (sft_inputs), starts verl's SFT trainer with torchrun on 2 ranks
(sft_launch), tees its console into <check>.verl.log, reads the loss curve from verl's file logger
(<check>.verl.jsonl, after a bounded wait) and judges two things:

  the run       the trainer exited 0; on every rank, every step went through the trainer and engine
                classes the table names (smoke_tests.observe lines in the console); verl logged every
                step's loss; the loss fell to LOSS_KEEP of its first value or less
  the baseline  every key the run produced is in the committed baseline and within its tolerance
                (smoke_tests.metrics); no baseline, or one lacking a key, fails

Only a run without run problems writes <check>.baseline.txt, the candidate `build.py baseline
--update` commits. A failed check leaves <check>.diagnostics.txt (ls -l, wc -c, tail -c 4096 of the
logs), which the host copies into the run's diagnostics.txt; <check>.curve.json is what the host
plots against the baseline.
"""

from __future__ import annotations

import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import logwait, metrics, sft_inputs, sft_launch
from .device import for_pins, stack_versions
from .outcome import judged

LOSS_KEEP = 0.5  # last loss <= 50% of the first: a model that does not learn fails
WARMUP_STEPS = 2  # left out of the step-time and throughput means
# anywhere in a line: tqdm's progress bar (stderr, no newline) often precedes it
OBSERVED = re.compile(re.escape("verl-observe") + r" rank=(?P<rank>\d+) step=(?P<step>\d+) (?P<fields>.*)$")


@dataclass
class TrainingRun:
    exit_code: int
    logged: dict = field(default_factory=dict)  # step -> what verl's file logger wrote for it
    observed: list = field(default_factory=list)  # one dict per observed step and rank

    def losses(self) -> dict:
        return {step: data["train/loss"] for step, data in sorted(self.logged.items()) if "train/loss" in data}


def check(ctx):
    return run_check(ctx, "train")


def megatron(ctx):
    return run_check(ctx, "train.megatron")


def launch_of(ctx, name: str, device: str, scratch: Path, file_log: Path) -> "sft_launch.Launch":
    """The trainer's command for this run: the faults asked for reach the launcher here."""
    return sft_launch.command(name, device, scratch, free_port(), file_log, no_learn="no-learn" in ctx.faults)


def run_check(ctx, name: str):
    device = for_pins(ctx.pins)  # on NPU: torch_npu imports and sees an NPU, or this raises
    artifacts = Path(ctx.artifacts)
    console, file_log = artifacts / f"{name}.verl.log", artifacts / f"{name}.verl.jsonl"
    with tempfile.TemporaryDirectory(prefix="verl-sft-") as scratch:
        sft_inputs.write(Path(scratch))
        launch = launch_of(ctx, name, device.kind, Path(scratch), file_log)
        print(f"$ {launch.shell()}", flush=True)
        exit_code = run_teed(launch, console, Path(scratch))
    if exit_code == 0:
        logwait.wait_for_content(file_log)
    run = TrainingRun(exit_code, parse_file_log(file_log), parse_observed(_read(console)))
    baseline = metrics.baseline_path(ctx.pins["image"], device.kind, metrics.this_arch())
    return report(name, ctx.pins["image"], device.kind, run, stack_versions(ctx.pins), artifacts, baseline,
                  perf_gate=os.environ.get("SMOKE_PERF_GATE") == "1")


def report(name: str, image: str, device: str, run: TrainingRun, made_with: dict, artifacts: Path, baseline: Path,
           perf_gate: bool = False):
    """Judge a finished run and leave its artifacts: the candidate baseline only when the run itself was sound."""
    values = metrics_of(name, run)
    problems = run_problems(name, device, run)
    baseline_problems, notes = judge(name, values, baseline, made_with, perf_gate)
    if not problems:
        candidate = metrics.Baseline(metrics.baseline_keys(values), made_with)
        (artifacts / f"{name}.baseline.txt").write_text(metrics.baseline_text(image, device, metrics.this_arch(),
                                                                              candidate))
    (artifacts / f"{name}.curve.json").write_text(json.dumps(curve(name, run, baseline, made_with), indent=1))
    if problems or baseline_problems:
        logs = (artifacts / f"{name}.verl.log", artifacts / f"{name}.verl.jsonl")
        (artifacts / f"{name}.diagnostics.txt").write_text("".join(f"--- {log.name}\n{logwait.describe(log)}"
                                                                   for log in logs))
    steps, outcome = summary(name, run)
    return judged(name, problems + baseline_problems, [*steps, *notes, *outcome], values)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_teed(launch, console: Path, cwd: Path) -> int:
    """Run the trainer, every line of its output into `console` and onto this check's log, as it comes."""
    with open(console, "w") as log:
        process = subprocess.Popen(launch.argv, env=sft_launch.environment(launch), cwd=cwd, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, errors="replace", bufsize=1)
        for line in process.stdout:
            log.write(line)
            log.flush()
            sys.stdout.write(line)
            sys.stdout.flush()
        return process.wait()


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def parse_file_log(path: Path) -> dict:
    """verl's FileLogger: one JSON object per line, {"step": N, "data": {metric: value}}."""
    logged = {}
    for line in _read(path).splitlines():
        if line.strip():
            record = json.loads(line)
            logged[int(record["step"])] = record["data"]
    return logged


def parse_observed(text: str) -> list:
    observed = []
    for line in text.splitlines():
        match = OBSERVED.search(line.strip())
        if match:
            fields = dict(item.split("=", 1) for item in match["fields"].split() if "=" in item)
            observed.append({"rank": int(match["rank"]), "step": int(match["step"]), **fields})
    return observed


def metrics_of(name: str, run: TrainingRun) -> dict:
    values = {f"{name}.loss.step_{step:02d}": loss for step, loss in run.losses().items()}
    timed = {o["step"]: float(o["seconds"]) for o in run.observed if o["rank"] == 0 and o["step"] > WARMUP_STEPS}
    if timed:
        values[f"{name}.step_time_s.mean"] = statistics.fmean(timed.values())
        tokens = sum(run.logged.get(step, {}).get("train/global_tokens", 0) for step in timed)
        values[f"{name}.tokens_per_s.mean"] = tokens / sum(timed.values())
    return values


def run_problems(name: str, device: str, run: TrainingRun) -> list:
    """What makes the run itself fail, whatever the baseline says."""
    settings = sft_launch.SETTINGS
    steps, ranks = settings["steps"], settings["ranks"]
    expected = settings["checks"][name]
    problems = [] if run.exit_code == 0 else [f"verl's trainer exited {run.exit_code} (see {name}.verl.log)"]
    losses = run.losses()
    if sorted(losses) != list(range(1, steps + 1)):
        problems.append(f"verl logged the loss of steps {sorted(losses) or 'none'}, not 1..{steps}")
    for rank in range(ranks):
        problems += _rank_problems(rank, steps, expected["trainer_class"], expected["engine_class"][device],
                                   [o for o in run.observed if o["rank"] == rank])
    if losses and not losses[max(losses)] <= LOSS_KEEP * losses[min(losses)]:
        first, last = losses[min(losses)], losses[max(losses)]
        problems.append(f"loss did not fall enough: {first:.4f} -> {last:.4f} (must reach <= {LOSS_KEEP:.0%})")
    return problems


def _rank_problems(rank: int, steps: int, trainer: str, engine: str, observed: list) -> list:
    if [o["step"] for o in observed] != list(range(1, steps + 1)):
        return [f"rank {rank}: verl did steps {[o['step'] for o in observed] or 'none'}, not 1..{steps}"]
    wrong = [o["step"] for o in observed
             if o.get("trainer") != trainer or o.get("engine") != engine
             or not {"forward_backward_batch", "optimizer_step"} <= set(o.get("calls", "").split(","))]
    if wrong:
        sample = observed[wrong[0] - 1]
        return [f"rank {rank}: steps {wrong} were not {trainer} -> {engine} forward_backward_batch + optimizer_step "
                f"(step {sample['step']}: trainer {sample.get('trainer')}, engine {sample.get('engine')}, "
                f"calls {sample.get('calls')})"]
    return []


def judge(name: str, values: dict, path: Path, made_with: dict, perf_gate: bool = False) -> tuple:
    """(problems, notes) of the baseline comparison; a missing, unreadable or incomplete baseline is a problem."""
    update = "`python build.py baseline IMAGE --platform linux/ARCH --update` on it (README: first run on a device)"
    if not path.exists():
        return [f"no baseline {path.name} for this device: run {update} and commit the file"], []
    try:
        baseline = metrics.parse_baseline(path.read_text())
    except ValueError as exc:
        return [f"baseline {path.name}: {exc}"], []
    problems = [f"baseline {path.name}: {p}" for p in metrics.compare(baseline, name, values, perf_gate)]
    notes = [f"compared with {path.name}" + (" (perf gate on)" if perf_gate else ""),
             *metrics.made_with_notes(baseline, made_with)]
    return problems, notes


def summary(name: str, run: TrainingRun) -> tuple:
    """(one line per observed step and rank, the loss line: the detail of a passing check)."""
    losses = run.losses()
    steps = [f"rank {o['rank']} step {o['step']}: {o.get('trainer')} -> {o.get('worker')} -> {o.get('engine')} "
             f"({o.get('calls')}) {float(o.get('seconds', 0)):.3f} s"
             for o in sorted(run.observed, key=lambda o: (o["rank"], o["step"]))]
    outcome = [f"verl's SFT trainer, {len({o['rank'] for o in run.observed})} ranks: loss {losses[min(losses)]:.4f} -> "
               f"{losses[max(losses)]:.4f} in {len(losses)} steps"] if losses else []
    return steps, outcome


def curve(name: str, run: TrainingRun, path: Path, made_with: dict) -> dict:
    try:
        baseline = metrics.parse_baseline(path.read_text())
    except (OSError, ValueError):  # judge() reports it; the plot shows the run alone
        baseline = metrics.Baseline()
    prefix = f"{name}.loss.step_"
    return {"check": name, "run": run.losses(), "baseline_file": path.name, "made_with": made_with,
            "baseline_made_with": baseline.made_with,
            "baseline": {int(key[len(prefix):]): value for key, value in baseline.values.items()
                         if key.startswith(prefix) and key[len(prefix):].isdigit()}}
