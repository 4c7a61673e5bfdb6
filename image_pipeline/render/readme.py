"""The generated blocks of the documents (README.md, docs/*.md): tables that come from pins.yaml,
the schema, the rules and the committed locks. The command-line layer hands in its own table (`cli`)
as an extra block, so nothing here imports it. Each block lives in exactly one document; a link to a
file of this repository is written relative to the document that holds it."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

from .. import tables
from ..errors import UserError
from ..host import passthrough
from ..lock import lockfile
from ..manifest import rules, schema
from ..paths import DOCUMENTS, VERL_TESTS_RECORD
from ..manifest.model import arch_of
from . import install_plan
from .layers import own_layers
from .install_script import script_name

BEGIN = "<!-- BEGIN GENERATED: {name} (python build.py render) -->"
END = "<!-- END GENERATED: {name} -->"
DEFAULTS_FILE = "smoke_tests/checkpoint_defaults.json"
CHECKS_FILE = "smoke_tests/checks.json"
VERL_TESTS_FILE = "smoke_tests/verl_tests.json"
TRAINING_FILE = "smoke_tests/training.json"
BASELINES_DIR = "smoke_tests/baselines"  # the first-promotion table says which baselines are committed
READ_FILES = (DEFAULTS_FILE, CHECKS_FILE, VERL_TESTS_FILE, TRAINING_FILE, VERL_TESTS_RECORD, BASELINES_DIR)  # what the tables are made from
MARKER = re.compile(r"<!-- BEGIN GENERATED: ([^ ]+) \(python build.py render\) -->")


def blocks(manifest, root: Path, extra: dict) -> dict:
    """{block name: function(link prefix) -> text}; a document computes only the blocks it holds."""
    locks = functools.cache(lambda: {(img.name, p): lockfile.read(lockfile.path_for(root, img.name, p))
                                     for img in manifest.images.values() for p in img.platforms})
    fixed = {
        "images": lambda links: _images(manifest, links),
        "supported-tags": lambda links: _supported_tags(manifest, links),
        "pins": lambda _: _pins(manifest),
        "deviations": lambda _: _deviations(manifest, root),
        "indexes": lambda _: tables.markdown(["index", "URL", "what comes from it"],
                                             [[f"`{i.name}`", i.url, i.reason] for i in manifest.indexes.values()]),
        "externals": lambda _: _externals(manifest, locks()),
        "first-promotion": lambda _: _first_promotion(manifest, locks(), root),
        "ascend-host": lambda _: _ascend_host(manifest),
        "stack": lambda _: _stack(manifest, locks()),
        "layers": lambda _: _layers(manifest, locks()),
        "schema": lambda _: tables.markdown(["section", "key", "required", "meaning"],
                                            [[s, f"`{k}`", "yes" if r else "", d] for s, k, r, d in schema.table_rows()]),
        "rules": lambda _: tables.markdown(["rule", "checks"], [[f"`{i}`", d] for i, d in rules.describe()]),
        "sync-defaults": lambda _: _defaults(root),
        "smoke-checks": lambda _: _smoke_checks(manifest, root),
        "faults": lambda _: _faults(root),
        "smoke-training": lambda _: _training(root),
        "verl-tests": lambda _: _verl_tests(root),
    }
    return {**fixed, **{name: (lambda _, body=body: body) for name, body in extra.items()}}


def regenerate_all(texts: dict, manifest, root: Path, extra: dict) -> dict:
    """{document: text} -> {document: text with every block it holds filled in}.

    `texts` holds the documents that exist, in DOCUMENTS order; every block must be in exactly one."""
    builders = blocks(manifest, root, extra)
    holders = {name: [doc for doc, text in texts.items() for _ in range(text.count(BEGIN.format(name=name)))]
               for name in builders}
    for doc, text in texts.items():
        for name in MARKER.findall(text):
            if name not in builders:
                raise UserError(f"generated block {name!r} is not one render knows (known: {', '.join(builders)})",
                                file=doc)
    for name, docs in holders.items():
        if len(docs) != 1:
            where = f"is in {' and '.join(docs)}" if docs else f"is in none of {', '.join(DOCUMENTS)}"
            raise UserError(f"generated block {name!r} {where}: keep its markers ({BEGIN.format(name=name)} ... "
                            f"{END.format(name=name)}) in exactly one document")
    return {doc: _fill(doc, text, {n: builders[n] for n, docs in holders.items() if docs == [doc]})
            for doc, text in texts.items()}


def _fill(doc: str, text: str, builders: dict) -> str:
    links = "../" * (len(Path(doc).parts) - 1)  # from docs/x.md a repository file is ../<path>
    for name, build in builders.items():
        begin, end = BEGIN.format(name=name), END.format(name=name)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise UserError(f"generated block {name!r} has no end marker: add {end}", file=doc)
        body = build(links)
        text = pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)
    return text


def _images(manifest, links: str = "") -> str:
    rows = []
    for img in manifest.images.values():
        torch = ", ".join(f"{c.version} ({img.only[c.name].split('/')[1]})" if c.name in img.only else c.version
                          for c in img.stack["torch"])
        rows.append([f"`{img.name}`" + (" (default)" if img.default else ""), img.device, img.soc_version or "-",
                     f"`{img.base.reference}`", img.python, torch, ", ".join(img.platforms),
                     _device_checks(img), f"`{manifest.repository}:{img.human_tag}`",
                     f"[Dockerfile]({links}images/{img.name}/Dockerfile)",
                     ", ".join(f"[{arch_of(p)}]({links}images/{img.name}/{script_name(p)})" for p in img.platforms)])
    return tables.markdown(["image", "device", "SoC", "base", "python", "torch", "platforms", "device checks (CI)",
                            "tag", "file", "host install"], rows)


def _device_checks(img) -> str:
    """Where each platform's device checks run: the device runner, or waived (the reason is in pins.yaml)."""
    return ", ".join(f"{platform.split('/')[1]}: " + (f"`{img.runner.name}`" if img.device_runs_on(platform)
                                                       else "waived") for platform in img.platforms)


