"""`key:value` metrics, per-image baselines and the tolerances they are compared with.

A run writes metrics.txt (one `key:value` per line). A baseline is the same format,
holding the keys below, in smoke_tests/baselines/<image>.<device>.<arch>.txt; it is
regenerated from a run with `python build.py baseline IMAGE [--platform P] --update`.
Importing this needs no torch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BASELINE_DIR = Path(__file__).resolve().parent / "baselines"


@dataclass(frozen=True)
class Tolerance:
    key: str
    absolute: float = 0.0
    relative: float = 0.0
    perf: bool = False  # compared only when the perf gate is on (SMOKE_PERF_GATE=1)

    def allows(self, want: float, got: float) -> bool:
        return abs(got - want) <= max(self.absolute, self.relative * abs(want))

    def describe(self) -> str:
        return f"±{self.absolute:g}" if self.absolute else f"±{self.relative:.0%}"


# Loss: deterministic on one machine, a little ISA-dependent across machines.
TOLERANCES = (
    Tolerance("train.loss.first", absolute=0.05),
    Tolerance("train.loss.last", absolute=0.05),
    Tolerance("train.loss.mean_05_14", absolute=0.05),
    Tolerance("train.step_time_s.mean_05_14", relative=0.05, perf=True),
)


def parse(text: str) -> dict:
    values = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise ValueError(f"line {number}: expected key:value, got {line!r}")
        values[key.strip()] = float(value)
    return values


def format_lines(values: dict) -> str:
    return "".join(f"{key}:{value:.6g}\n" for key, value in values.items())


def baseline_path(image: str, device: str, arch: str, directory: Path = BASELINE_DIR) -> Path:
    return directory / f"{image}.{device}.{arch}.txt"


def baseline_text(image: str, device: str, arch: str, metrics: dict) -> str:
    header = (f"# smoke baseline for image {image} on {device} ({arch}); regenerate with "
              f"`python build.py baseline {image} --platform linux/{arch} --update`\n")
    return header + format_lines({t.key: metrics[t.key] for t in TOLERANCES if t.key in metrics})


def compare(baseline: dict, metrics: dict, perf_gate: bool) -> list:
    """Lines describing each metric outside its tolerance (empty: within baseline)."""
    problems = []
    for tol in TOLERANCES:
        if tol.perf and not perf_gate:
            continue
        if tol.key not in baseline:
            continue
        if tol.key not in metrics:
            problems.append(f"{tol.key}: missing from this run")
        elif not tol.allows(baseline[tol.key], metrics[tol.key]):
            problems.append(f"{tol.key}: {metrics[tol.key]:.4f} vs baseline {baseline[tol.key]:.4f} "
                            f"(tolerance {tol.describe()})")
    return problems
