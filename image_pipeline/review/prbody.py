"""`build.py pr-body`: the pull-request body a reviewer can act on, in Markdown.

What changed (pins, old -> new, with links), why (reasons, issues, deliberate deviations),
what it did to the locks (per image and platform: packages added, removed, or changed in version, kind
or file size, and dependency edges that appeared or vanished), what the
lock could not resolve here (externals), the rules checked, the affected images with their
Dockerfile diff, and how it was verified (smoke results and verl's own tests from the CI
artifacts: each platform's build and device stage), the checklist of stages still owed (device stages
need the runner pins.yaml names), and the platforms whose device checks pins.yaml waives.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import tables
from ..builder.inputs import tree_digest
from ..errors import UserError
from ..lock import family, lockfile
from ..manifest import rules
from ..manifest.model import arch_of
from ..render import readme
from ..smoke import plot
from ..smoke.runner import parse_metrics
from . import policy, stale_text
from .affected import Change

DIFF_LINES = 40
LOCK_LINES = 25


def body(root: Path, change: Change, artifacts: Path | None) -> str:
    pins = policy.changed_pins(change.base_manifest, change.manifest)
    parts = [_title(pins), _pin_table(pins), _why(pins, change.manifest), _locks(root, change),
             _externals(root, change), _rules(change), _images(change), _verification(root, change, artifacts)]
    return "\n\n".join(p for p in parts if p) + "\n"


def _title(pins) -> str:
    if not pins:
        return "## Image change (no pin changed)"
    names = ", ".join(f"{new.name} {old.summary if old else '(new)'} -> {new.summary}" for _, old, new in pins)
    return f"## Pin bump: {names}"


def _pin_table(pins) -> str:
    if not pins:
        return ""
    rows = [[f"`{name}`", old.summary if old else "-", new.summary, f"[{new.source}]({new.link})"]
            for name, old, new in pins]
    return tables.markdown(["pin", "old", "new", "source"], rows)


def _why(pins, manifest) -> str:
    if not pins:
        return ""
    lines = ["### Why"]
    for name, _, new in pins:
        issue = f" ([issue]({new.get('issue')}))" if new.get("issue") else ""
        lines.append(f"- **{name}**: {new.get('reason') or '_no reason given_'}{issue}")
        for dist, why in (new.get("wins_over") or {}).items():
            lines.append(f"  - deliberate deviation (wins over what {dist} requires): {why}")
        for key, label in (("cpu_stand_in", "the cpu stand-in holds another release"), ("external", "not resolved here")):
            if new.get(key):
                lines.append(f"  - deliberate deviation ({label}): {new.get(key)}")
        if new.get("build"):
            lines.append(f"  - built from source with: {_build_settings(new.get('build'))}")
        if new.get(stale_text.KEEP):
            lines.append(f"  - text naming the previous release kept: {new.get(stale_text.KEEP)}")
    return "\n".join(lines)


def _build_settings(build: dict) -> str:
    """A declared source build as a reviewer checks it: env, the SoC variable, pip options, build requirements."""
    said = [f"{key}={value}" for key, value in sorted((build.get("env") or {}).items())]
    said += [f"{build['soc_env']}=<the image's SoC>"] if build.get("soc_env") else []
    said += [f"pip {' '.join(build['pip'])}"] if build.get("pip") else []
    said += [f"requires {', '.join(build['requires'])}"] if build.get("requires") else []
    return "; ".join(f"`{s}`" for s in said) or "pip's defaults (no settings declared)"


def _lock_delta(old, new) -> list:
    """One line per package added, removed, or changed in version, kind (wheel/sdist) or file size, then
    one per dependency edge (`requirer -> package`) that appeared or vanished."""
    before = old.by_name() if old else {}
    after = new.by_name()
    lines = [f"+ {n} {after[n].version} ({_file(after[n])})" for n in sorted(set(after) - set(before))]
    lines += [f"- {n} {before[n].version}" for n in sorted(set(before) - set(after))]
    lines += [_moved(before[n], after[n]) for n in sorted(set(after) & set(before)) if _moved(before[n], after[n])]
    edges_before, edges_after = _edges(before.values()), _edges(after.values())
    lines += [f"+ edge {a} -> {b}" for a, b in sorted(edges_after - edges_before)]
    lines += [f"- edge {a} -> {b}" for a, b in sorted(edges_before - edges_after)]
    return lines


def _moved(old, new) -> str:
    """`~ name old -> new [kind -> kind] (size delta)`, or "" when the package did not change."""
    notes = []
    if old.artifact.kind != new.artifact.kind:
        notes.append(f"{old.artifact.kind} -> {new.artifact.kind}: {old.artifact.name} -> {new.artifact.name}")
    if (old.artifact.size or 0) != (new.artifact.size or 0):
        notes.append(f"file {_signed_mb((new.artifact.size or 0) - (old.artifact.size or 0))}")
    if old.version == new.version and not notes:
        return ""
    version = old.version if old.version == new.version else f"{old.version} -> {new.version}"
    return f"~ {new.name} {version}" + (f" ({'; '.join(notes)})" if notes else "")


def _file(entry) -> str:
    size = f", {entry.artifact.size / 1e6:.1f} MB" if entry.artifact.size else ""
    return f"{entry.artifact.kind}{size}"


def _signed_mb(delta: int) -> str:
    return f"{delta / 1e6:+.1f} MB" if abs(delta) >= 50_000 else f"{delta:+d} B"


def _edges(entries) -> set:
    return {(requirer, entry.name) for entry in entries for requirer in entry.via or ()}


def _locks(root: Path, change: Change) -> str:
    lines = ["### Lock changes (resolved by uv for every platform)"]
    for name in change.images:
        for platform in change.manifest.images[name].platforms:
            new = lockfile.read(lockfile.path_for(root, name, platform))
            if new is None:
                lines.append(f"- `{name}` {platform}: **no lock**")
                continue
            if name in change.added:
                lines += _sibling_lines(root, change.manifest, name, platform, new)
                continue
            delta = _lock_delta(change.base_locks.get((name, platform)), new)
            shown = delta[:LOCK_LINES] + ([f"... {len(delta) - LOCK_LINES} more"] if len(delta) > LOCK_LINES else [])
            summary = f"{len(new.packages)} packages, {len(delta)} changed"
            lines.append(f"- `{name}` {platform}: {summary}" + ("" if delta else " (unchanged)"))
            if delta:
                lines += ["  ```", *(f"  {line}" for line in shown), "  ```"]
    return "\n".join(lines) if len(lines) > 1 else ""


def _sibling_lines(root: Path, manifest, name: str, platform: str, new) -> list:
    """A new image's lock against its sibling's: where the resolver could not keep the family's versions."""
    kin = family.sibling(manifest, manifest.images[name], platform, root)
    if kin is None:
        return [f"- `{name}` {platform} (new): {len(new.packages)} packages; no locked sibling to share versions with"]
    differs = family.differences(new, kin[1])
    head = (f"- `{name}` {platform} (new): {len(new.packages)} packages, the versions of sibling `{kin[0]}` but "
            f"{len(differs)} the resolver chose otherwise" if differs else
            f"- `{name}` {platform} (new): {len(new.packages)} packages, every shared one at sibling `{kin[0]}`'s version")
    shown = differs[:LOCK_LINES] + ([f"... {len(differs) - LOCK_LINES} more"] if len(differs) > LOCK_LINES else [])
    return [head] + (["  ```", *(f"  {line}" for line in shown), "  ```"] if differs else [])


