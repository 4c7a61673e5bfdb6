"""The loss curve of each training check over its baseline's, as a PNG in the run's artifacts.

A training check leaves <check>.curve.json ({"run": {step: loss}, "baseline": {step: loss}, ...});
this draws <check>.loss.png from it, so a reviewer looks instead of reading numbers.
"""

from __future__ import annotations

import json
from pathlib import Path


def curves(data: dict) -> dict:
    """{"run": ([steps], [losses]), "baseline": ([steps], [losses])}, steps ascending; empty ones left out."""
    found = {}
    for which in ("run", "baseline"):
        points = sorted((int(step), float(loss)) for step, loss in data.get(which, {}).items())
        if points:
            found[which] = ([s for s, _ in points], [loss for _, loss in points])
    return found


def figure(data: dict):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 4), dpi=100)
    axes = fig.add_subplot()
    styles = {"run": {"marker": "o", "label": "this run"},
              "baseline": {"linestyle": "--", "marker": "x", "label": f"baseline ({data.get('baseline_file', '?')})"}}
    for which, (steps, losses) in curves(data).items():
        axes.plot(steps, losses, **styles[which])
    if "baseline" not in curves(data):
        axes.set_title(f"{data['check']}: no baseline to compare with")
    else:
        axes.set_title(f"{data['check']}: loss per step, verl's SFT trainer")
    axes.set_xlabel("step")
    axes.set_ylabel("loss (verl's file logger)")
    axes.legend()
    return fig


def write_loss_plots(directory: Path) -> list:
    """One <check>.loss.png per <check>.curve.json in a run's artifacts; returns the paths written."""
    written = []
    for path in sorted(directory.glob("*.curve.json")):
        data = json.loads(path.read_text())
        target = directory / f"{data['check']}.loss.png"
        figure(data).savefig(target, format="png")
        written.append(target)
    return written
