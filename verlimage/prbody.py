"""`build.py pr-body`: the pull-request body a reviewer can act on, in Markdown."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from . import policy, rules
from .affected import Change

DIFF_LINES = 40


def body(root: Path, change: Change, artifacts: Path | None) -> str:
    pins = policy.changed_pins(change.base_manifest, change.manifest)
    parts = [_title(pins), _pin_table(pins), _why(pins), _rules(change), _images(change),
             _verification(root, change, artifacts)]
    return "\n\n".join(p for p in parts if p) + "\n"


def _title(pins) -> str:
    if not pins:
        return "## Image change (no pin changed)"
    names = ", ".join(f"{new.name} {old.summary if old else '(new)'} -> {new.summary}" for _, old, new in pins)
    return f"## Pin bump: {names}"


def _pin_table(pins) -> str:
    if not pins:
        return ""
    rows = ["| pin | old | new | source |", "|---|---|---|---|"]
    for name, old, new in pins:
        rows.append(f"| `{name}` | {old.summary if old else '-'} | {new.summary} | [{new.source}]({new.link}) |")
    return "\n".join(rows)


def _why(pins) -> str:
    if not pins:
        return ""
    lines = ["### Why"]
    for name, _, new in pins:
        issue = f" ([issue]({new.issue}))" if new.issue else ""
        lines.append(f"- **{name}**: {new.reason or '_no reason given_'}{issue}")
    return "\n".join(lines)


def _rules(change: Change) -> str:
    found = {rule_id for rule_id, _ in rules.violations(change.manifest)}
    lines = ["### Compatibility rules checked"]
    for rule_id, doc in rules.describe():
        lines.append(f"- [{' ' if rule_id in found else 'x'}] `{rule_id}`: {doc}")
    return "\n".join(lines)


def _images(change: Change) -> str:
    names = change.changed + change.added
    lines = ["### Affected images"]
    if not names and not change.removed:
        return "\n".join(lines + ["None: no image's Dockerfile, context or smoke tests changed."])
    lines += ["| image | device | CI runner | tag |", "|---|---|---|---|"]
    for name in names:
        img = change.manifest.images[name]
        lines.append(f"| `{name}`{' (new)' if name in change.added else ''} | {img.device} | {img.runner} | "
                     f"`{change.manifest.repository}:{img.human_tag}` |")
    for name in change.removed:
        lines.append(f"| `{name}` (removed) | | | |")
    for name in change.changed:
        dockerfile = Path("images") / name / "Dockerfile"
        old, new = change.base_outputs.get(dockerfile, ""), change.outputs[dockerfile]
        diff = list(difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{dockerfile}", f"b/{dockerfile}",
                                         lineterm="", n=1))
        if diff:
            shown = diff[:DIFF_LINES] + ([f"... {len(diff) - DIFF_LINES} more lines"] if len(diff) > DIFF_LINES else [])
            lines += [f"<details><summary>{dockerfile}</summary>", "", "```diff", *shown, "```", "</details>"]
    return "\n".join(lines)


def _verification(root: Path, change: Change, artifacts: Path | None) -> str:
    lines = ["### Verification"]
    pending = []
    for name in change.changed + change.added:
        image = change.manifest.images[name]
        run = _latest_run(artifacts, name) if artifacts else None
        if run is None:
            pending.append(f"- [ ] `{name}`: build and smoke-test on a `{image.runner}` runner "
                           f"(`make image IMAGE={name}`)")
            continue
        lines.append(_run_line(root, name, image, run))
    if pending:
        lines += ["", "Still to run:" if len(lines) > 1 else "No smoke artifacts yet. To run:", *pending]
    return "\n".join(lines)


def _latest_run(artifacts: Path, name: str):
    runs = sorted(p for p in (artifacts / name).glob("*") if (p / "results.json").exists()) \
        if (artifacts / name).is_dir() else []
    return runs[-1] if runs else None


def _run_line(root: Path, name: str, image, run: Path) -> str:
    from smoke_tests import metrics

    results = json.loads((run / "results.json").read_text())
    values = metrics.parse((run / "metrics.txt").read_text()) if (run / "metrics.txt").exists() else {}
    failed = [r["name"] for r in results if not r["passed"]]
    status = "FAIL (" + ", ".join(failed) + ")" if failed else "pass"
    parts = [f"- `{name}`: {status}, {len(results)} checks"]
    if "train.loss.last" in values:
        baseline = metrics.baseline_path(name, image.device, root / "smoke_tests" / "baselines")
        base = metrics.parse(baseline.read_text()).get("train.loss.last") if baseline.exists() else None
        parts.append(f"loss {values['train.loss.first']:.3f} -> {values['train.loss.last']:.3f}"
                     + (f" (baseline {base:.3f})" if base is not None else " (no baseline)"))
    for key, label in (("sync.nccl.synthetic.gbps", "nccl"), ("sync.mooncake.synthetic.gbps", "mooncake")):
        if key in values:
            parts.append(f"{label} {values[key]:.2f} GB/s")
    return ", ".join(parts)