def _externals(root: Path, change: Change) -> str:
    rows = {}
    for name in change.images:
        for platform in change.manifest.images[name].platforms:
            lock = lockfile.read(lockfile.path_for(root, name, platform))
            for item in (lock.externals if lock else []):
                row = rows.setdefault((item["component"], item["version"]),
                                      [f"`{item['component']}` {item['version']}", item["reason"], set()])
                row[2].add(f"{name} {arch_of(platform)}")
            for item in (a for a in (lock.archives if lock else []) if not a.get("sha256")):
                row = rows.setdefault((item["component"], item["version"]),
                                      [f"`{item['component']}` {item['version']} (archive)", item["external"], set()])
                row[2].add(f"{name} {arch_of(platform)}")
    if not rows:
        return ""
    return ("### Not resolved here (externals: installed pinned, --no-deps)\n\n"
            + tables.markdown(["pin", "why", "where"], [[r[0], r[1], ", ".join(sorted(r[2]))] for r in rows.values()]))


def _rules(change: Change) -> str:
    found = {rule_id for rule_id, _ in rules.violations(change.manifest)}
    lines = ["### Compatibility rules checked"]
    lines += [f"- [{' ' if rule_id in found else 'x'}] `{rule_id}`: {doc}" for rule_id, doc in rules.describe()]
    return "\n".join(lines)


