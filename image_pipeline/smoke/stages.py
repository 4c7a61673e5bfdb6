"""The smoke suite split into the two CI stages of an image and platform.

build:  the checks that need no device (`"device": false` in smoke_tests/checks.json), run on the
        hosted runner that built the candidate;
device: the checks that need the image's device, run on the runner pins.yaml names for it.
Both come from the suite's own table and selection (smoke_tests/plan.py, the very code the suite
runs inside the image), so a check added to checks.json lands in its stage without a change here.
"""

from __future__ import annotations

from ..errors import UserError

STAGES = ("build", "device")


def checks_of(image, stage: str) -> list:
    """Names of the checks the stage runs for the image, in run order (optional checks left out)."""
    from smoke_tests.plan import load_checks, select

    if stage not in STAGES:
        raise UserError(f"unknown stage {stage!r} (stages: {', '.join(STAGES)})", key="--stage")
    chosen = select(load_checks(), image.device, "", extended=False, roles=tuple(image.stack))
    return [check.name for check in chosen if check.device == (stage == "device")]


def only_for(image, stage: str) -> str:
    """The suite's --only value for a stage."""
    return ",".join(checks_of(image, stage))


def judge(outcome, image, stage: str) -> None:
    """A stage passes only when the suite ran exactly the stage's checks (--only selects by prefix, so a
    check of the other stage whose name extends one of these would otherwise ride along)."""
    want, ran = checks_of(image, stage), [r["name"] for r in outcome.results]
    if outcome.passed and sorted(ran) != sorted(want):
        outcome.passed = False
        outcome.reason = f"the {stage} stage ran {', '.join(ran) or 'nothing'}, not its checks {', '.join(want)}"