def _pins(manifest) -> str:
    rows = [[f"`{c.name}`", c.source, f"[{c.summary}]({c.link})", ", ".join(manifest.users_of(c.name))
             or f"alternative to `{c.get('alternative_to')}`", c.get("reason", "")]
            for c in manifest.components.values()]
    return tables.markdown(["component", "source", "pin", "images", "why"], rows)


def _supported_tags(manifest, links: str = "") -> str:
    """Like upstream's docker/ascend/supported_tags.md: one row per image, the latest line first; its tags
    include upstream's names for it (upstream_tags), which point at the same index."""
    rows = []
    for release, images in sorted(manifest.lines().items(), key=lambda item: (item[0] != "", item[0])):
        for img in images:
            verl = img.role("verl")
            soc = f"{img.axes['soc']} ({img.soc_version})" if img.soc_version and "soc" in img.axes else (img.soc_version or "-")
            rows.append([f"release {release}" if release else "latest", f"`{img.name}`",
                         ", ".join(f"`{manifest.repository}:{t}`" for t in (img.name, img.human_tag, *img.upstream_tags)),
                         img.cann_version or "-", img.backend or "-", soc, str(verl.release) if verl else "-",
                         f"[Dockerfile]({links}images/{img.name}/Dockerfile)", _file_link(img.upstream) if img.upstream else "-"])
    return tables.markdown(["line", "image", "tags", "CANN", "backend", "SoC", "verl", "file", "upstream file"], rows)


def _ascend_host(manifest) -> str:
    """Per device runner (one SoC): the images it runs, `doctor` and `run` for them, the `docker run` line
    `run` uses (host/passthrough.py: the smoke runner's devices and mounts) for a whole node, and the rank
    count; then the driver each CANN base needs, with its source."""
    parts = []
    for runner in (r for r in manifest.runners.values() if r.device == "npu"):
        images = [img for img in manifest.images.values() if img.runner is runner]
        if not images:
            continue
        first = images[0]
        words = passthrough.docker_run_words(f"{manifest.repository}:{first.name}",
                                             passthrough.container_options(passthrough.node(runner.npus)), ["bash"])
        mooncake = [img.name for img in images if "mooncake" in img.stack]
        parts += [f"**`{runner.name}`** ({runner.npus} NPUs a node; images {', '.join(f'`{i.name}`' for i in images)}):"
                  f" verl's trainer takes `trainer.n_gpus_per_node={runner.npus}`.", "", "```sh",
                  f"python build.py doctor {first.name}", f"python build.py run {first.name}            # which runs:",
                  passthrough.shell_line(words), "```", ""]
        if mooncake:
            parts += [f"{', '.join(f'`{m}`' for m in mooncake)} carry Mooncake: the host needs "
                      f"`{passthrough.HCCN_CONF}` (the NPUs' RoCE addresses, written by `hccn_tool`); "
                      "`doctor` fails without it and `run` warns.", ""]
    rows = [[f"`{comp.name}`", comp.get("tag"), comp.get("driver")["version"], f"<{comp.get('driver')['source']}>"]
            for comp in manifest.components.values() if comp.source == "image" and comp.get("driver")]
    undeclared = [f"`{comp.name}`" for comp in manifest.components.values()
                  if comp.source == "image" and comp.get("env_scripts") and not comp.get("driver")]
    table = tables.markdown(["CANN base", "tag", "HDK driver at least", "source"], rows)
    note = f"\n\nNo published requirement found for {', '.join(undeclared)}: `doctor` names the driver it finds and " \
           "does not compare it." if undeclared else ""
    return "\n".join(parts) + "\n" + table + note