def _images(change: Change) -> str:
    lines = ["### Affected images"]
    if not change.images and not change.removed:
        return "\n".join(lines + ["None: no image's build inputs changed."])
    rows = []
    for name in change.images:
        img = change.manifest.images[name]
        platforms = change.changed.get(name) or {p: ["new image"] for p in img.platforms}
        for platform, inputs in platforms.items():
            rows.append([f"`{name}`" + (" (new)" if name in change.added else ""), platform,
                         img.runner.name if img.device_runs_on(platform) else "waived",
                         f"`{change.manifest.repository}:{img.human_tag}`", ", ".join(inputs)])
    rows += [[f"`{name}` (removed)", "", "", "", ""] for name in change.removed]
    lines.append(tables.markdown(["image", "platform", "device runner", "tag", "inputs that changed"], rows))
    from ..render import dockerfile

    env = dockerfile.environment(change.manifest.path.parent / "templates")
    for files, diff in _same_diffs_together(change, env):
        shown = diff[:DIFF_LINES] + ([f"... {len(diff) - DIFF_LINES} more lines"] if len(diff) > DIFF_LINES else [])
        lines += [f"<details><summary>{', '.join(files)}</summary>", "", "```diff", *shown, "```", "</details>"]
    return "\n".join(lines)


def _same_diffs_together(change: Change, env) -> list:
    """[(files, diff lines)]: the Dockerfiles a change edits the same way share one diff (a bump of a pin
    every NPU image installs would otherwise show one identical diff per image)."""
    from ..render import dockerfile

    groups = {}
    for name in change.changed:
        new = dockerfile.render_image(env, change.manifest, change.manifest.images[name])["Dockerfile"]
        path = f"images/{name}/Dockerfile"
        diff = tables.unified_diff(change.base_dockerfiles.get(name, ""), new, path).splitlines()
        if diff:
            hunks = "\n".join(diff[2:])  # without the ---/+++ lines, which name the file
            groups.setdefault(hunks, ([], diff))[0].append(path)
    return list(groups.values())


def _verification(root: Path, change: Change, artifacts: Path | None) -> str:
    """Per image and platform: the build stage's run and the device stage's (or a whole-suite run, which
    covers both), what is still owed (stages, and what stops CI's first promotion: unhashed files, a
    training baseline), and where pins.yaml waives the device checks."""
    lines = ["### Verification"]
    pending = []
    for name in change.images:
        image = change.manifest.images[name]
        for platform in image.platforms:
            tree = tree_digest(change.inputs[(name, platform)])
            whole = _latest(artifacts, name, platform, "results.json", stage="", tree=tree) if artifacts else None
            if whole is not None:
                lines.append(_read(whole, _run_line, name, platform, whole))
            for stage in () if whole is not None else _stages_of(image, platform):
                run = _latest(artifacts, name, platform, "results.json", stage, tree=tree) if artifacts else None
                if run is None:
                    other = artifacts and _latest(artifacts, name, platform, "results.json", stage)
                    pending.append(f"- [ ] `{name}` {platform}: {_owed(change.manifest, image, platform, stage)}"
                                   + (f" (the newest run, {other.name}, is of another tree: no evidence of this "
                                      f"change)" if other else ""))
                else:
                    lines.append(_read(run, _run_line, name, platform, run, stage))
            if platform in image.waivers:
                lines.append(f"- `{name}` {platform}: **device checks did not run on {arch_of(platform)}** "
                             f"(waived in pins.yaml: {image.waivers[platform]})")
            tests = _latest(artifacts, f"{name}-verl-tests", platform, "summary.json") if artifacts else None
            if tests is not None:
                lines.append(_read(tests, _tests_line, name, platform, tests))
            lock = lockfile.read(lockfile.path_for(root, name, platform))
            pending += [f"- [ ] `{name}` {platform}: before CI can promote it, {blocker}"
                        for blocker in readme.promotion_blockers(image, platform, lock, root)]
    if pending:
        lines += ["", "Still to run:" if len(lines) > 1 else "No smoke artifacts yet. To run:", *pending]
    return "\n".join(lines)


