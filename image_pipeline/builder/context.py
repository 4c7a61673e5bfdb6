"""Assemble the build context of one image for one platform.

Layout (the rendered Dockerfile bind-mounts these names):
  Dockerfile, pins.json        rendered in memory (equal to images/<name>/, checked before)
  installer/                   install_tier.py, cross_install.py, build_wheels.py, settle.py, verify.py,
                               check_env.py: run during the build only
  tiers/<n>-<tier>/<layer>/    one directory per layer of the tier (render/install_plan.py): deps-<dist>
                               (a large dependency), deps (the others), pins-<component>; each
                               holds requirements.txt (hash-pinned), files/ (hard links into the
                               cache), sources.json (what the lock did not resolve: pinned sdists,
                               externals, the wheels of archives) and src/<component>/ (git trees)
  patches/                     the image's diffs + patches.json
  payload/, smoke_tests/       copied into the image
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from ..files import link_or_copy
from ..lock import lockfile
from ..paths import INSTALLER, PAYLOAD, SMOKE
from ..render import install_plan, layers
from ..render.host_plan import FETCH

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
    for part in install_plan.parts(image, platform, lock, layers.locked_own_layers(root, image)):  # every tier the Dockerfile mounts
        _part(image, part, house, target / "tiers" / part.slug)
    return target


def _part(image, part, house, directory: Path) -> None:
    """The directory one layer's install_tier.py run reads."""
    (directory / "files").mkdir(parents=True, exist_ok=True)
    for entry in part.entries:
        link_or_copy(house.files[entry.name], directory / "files" / entry.artifact.name)
    items = [_materialize(item, house, directory) for item in part.items]
    (directory / "requirements.txt").write_text(part.requirements())
    (directory / "sources.json").write_text(json.dumps(part.sources(image, items), indent=1, sort_keys=True) + "\n")


def _materialize(item: dict, house, directory: Path) -> dict:
    """Put what an item installs from into the part's directory (from the wheelhouse)."""
    name = item["component"]
    if item["kind"] == "sdist" and item.get(FETCH, {}).get("locked"):
        link_or_copy(house.files[item[FETCH]["locked"]], directory / "files" / item["file"])
    elif item["kind"] == "sdist":
        link_or_copy(house.source_builds[name], directory / "files" / item["file"])
    elif item["kind"] == "wheels":
        for wheel in house.archives[name]:
            link_or_copy(wheel, directory / "files" / wheel.name)
        return {**item, "files": [wheel.name for wheel in house.archives[name]]}
    elif item["kind"] in ("built", "git"):
        _copy_source(house.externals[name], directory / "src" / name)
    else:
        wheel = house.externals[name]
        link_or_copy(wheel, directory / "files" / wheel.name)
        # the lock's sha256, or (--allow-unverified) that of the bytes as served: install_tier checks the file
        sha256 = item["sha256"] or next(u.sha256 for u in house.unverified if u.component == name)
        return {**item, "file": wheel.name, "sha256": sha256}
    return item


def _copy_source(source: Path, target: Path) -> None:
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".verified"))


def _patches(root: Path, image, target: Path) -> None:
    target.mkdir()
    for patch in image.patches:
        shutil.copyfile(root / patch.diff, target / Path(patch.diff).name)
    (target / "patches.json").write_text(json.dumps([p.as_dict() for p in image.patches], indent=1,
                                                    sort_keys=True) + "\n")
