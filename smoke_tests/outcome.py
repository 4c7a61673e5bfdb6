"""What a check reports: PASS, FAIL, NOT RUN (its device is absent) or MEASURED (a figure)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Result:
    name: str
    status: str  # PASS | FAIL | NOT RUN | MEASURED
    detail: str = ""
    lines: list = field(default_factory=list)
    metrics: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.status in ("PASS", "MEASURED")

    def as_dict(self):
        return asdict(self)


@dataclass(frozen=True)
class CheckInput:
    """What every check gets: the image's pins (pins.json), the faults to inject, and where the
    run's artifacts go."""
    pins: dict
    faults: tuple = ()
    artifacts: str = "/artifacts"


def judged(name: str, problems: list, lines: list, metrics: dict | None = None) -> Result:
    detail = "; ".join(problems) if problems else (lines[-1] if lines else "ok")
    return Result(name, "FAIL" if problems else "PASS", detail, list(lines), metrics or {})


def measured(name: str, lines: list, metrics: dict) -> Result:
    return Result(name, "MEASURED", lines[-1] if lines else "", list(lines), metrics)