def _stages_of(image, platform: str) -> tuple:
    return ("build",) if platform in image.waivers else ("build", "device")


def _owed(manifest, image, platform: str, stage: str) -> str:
    if stage == "build":
        return (f"build stage on `{', '.join(manifest.build_runners[platform])}` (`build.py image {image.name} "
                f"--platform {platform} --stage build --registry ...`)")
    return (f"device stage on `{image.runner.name}` (`{', '.join(image.device_runs_on(platform))}`: `build.py smoke "
            f"{image.name} --platform {platform} --registry ... --digest ...`)")


def _latest(artifacts: Path, name: str, platform: str, marker: str, stage=None, tree: str | None = None):
    """The newest run of the image for the platform (and stage: "" is a whole-suite run; None: any) that
    injected no fault; with `tree`, only a run of an image built from that tree (inputs.tree_digest)."""
    directory = artifacts / name
    runs = sorted(p for p in directory.glob("*") if (p / marker).exists()) if directory.is_dir() else []
    runs = [r for r, meta in ((r, _meta(r)) for r in runs)
            if meta.get("platform", "") in (platform, "") and not meta.get("faults")
            and (stage is None or meta.get("stage", "") == stage) and (tree is None or meta.get("tree_inputs") == tree)]
    return runs[-1] if runs else None


def _meta(run: Path) -> dict:
    meta = run / "run.json"
    data = _read(run, lambda: json.loads(meta.read_text())) if meta.exists() else {}
    if not isinstance(data, dict):
        raise UserError(f"{meta}: not a smoke run's run.json (a JSON object)", key="--artifacts")
    return data


def _read(run: Path, reader, *args):
    """What reader makes of a run in --artifacts (files that may come from anywhere: a CI download), or
    one line naming the run."""
    try:
        return reader(*args)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        raise UserError(f"{run}: not a smoke run this PR body can read ({type(exc).__name__}: {exc}): run it again or "
                        f"remove it", key="--artifacts") from None


def _run_line(name, platform, run: Path, stage: str = "") -> str:
    results = json.loads((run / "results.json").read_text())
    values = _metrics(run / "metrics.txt")
    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    failed = [r["name"] for r in results if r["status"] == "FAIL"]
    status = ("FAIL (" + ", ".join(failed) + ")") if failed else ("pass" if not counts.get("NOT RUN") else "incomplete")
    label = f" {stage} stage" if stage else ""
    parts = [f"- `{name}` {platform}{label}: {status}, " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))]
    losses, notes = _training(run)
    parts += losses
    for key, label in (("sync.collective.synthetic.gbps", "collective"), ("sync.mooncake.synthetic.gbps", "mooncake")):
        if key in values:
            parts.append(f"{label} {values[key]:.2f} GB/s")
    return "\n".join([", ".join(parts), *notes])


def _training(run: Path) -> tuple:
    """(loss summaries, notes) from each training check's <check>.curve.json: first -> last loss against
    the baseline's last, and a note per version the baseline was made with that this run does not have."""
    parts, notes = [], []
    for path in sorted(run.glob("*.curve.json")):
        data = json.loads(path.read_text())
        found = plot.curves(data)
        if "run" not in found:
            continue
        losses, base = found["run"][1], found.get("baseline", ((), ()))[1]
        parts.append(f"`{data['check']}` loss {losses[0]:.3f} -> {losses[-1]:.3f}"
                     + (f" (baseline {base[-1]:.3f})" if base else " (no baseline)"))
        if not base:
            continue
        for what, version in sorted(data.get("made_with", {}).items()):
            had = data.get("baseline_made_with", {}).get(what)
            if had != version:
                notes.append(f"  - note: `{data['check']}`'s baseline {data['baseline_file']} was made with {what} "
                             f"{had or '(unrecorded)'}, this run has {version}: regenerate it from this image "
                             f"(`build.py baseline --update`, README: Record an NPU baseline)")
    return parts, notes


def _tests_line(name, platform, run: Path) -> str:
    summary = json.loads((run / "summary.json").read_text())
    return (f"- `{name}` {platform}: verl {summary.get('verl', '?')}'s own tests: {summary['passed']} passed, "
            f"{summary['failed']} failed, {summary['deselected']} deselected (listed with reasons)")


def _metrics(path: Path) -> dict:
    return parse_metrics(path.read_text()) if path.exists() else {}
