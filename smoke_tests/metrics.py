"""`key:value` metrics, per-image baselines and the tolerances they are compared with.

A run writes metrics.txt (one `key:value` per line). A baseline holds every key a training
check produces (`<check>.loss.step_NN`, `<check>.step_time_s.mean`, `<check>.tokens_per_s.mean`)
and the versions it was made with (`made_with.<what>:<version>`), in
smoke_tests/baselines/<image>.<device>.<arch>.txt; `python build.py baseline IMAGE [--platform P]
--update` regenerates it from a run whose suite passed but for the baseline comparison.
A baseline that lacks a key the run produced fails the run: it cannot pass on nothing.
Importing this needs no torch (the host reads baselines with it too).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

BASELINE_DIR = Path(__file__).resolve().parent / "baselines"
MADE_WITH = "made_with."
MADE_WITH_KEYS = ("device", "torch", "verl")  # what train.py records of the run a baseline came from
CANDIDATE = "baseline.txt"  # the suite's merge of its training checks' <check>.baseline.txt
ARCH = {"x86_64": "amd64", "aarch64": "arm64"}


@dataclass(frozen=True)
class Tolerance:
    metric: str  # regular expression over the part of the key after "<check>."
    absolute: float = 0.0
    relative: float = 0.0
    perf: bool = False  # compared only when the perf gate is on (SMOKE_PERF_GATE=1)

    def allows(self, want: float, got: float) -> bool:
        return abs(got - want) <= max(self.absolute, self.relative * abs(want))

    def describe(self) -> str:
        return f"±{self.absolute:g}" if self.absolute else f"±{self.relative:.0%}"


# Loss: deterministic on one machine, a little ISA-dependent across machines. Time: only on the
# machine the baseline was made on, hence behind the perf gate.
TOLERANCES = (
    Tolerance(r"loss\.step_\d+", absolute=0.05),
    Tolerance(r"step_time_s\.mean", relative=0.05, perf=True),
    Tolerance(r"tokens_per_s\.mean", relative=0.05, perf=True),
)
KEY = re.compile(r"^(?P<check>[a-z_][a-z0-9_.]*?)\.(?P<metric>" + "|".join(t.metric for t in TOLERANCES) + r")$")


@dataclass
class Baseline:
    values: dict = field(default_factory=dict)
    made_with: dict = field(default_factory=dict)


def tolerance_of(key: str) -> Tolerance:
    match = KEY.match(key)
    if not match:
        raise KeyError(f"{key}: no tolerance for this metric")
    return next(t for t in TOLERANCES if re.fullmatch(t.metric, match["metric"]))


def owner(key: str) -> str | None:
    """The check a baseline key belongs to (train.megatron.loss.step_01 -> train.megatron)."""
    match = KEY.match(key)
    return match["check"] if match else None


def parse(text: str) -> dict:
    """metrics.txt: `key:value` per line, values numbers; blank lines and # comments skipped."""
    values = {}
    for number, key, value in _pairs(text):
        if not key.startswith(MADE_WITH):
            values[key] = _number(number, key, value)
    return values


def parse_baseline(text: str) -> Baseline:
    """A baseline file, strictly: every key once, each a metric with a tolerance or a made_with entry
    (MADE_WITH_KEYS), every value a finite number (an `inf` would turn its comparison off)."""
    baseline, seen = Baseline(), set()
    for number, key, value in _pairs(text):
        if key in seen:
            raise ValueError(f"line {number}: {key}: a second value (each key once)")
        seen.add(key)
        if key.startswith(MADE_WITH):
            if key[len(MADE_WITH):] not in MADE_WITH_KEYS:
                raise ValueError(f"line {number}: {key}: unknown (made_with holds {', '.join(MADE_WITH_KEYS)})")
            baseline.made_with[key[len(MADE_WITH):]] = value
        elif owner(key) is None:
            raise ValueError(f"line {number}: {key}: no metric of that name has a tolerance")
        else:
            baseline.values[key] = _number(number, key, value)
    return baseline