def _file_link(url: str) -> str:
    """[verl/docker/ascend/Dockerfile.ascend_9.1.0_a2 @1dda039b](url): which repository, file and commit."""
    match = re.fullmatch(r"https://github\.com/[^/]+/([^/]+)/(?:blob|tree)/([^/]+)/(.+)", url)
    if not match:
        return f"<{url}>"
    repo, ref, path = match.groups()
    ref = ref[:8] if re.fullmatch(r"[0-9a-f]{40}", ref) else ref
    return f"[{repo}/{path} @{ref}]({url})"


def _deviations(manifest, root: Path) -> str:
    """Every place an image differs from the upstream file it is checked against, with that file."""
    rows = []
    for comp in manifest.components.values():
        users = [manifest.images[n] for n in manifest.users_of(comp.name)] or [
            manifest.images[n] for n in manifest.users_of(comp.get("alternative_to") or "")]
        names = ", ".join(img.name for img in users) if manifest.users_of(comp.name) else \
            f"alternative to `{comp.get('alternative_to')}`"
        against = _checked_against(users)
        for url, why in (comp.get("differs") or {}).items():
            rows.append([f"`{comp.name}` {comp.summary}", names, "differs from upstream", why, _file_link(url)])
        for dist, why in (comp.get("wins_over") or {}).items():
            rows.append([f"`{comp.name}` {comp.summary}", names, f"wins over what `{dist}` requires", why, against])
        for dist, why in (comp.get("without") or {}).items():
            rows.append([f"`{comp.name}` without `{dist}`", names, "left out of what it pulls in", why, against])
        if comp.get("cpu_stand_in"):
            rows.append([f"`{comp.name}` {comp.summary}", names, "the cpu stand-in holds another release than the NPU images",
                         comp.get("cpu_stand_in"), "the NPU images' pin (rule `cpu-shares-npu-releases`)"])
    omitted: dict = {}
    for img in manifest.images.values():
        for dist, why in img.omits.items():
            omitted.setdefault((dist, why), []).append(img)
    for (dist, why), images in omitted.items():
        rows.append([f"`{dist}`", ", ".join(img.name for img in images), "upstream installs it, the image does not",
                     why, _checked_against(images)])
    runtime: dict = {}
    for img in manifest.images.values():
        for what, why in img.differs.items():
            runtime.setdefault((what, why), []).append(img)
    for (what, why), images in runtime.items():
        rows.append([what, ", ".join(img.name for img in images), "declared: differs at run time", why,
                     _checked_against(images)])
    rows += _closed(manifest, root)
    return tables.markdown(["pin", "images", "deviation", "why", "checked against"], rows)


def _closed(manifest, root: Path) -> list:
    """A runtime difference closed: the image does what upstream's does, and a smoke check holds it."""
    rows = []
    for check in json.loads((root / CHECKS_FILE).read_text())["checks"]:
        if check.get("closes"):
            images = [img for img in manifest.images.values() if check_runs_in(check, img)]
            rows.append([f"check `{check['name']}`", ", ".join(img.name for img in images), "closed: as upstream, checked",
                         f"{check['closes']}; the check: {check['proves']}", _checked_against(images)])
    return rows


def _checked_against(images) -> str:
    files = list(dict.fromkeys(img.upstream for img in images if img.upstream))
    return ", ".join(_file_link(url) for url in files) or "(cpu stand-in: no upstream file)"


UNVERIFIED = "none: the build refuses it without `--allow-unverified`"


def _externals(manifest, locks) -> str:
    rows = {}
    for (image, platform), lock in locks.items():
        for item in (lock.externals if lock else []):
            checked = "git commit" if item.get("commit") else ("sha256 in the lock" if item.get("sha256") else UNVERIFIED)
            row = rows.setdefault((item["component"], item["version"], checked), [
                f"`{item['component']}`", f"{item['dist']} {item['version']}"
                + (f" @ {item['commit'][:12]}" if item.get("commit") else ""), item["origin"], checked, set(),
                item["reason"]])
            row[4].add(f"{image} {platform.split('/')[1]}")
        for item in (a for a in (lock.archives if lock else []) if not a.get("sha256")):
            row = rows.setdefault((item["component"], item["url"]), [
                f"`{item['component']}`", f"{item['version']}: {', '.join(item['wheels'])}", item["url"].rsplit("/", 1)[-1],
                UNVERIFIED, set(), item["external"]])
            row[4].add(f"{image} {platform.split('/')[1]}")
    return tables.markdown(["component", "pin", "source", "file hash", "locks", "why"],
                           [[*r[:4], ", ".join(sorted(r[4])), r[5]] for r in rows.values()])


