"""Assemble the build context of one image for one platform.

Layout (the rendered Dockerfile bind-mounts these names):
  Dockerfile, pins.json        rendered in memory (equal to images/<name>/, checked before)
  installer/                   install_tier.py, verify.py, check_env.py: run during the build only
  tiers/<n>-<tier>/deps/       the tier's dependencies: requirements.txt (hash-pinned), files/
                               (hard links into the cache), sources.json
  tiers/<n>-<tier>/pins/       the tier's own components, the same way, plus what the lock did not
                               resolve (sources.json: pinned sdists, externals, the wheels of archives;
                               src/<component>/: git trees)
  patches/                     the image's diffs + patches.json
  payload/, smoke_tests/       copied into the image
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path

from ..lock import lockfile
from ..paths import INSTALLER, PAYLOAD, SMOKE
from ..render.dockerfile import needs_builder, tiers_of

IGNORED = ("__pycache__", ".pytest_cache", ".mypy_cache", "*.pyc")


def assemble(root: Path, image, platform: str, rendered: dict, house, target: Path) -> Path:
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    (target / "Dockerfile").write_text(rendered["Dockerfile"])
    (target / "pins.json").write_text(rendered["pins.json"])
    for tree in (INSTALLER, PAYLOAD, SMOKE):
        shutil.copytree(root / tree, target / tree, ignore=shutil.ignore_patterns(*IGNORED))
    _patches(root, image, target / "patches")
    lock = lockfile.read(lockfile.path_for(root, image.name, platform))
    installed = {c.name for c in image.on(platform).components}
    for tier in tiers_of(image):  # every tier the Dockerfile mounts, even one empty on this platform
        mine = dataclasses.replace(tier, components=tuple(c for c in tier.components if c.name in installed))
        _tier(image, mine, lock, house, target / "tiers" / tier.slug)
    return target


def _tier(image, tier, lock, house, directory: Path) -> None:
    """Two layers per tier: its dependencies (deps/), then its own pinned components (pins/)."""
    entries = sorted((e for e in lock.packages if e.tier == tier.name), key=lambda e: e.name)
    _part(image, tier.dependencies(entries), [], house, directory / "deps")
    (directory / "pins" / "files").mkdir(parents=True)
    items = [_item(image, comp, lock, house, directory / "pins") for comp in tier.components]
    _part(image, tier.pinned(entries), [item for item in items if item is not None], house, directory / "pins")


def _part(image, entries, items, house, directory: Path) -> None:
    (directory / "files").mkdir(parents=True, exist_ok=True)
    lines = []
    for entry in entries:
        _link(house.files[entry.name], directory / "files" / entry.artifact.name)
        lines.append(f"{entry.name}=={entry.version} --hash=sha256:{entry.artifact.sha256}")
    (directory / "requirements.txt").write_text("".join(line + "\n" for line in lines))
    compiles = any(e.artifact.kind == "sdist" for e in entries) or any(
        i["kind"] not in ("index", "wheels") and not i.get("import_path") for i in items)
    sources = {"items": items, "compile": compiles, "apt_build": list(image.apt_build) if compiles else [],
               "soc_version": image.soc_version}
    (directory / "sources.json").write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")


def _item(image, comp, lock, house, directory: Path):
    """How install_tier.py installs a component the lock did not resolve (None: the lock did)."""
    build = comp.build
    common = {"component": comp.name, "dist": comp.dist, "env": dict(build.get("env", {})),
              "soc_env": build.get("soc_env", "")}
    source = next((b for b in lock.source_builds if b["component"] == comp.name), None)
    if source:
        path = house.source_builds[comp.name]
        _link(path, directory / "files" / path.name)
        return {**common, "kind": "sdist", "file": path.name, "sha256": source["sha256"]}
    if comp.source == "archive":
        wheels = house.archives[comp.name]
        for wheel in wheels:
            _link(wheel, directory / "files" / wheel.name)
        return {**common, "kind": "wheels", "files": [wheel.name for wheel in wheels]}
    external = next((x for x in lock.externals if x["component"] == comp.name), None)
    if external is None:
        return None
    if needs_builder(comp):
        _copy_source(house.externals[comp.name], directory / "src" / comp.name)
        return {**common, "kind": "built"}
    if comp.source == "git":
        _copy_source(house.externals[comp.name], directory / "src" / comp.name)
        return {**common, "kind": "git", **comp.install, **({"import_path": comp.import_path} if comp.import_path else {})}
    wheel = house.externals[comp.name]
    _link(wheel, directory / "files" / wheel.name)
    # the lock's sha256, or (--allow-unverified) that of the bytes as served: install_tier checks the file
    sha256 = external.get("sha256") or next(u.sha256 for u in house.unverified if u.component == comp.name)
    return {**common, "kind": "index", "version": external["version"], "file": wheel.name, "sha256": sha256}


def _copy_source(source: Path, target: Path) -> None:
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".verified"))


def _patches(root: Path, image, target: Path) -> None:
    target.mkdir()
    for patch in image.patches:
        shutil.copyfile(root / patch.diff, target / Path(patch.diff).name)
    (target / "patches.json").write_text(json.dumps([p.as_dict() for p in image.patches], indent=1,
                                                    sort_keys=True) + "\n")


def _link(source: Path, target: Path) -> None:
    """Hard links keep a multi-GB wheelhouse from being copied for every build."""
    if target.exists():
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
