"""`build.py baseline`: a training baseline comes only from a run whose suite passed, but for the
baseline comparison itself.

The suite writes baseline.txt, merged from the <check>.baseline.txt of each training check whose run
was sound (trainer exited 0, every step on every rank through the expected classes, the loss fell);
a training check that failed only its baseline comparison still writes one. So a run can become a
baseline when every check passed, except training checks that failed and left a candidate.
"""

from __future__ import annotations

from ..errors import UserError
from .runner import SmokeRun

CANDIDATE = "baseline.txt"
GOOD = ("PASS", "MEASURED")


def candidate_of(outcome: SmokeRun) -> str:
    """The baseline text a run proposes, or UserError naming what failed."""
    if outcome.exit_code is None or not outcome.results:
        raise UserError(f"the smoke suite did not finish ({outcome.reason}): no baseline; see {outcome.directory}")
    blocking = [f"{r['name']} {r['status']}" for r in outcome.results
                if r["status"] not in GOOD and not _only_baseline_failed(outcome, r)]
    if blocking:
        raise UserError(f"the smoke suite failed ({', '.join(blocking)}): a baseline comes only from a run that "
                        f"passes everything but the baseline comparison; see {outcome.directory}")
    path = outcome.directory / CANDIDATE
    if not path.exists():
        raise UserError(f"the run left no {CANDIDATE} (no training check ran?); see {outcome.directory}")
    return path.read_text()


def _only_baseline_failed(outcome: SmokeRun, result: dict) -> bool:
    return result["status"] == "FAIL" and (outcome.directory / f"{result['name']}.baseline.txt").exists()