def check_baseline_file(path: Path) -> Baseline:
    """A committed baseline: parsed strictly, and its name's device and architecture the ones it was made on."""
    match = re.fullmatch(r"(?P<image>[a-z0-9][a-z0-9_.-]*?)\.(?P<device>cpu|npu)\.(?P<arch>amd64|arm64)\.txt", path.name)
    if not match:
        raise ValueError("not <image>.<device>.<arch>.txt (device cpu or npu, arch amd64 or arm64)")
    baseline = parse_baseline(path.read_text())
    made_on = baseline.made_with.get("device", "").replace(",", " ").split()
    if made_on[:1] != [match["device"]]:
        raise ValueError(f"made_with.device is {baseline.made_with.get('device', '')!r}: made on another device "
                         f"than {match['device']}")
    machines = [ARCH[word] for word in made_on if word in ARCH]
    if any(arch != match["arch"] for arch in machines):
        raise ValueError(f"made_with.device is {baseline.made_with.get('device')!r}: made on {machines[0]}, named "
                         f"{match['arch']}")
    return baseline


def _pairs(text: str):
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"line {number}: expected key:value, got {line!r}")
        yield number, key.strip(), value.strip()


def _number(number: int, key: str, value: str) -> float:
    try:
        parsed = float(value)
    except ValueError:
        raise ValueError(f"line {number}: {key}: {value!r} is not a number") from None
    if not math.isfinite(parsed):
        raise ValueError(f"line {number}: {key}: {value!r} is not a finite number")
    return parsed


def format_lines(values: dict) -> str:
    return "".join(f"{key}:{value:.6g}\n" for key, value in values.items())


def baseline_path(image: str, device: str, arch: str, directory: Path = BASELINE_DIR) -> Path:
    return directory / f"{image}.{device}.{arch}.txt"


def baseline_text(image: str, device: str, arch: str, baseline: Baseline) -> str:
    header = (f"# smoke baseline for image {image} on {device} ({arch}); regenerate with "
              f"`python build.py baseline {image} --platform linux/{arch} --update`\n")
    made_with = "".join(f"{MADE_WITH}{what}:{version}\n" for what, version in sorted(baseline.made_with.items()))
    return header + made_with + format_lines(dict(sorted(baseline.values.items())))


def this_arch() -> str:
    import platform

    return ARCH[platform.machine()]


def merge_candidates(image: str, device: str, arch: str, texts: list) -> str:
    """One baseline from the candidates of several training checks (each holds only its own keys)."""
    merged = Baseline()
    for text in texts:
        candidate = parse_baseline(text)
        merged.values.update(candidate.values)
        merged.made_with.update(candidate.made_with)
    return baseline_text(image, device, arch, merged)


def baseline_keys(values: dict) -> dict:
    """The metrics of a run that a baseline holds (those with a tolerance)."""
    return {key: value for key, value in values.items() if owner(key) is not None}


def compare(baseline: Baseline, check: str, produced: dict, perf_gate: bool) -> list:
    """Lines describing what fails: keys the baseline lacks, keys the run lacks, values out of tolerance."""
    produced = baseline_keys(produced)
    if not produced:
        return [f"{check} produced no metric a baseline could hold"]
    problems = []
    lacking = [key for key in produced if key not in baseline.values]
    if lacking:
        problems.append(f"the baseline lacks {len(lacking)} of the {len(produced)} keys {check} produced: "
                        + ", ".join(lacking))
    unproduced = [key for key in baseline.values if owner(key) == check and key not in produced]
    if unproduced:
        problems.append("missing from this run: " + ", ".join(unproduced))
    for key, got in produced.items():
        tolerance = tolerance_of(key)
        if key not in baseline.values or (tolerance.perf and not perf_gate):
            continue
        want = baseline.values[key]
        if not tolerance.allows(want, got):
            problems.append(f"{key}: {got:.4f} vs baseline {want:.4f} (tolerance {tolerance.describe()})")
    return problems


def made_with_notes(baseline: Baseline, run: dict) -> list:
    """One note per version that differs between the baseline and this run (a note, not a failure)."""
    return [f"baseline made with {what} {baseline.made_with.get(what, '(unrecorded)')}, this run has {version}"
            for what, version in sorted(run.items()) if baseline.made_with.get(what) != version]
