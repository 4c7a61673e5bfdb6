"""The README's generated blocks: tables that come from pins.yaml, the schema, the rules and
the committed locks. The command-line layer hands in its own table (`cli`) as an extra block,
so nothing here imports it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .. import tables
from ..errors import UserError
from ..lock import lockfile
from ..manifest import rules, schema
from ..paths import VERL_TESTS_RECORD
from .dockerfile import tiers_of

BEGIN = "<!-- BEGIN GENERATED: {name} (python build.py render) -->"
END = "<!-- END GENERATED: {name} -->"
DEFAULTS_FILE = "smoke_tests/checkpoint_defaults.json"
CHECKS_FILE = "smoke_tests/checks.json"
VERL_TESTS_FILE = "smoke_tests/verl_tests.json"
TRAINING_FILE = "smoke_tests/training.json"
READ_FILES = (DEFAULTS_FILE, CHECKS_FILE, VERL_TESTS_FILE, TRAINING_FILE, VERL_TESTS_RECORD)  # what the README tables are made from


def blocks(manifest, root: Path, extra: dict) -> dict:
    locks = {(img.name, p): lockfile.read(lockfile.path_for(root, img.name, p))
             for img in manifest.images.values() for p in img.platforms}
    return {
        "images": _images(manifest),
        "pins": _pins(manifest),
        "deviations": _deviations(manifest),
        "indexes": tables.markdown(["index", "URL", "what comes from it"],
                                   [[f"`{i.name}`", i.url, i.reason] for i in manifest.indexes.values()]),
        "externals": _externals(manifest, locks),
        "stack": _stack(manifest, locks),
        "layers": _layers(manifest, locks),
        "schema": tables.markdown(["section", "key", "required", "meaning"],
                                  [[s, f"`{k}`", "yes" if r else "", d] for s, k, r, d in schema.table_rows()]),
        "rules": tables.markdown(["rule", "checks"], [[f"`{i}`", d] for i, d in rules.describe()]),
        "sync-defaults": _defaults(root),
        "smoke-checks": _smoke_checks(root),
        "faults": _faults(root),
        "smoke-training": _training(root),
        "verl-tests": _verl_tests(root),
        **extra,
    }


def regenerate(text: str, manifest, root: Path, extra: dict) -> str:
    for name, body in blocks(manifest, root, extra).items():
        begin, end = BEGIN.format(name=name), END.format(name=name)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise UserError(f"missing generated block markers for {name!r}: add {begin} ... {end}", file="README.md")
        text = pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)
    return text


def _images(manifest) -> str:
    rows = []
    for img in manifest.images.values():
        torch = ", ".join(f"{c.version} ({img.only[c.name].split('/')[1]})" if c.name in img.only else c.version
                          for c in img.stack["torch"])
        rows.append([f"`{img.name}`" + (" (default)" if img.default else ""), img.device, img.soc_version or "-",
                     f"`{img.base.reference}`", img.python, torch, ", ".join(img.platforms),
                     img.runner.name, f"`{manifest.repository}:{img.human_tag}`",
                     f"[Dockerfile](images/{img.name}/Dockerfile)"])
    return tables.markdown(["image", "device", "SoC", "base", "python", "torch", "platforms", "CI runner", "tag",
                            "file"], rows)


def _pins(manifest) -> str:
    rows = [[f"`{c.name}`", c.source, f"[{c.summary}]({c.link})", ", ".join(manifest.users_of(c.name))
             or f"alternative to `{c.get('alternative_to')}`", c.get("reason", "")]
            for c in manifest.components.values()]
    return tables.markdown(["component", "source", "pin", "images", "why"], rows)


def _deviations(manifest) -> str:
    rows = []
    for comp in manifest.components.values():
        for key, what in (("overrides", "overrides what other packages require"),
                          ("deviates", "cpu stand-in deviates from the NPU images"),
                          ("external", "not resolved by the lock here")):
            if comp.get(key):
                rows.append([f"`{comp.name}` {comp.summary}", what, comp.get(key)])
        for platform, build in (comp.get("builds") or {}).items():
            if build.get("external"):
                rows.append([f"`{comp.name}` {comp.version_for(platform)} ({platform})", "not resolved by the lock "
                             "here", build["external"]])
        for dist, why in (comp.get("without") or {}).items():
            rows.append([f"`{comp.name}` without `{dist}`", "left out of what it pulls in", why])
    return tables.markdown(["pin", "deviation", "why"], rows)


def _externals(manifest, locks) -> str:
    rows = {}
    for (image, platform), lock in locks.items():
        for item in (lock.externals if lock else []):
            key = (item["component"], item["version"])
            row = rows.setdefault(key, [f"`{item['component']}`", f"{item['dist']} {item['version']}"
                                        + (f" @ {item['commit'][:12]}" if item.get("commit") else ""),
                                        item["origin"], set(), item["reason"]])
            row[3].add(f"{image} {platform.split('/')[1]}")
        for item in (a for a in (lock.archives if lock else []) if not a.get("sha256")):
            row = rows.setdefault((item["component"], item["url"]), [
                f"`{item['component']}`", f"{item['version']}: {', '.join(item['wheels'])}", item["url"].rsplit("/", 1)[-1],
                set(), item["external"]])
            row[3].add(f"{image} {platform.split('/')[1]}")
    return tables.markdown(["component", "pin", "source", "locks", "why"],
                           [[*r[:3], ", ".join(sorted(r[3])), r[4]] for r in rows.values()])


def _stack(manifest, locks) -> str:
    sections = []
    for img in manifest.images.values():
        header = ["layer", "role", "component"] + list(img.platforms)
        rows = []
        for tier, role, comp in img.installs():
            versions = []
            for platform in img.platforms:
                lock = locks.get((img.name, platform))
                versions.append(_locked_version(lock, comp, platform) if platform in img.platforms_of(comp) else "-")
            rows.append([tier.name, role, f"`{comp.name}`", *versions])
        counts = ", ".join(f"{p}: {len(locks[(img.name, p)].packages) if locks.get((img.name, p)) else '-'} locked"
                           for p in img.platforms)
        sections.append(f"**{img.name}** ({counts})\n\n" + tables.markdown(header, rows))
    return "\n\n".join(sections)


def _locked_version(lock, comp, platform) -> str:
    if lock is None:
        return "(no lock)"
    entry = lock.by_name().get(comp.dist)
    if entry:
        return entry.version
    for item in [*lock.externals, *lock.source_builds]:
        if item["component"] == comp.name:
            return f"{item['version']} ({'external' if item in lock.externals else 'source'})"
    for item in lock.archives:
        if item["component"] == comp.name:
            return f"{item['version']} (archive, {'sha256 ' + item['sha256'][:12] if item.get('sha256') else 'external'})"
    return "-"


def _layers(manifest, locks) -> str:
    rows = []
    for img in manifest.images.values():
        for platform in img.platforms:
            lock = locks.get((img.name, platform))
            for tier in tiers_of(img.on(platform)):
                members = [e for e in (lock.packages if lock else []) if e.tier == tier.name]
                deps, pinned = tier.dependencies(members), tier.pinned(members)
                arch = platform.split("/")[1]
                rows.append([f"`{img.name}`", arch, f"{tier.name}: dependencies", f"{len(deps)} packages",
                             tables.size(sum(e.artifact.size or 0 for e in deps))])
                rows.append([f"`{img.name}`", arch, f"{tier.name}: pins", ", ".join(c.name for c in tier.components),
                             tables.size(sum(e.artifact.size or 0 for e in pinned))])
    return tables.markdown(["image", "arch", "layer", "what is in it", "locked wheels (compressed size)"], rows)


def _defaults(root: Path) -> str:
    path = root / DEFAULTS_FILE
    if not path.exists():
        return "(no checkpoint defaults file)"
    rows = json.loads(path.read_text())
    return tables.markdown(["setting", "verl's default", "where verl defines it", "meaning"],
                           [[f"`{r['setting']}`", f"`{json.dumps(r['value'])}`", f"`{r['where']}`", r["meaning"]]
                            for r in rows])


def _smoke_checks(root: Path) -> str:
    rows = []
    for check in json.loads((root / CHECKS_FILE).read_text())["checks"]:
        devices = ", ".join(check.get("devices", ["cpu", "npu"]))
        if check.get("roles"):
            devices += " with " + ", ".join(f"`{role}`" for role in check["roles"])
        needs = "the image's device" if check["device"] else "no device"
        kind = "figure" if check.get("kind") == "measurement" else ("opt-in" if check.get("optional") else "check")
        rows.append([f"`{check['name']}`", devices, needs, kind, check["proves"]])
    return tables.markdown(["check", "images", "needs", "kind", "what it proves"], rows)


def _training(root: Path) -> str:
    data = json.loads((root / TRAINING_FILE).read_text())
    code = " ".join

    def listed(items):
        return "<br>".join(f"`{item}`" for item in items) or "(none)"

    rows = []
    for name, check in data["checks"].items():
        for device, engine_class in check["engine_class"].items():
            settings = data["devices"][device]
            rows.append([f"`{name}`", device, check["engine"], f"`{check['trainer_class']}` -> `{engine_class}`",
                         listed([*(f"{k}={v}" for k, v in settings["env"].items()), *check["overrides"],
                                 *settings["overrides"]]), settings["why"]])
    launch = (f"Every training check runs `torchrun --nnodes=1 --nproc_per_node={data['ranks']} --master_addr=127.0.0.1 "
              f"--master_port=PORT -m smoke_tests.observe {data['entry']} OVERRIDES` for {data['steps']} steps, "
              f"with these overrides first: {code(f'`{o}`' for o in data['overrides'])}. "
              f"`--fault no-learn` adds {code(f'`{o}`' for o in data['faults']['no-learn'])}.")
    table = tables.markdown(["check", "device", "engine", "classes that must do every step, on every rank",
                             "env and overrides of the check and device", "why"], rows)
    return f"{launch}\n\n{table}"


def _faults(root: Path) -> str:
    return tables.markdown(["--fault", "what it breaks", "checks that must fail"],
                           [[f"`{f['name']}`", f["doc"], ", ".join(f"`{c}`" for c in f["fails"])]
                            for f in json.loads((root / CHECKS_FILE).read_text())["faults"]])


def _verl_tests(root: Path) -> str:
    data = json.loads((root / VERL_TESTS_FILE).read_text())
    measured = json.loads((root / VERL_TESTS_RECORD).read_text())["measured"]
    rows = [[f"`{key}`", m["verl"], m["files"], m["collected"], m["passed"], m["failed"], m["deselected"]]
            for key, m in sorted(measured.items())]
    deselected = [[device, f"`{e['nodeid']}`", e["reason"]] for device, entries in data["deselect"].items()
                  for e in entries]
    table = tables.markdown(["image, platform", "verl", "test files", "collected", "passed", "failed", "deselected"],
                            rows) if rows else "(no run recorded yet: `python build.py verl-tests IMAGE --record`)"
    listed = (tables.markdown(["device", "deselected test", "why"], deselected) if deselected
              else "Deselected: none, on any device.")
    return f"{table}\n\n{listed}"