def _first_promotion(manifest, locks, root: Path) -> str:
    """Per image and platform, what still stands between CI as committed and a promotion
    (promotion_blockers)."""
    rows = []
    for img in manifest.images.values():
        for platform in img.platforms:
            device = f"`{img.runner.name}`" if img.device_runs_on(platform) else "waived"
            blockers = promotion_blockers(img, platform, locks[(img.name, platform)], root)
            rows.append([f"`{img.name}`", arch_of(platform), device, "; ".join(blockers) or "nothing: CI promotes it"])
    return tables.markdown(["image", "arch", "device stage", "what stands between CI and its first promotion"],
                           rows)


def promotion_blockers(img, platform: str, lock, root: Path) -> list:
    """What stops CI as committed from promoting the image on platform: files the lock holds no sha256 for
    (CI passes no --allow-unverified, so the build stage refuses them), a training baseline not committed
    yet for a platform whose device stage runs the training checks."""
    training = set(json.loads((root / TRAINING_FILE).read_text())["checks"])
    checks = {c["name"]: c for c in json.loads((root / CHECKS_FILE).read_text())["checks"]}
    trained = [name for name in sorted(training) if name in checks and check_runs_in(checks[name], img)]
    blockers = []
    unverified = lockfile.unverified_components(lock) if lock else []
    if unverified:
        blockers.append("no sha256 in the lock for " + ", ".join(f"`{name}`" for name in unverified))
    baseline = f"{BASELINES_DIR}/{img.name}.{img.device}.{arch_of(platform)}.txt"
    if img.device_runs_on(platform) and trained and not (root / baseline).exists():
        blockers.append(f"no training baseline (`{baseline}`: first run on the device runner)")
    return blockers


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
    """One row per layer the image's Dockerfile installs into on each platform (install_plan.parts)."""
    rows = []
    for img in manifest.images.values():
        own = own_layers(img, [locks[(img.name, p)] for p in img.platforms if locks.get((img.name, p))])
        for platform in img.platforms:
            lock = locks.get((img.name, platform))
            installed = {c.name for c in img.on(platform).components}
            for part in install_plan.parts(img, platform, lock, own) if lock else []:
                layer = part.layer
                if layer.components:
                    what = ", ".join(c.name for c in layer.components if c.name in installed)
                else:
                    what = layer.dist or f"{len(part.entries)} packages"
                if not what:
                    continue  # a component of another platform: its step installs nothing here
                rows.append([f"`{img.name}`", platform.split("/")[1], f"{part.tier.name}: {layer.name}", what,
                             tables.size(sum(e.artifact.size or 0 for e in part.entries))])
    return tables.markdown(["image", "arch", "layer", "what is in it", "locked wheels (compressed size)"], rows)


def _defaults(root: Path) -> str:
    path = root / DEFAULTS_FILE
    if not path.exists():
        return "(no checkpoint defaults file)"
    rows = json.loads(path.read_text())
    return tables.markdown(["setting", "verl's default", "where verl defines it", "images", "meaning"],
                           [[f"`{r['setting']}`", f"`{json.dumps(r['value'])}`", f"`{r['where']}`",
                             "with " + ", ".join(f"`{role}`" for role in r["roles"]) if r.get("roles") else "every",
                             r["meaning"]] for r in rows])


def _smoke_checks(manifest, root: Path) -> str:
    rows = []
    for check in json.loads((root / CHECKS_FILE).read_text())["checks"]:
        images = [f"`{img.name}`" for img in manifest.images.values() if check_runs_in(check, img)]
        needs = "the image's device" if check["needs_device"] else "no device"
        if check.get("where") == ["image"]:
            needs += "; inside an image only"
        kind = "figure" if check.get("kind") == "measurement" else ("opt-in" if check.get("optional") else "check")
        if check.get("promotion") is False:
            kind += "; CI's device stage, not a local promotion"
        rows.append([f"`{check['name']}`", ", ".join(images) or "none", needs, kind, check["proves"]])
    return tables.markdown(["check", "runs in", "needs", "kind", "what it proves"], rows)


def check_runs_in(check: dict, image) -> bool:
    """The suite's own rule (smoke_tests.plan.Check.applies_to), read from checks.json on the host side."""
    roles = {role for role, comps in image.stack.items() if comps}
    return image.device in check.get("image_devices", ("cpu", "npu")) and set(check.get("roles", ())) <= roles


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
