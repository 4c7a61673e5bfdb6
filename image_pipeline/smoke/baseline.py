"""`build.py baseline`: a training baseline comes only from a run whose suite passed, but for the
baseline comparison itself.

The suite writes baseline.txt, merged from the <check>.baseline.txt of each training check whose run
was sound (trainer exited 0, every step on every rank through the expected classes, the loss fell);
a training check that failed only its baseline comparison still writes one. So a run can become a
baseline when every check passed, except training checks that failed and left a candidate.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UserError
from ..paths import SMOKE

if TYPE_CHECKING:
    from .runner import SmokeRun

CANDIDATE = "baseline.txt"
GOOD = ("PASS", "MEASURED")


def check_committed(manifest, root: Path) -> int:
    """Every committed baseline (smoke_tests/baselines/*.txt) parses strictly, was made on the device and
    architecture its name says, and (for an image pins.yaml has) on that image's device; the count, or
    UserError naming the file and line."""
    metrics = _suite_metrics(root)
    files = sorted((root / SMOKE / "baselines").glob("*"))
    for path in files:
        try:
            metrics.check_baseline_file(path)
        except ValueError as exc:
            where = re.match(r"line (\d+): (.*)", str(exc))
            raise UserError(where[2] if where else str(exc), file=str(path.relative_to(root)),
                            line=int(where[1]) if where else None) from None
        name, device, arch = path.name[:-len(".txt")].rsplit(".", 2)
        image = manifest.images.get(name)  # a baseline of an image (or platform) pins.yaml no longer has is only parsed
        if image is not None and image.device != device:
            raise UserError(f"image {name!r} is a {image.device} image: no baseline on {device} for {arch}",
                            file=str(path.relative_to(root)))
    return len(files)


def _suite_metrics(root: Path):
    """The tree's own smoke_tests/metrics.py, the reader the suite compares with inside the image: a
    baseline the host accepts is one the image reads alike (loaded from the file, as checks.json is
    read: the host package does not import the in-image suite)."""
    import importlib.util

    import sys

    name = f"_suite_metrics_{abs(hash(str(root)))}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, root / SMOKE / "metrics.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    return sys.modules[name]


def require_image_of(labels: dict, reference: str, image, platform: str) -> None:
    """A baseline is written for NAME on PLATFORM only from an image labelled as NAME's build for PLATFORM."""
    import json

    from ..builder.image_config import PINS_LABEL, PLATFORM_LABEL

    try:
        named = json.loads(labels.get(PINS_LABEL) or "{}").get("image")
    except (ValueError, AttributeError):
        named = None
    if named != image.name or labels.get(PLATFORM_LABEL) != platform:
        raise UserError(f"{reference} is labelled image {named!r} for {labels.get(PLATFORM_LABEL)!r}, not {image.name} "
                        f"for {platform}: a baseline comes only from the image it is the baseline of", key="--tag")


def candidate_of(outcome: "SmokeRun") -> str:
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


def _only_baseline_failed(outcome: "SmokeRun", result: dict) -> bool:
    return result["status"] == "FAIL" and (outcome.directory / f"{result['name']}.baseline.txt").exists()
