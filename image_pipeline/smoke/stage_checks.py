"""The smoke suite split into the two CI stages of an image and platform.

build:  the checks that need no device (`"needs_device": false` in smoke_tests/checks.json), run on the
        hosted runner that built the candidate;
device: the checks that need the image's device, run on the runner pins.yaml names for it.
Both come from the suite's own table, read here as the suite reads it inside the image (a check
applies to the image's device and stack roles; optional ones run only when asked for), so a check
added to checks.json lands in its stage without a change here.
"""

from __future__ import annotations

import json

from ..errors import UserError
from .runner import CHECKS_FILE

STAGES = ("build", "device")


def checks_of(image, stage: str) -> list:
    """Names of the checks the stage runs for the image, in run order (optional checks left out)."""
    if stage not in STAGES:
        raise UserError(f"unknown stage {stage!r} (stages: {', '.join(STAGES)})", key="--stage")
    roles = set(image.stack)
    return [check["name"] for check in json.loads(CHECKS_FILE.read_text())["checks"]
            if image.device in check.get("image_devices", ("cpu", "npu")) and set(check.get("roles", ())) <= roles
            and not check.get("optional") and check["needs_device"] == (stage == "device")]


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
