#!/usr/bin/env python3
"""Build one layer's sdists into wheels on the target platform; never shipped.

    python3 build_wheels.py TIER_DIR OUT

Runs in a stage FROM the image as it stands before the layer (so the build finds what install_tier.py's
`pip install` of the sdist would: the venv's build backends, torch for vLLM's setup.py), under QEMU on a
foreign platform. A build runs target code; installing its wheel does not: installer/cross_install.py
then unpacks each wheel on the build platform, as it does the layer's other wheels, and writes what pip
installing the sdist in the image writes. Each sdist is checked against the sha256 its requirements line or
sources.json item names first; its wheel goes to OUT/<that sha256>/, where cross_install.py looks for it.
The environment is install_tier.py's for the same item (pins.yaml build env, the SoC); the compilers a
build needs (sources.json apt_build) are installed here and never reach a layer: this stage never ships.
"""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from install_tier import PIP_FLAGS, VENV, apt, from_source, is_sdist, item_env, missing, pinned_file, run, sha256  # noqa: E402

PIP_WHEEL = [f"{VENV}/bin/python", "-m", "pip", "wheel", *PIP_FLAGS]


def locked_sdists(tier: Path) -> list:
    """(path, sha256) of each sdist the requirements lines lock: the file of files/ with the line's sha256."""
    by_hash = {sha256(path): path for path in (tier / "files").iterdir() if is_sdist(path.name)}
    out = []
    for line in (tier / "requirements.txt").read_text().splitlines():
        digest = line.partition(" --hash=sha256:")[2].strip()
        if digest in by_hash:
            out.append((by_hash[digest], digest))
    return out


def item_sdists(tier: Path, items: list, soc_version: str) -> list:
    """(path, sha256, env) of each sources.json item that installs an sdist; its file must have its sha256."""
    return [(pinned_file(tier, item, "build_wheels"), item["sha256"], item_env(item, soc_version))
            for item in items if from_source(item)]


def main(tier: Path, out: Path) -> None:
    sources = json.loads((tier / "sources.json").read_text())
    builds = [(path, digest, {}) for path, digest in locked_sdists(tier)]
    builds += item_sdists(tier, sources.get("items", []), sources.get("soc_version", ""))
    apt(missing(sources.get("apt_build", [])) if builds and sources.get("compile") else [], "install")
    for path, digest, env in builds:
        run([*PIP_WHEEL, "--wheel-dir", str(out / digest), str(path)], env)
        wheels = list((out / digest).glob("*.whl"))
        if len(wheels) != 1:
            sys.exit(f"build_wheels: {path.name} built {len(wheels)} wheels, not one")
    out.mkdir(parents=True, exist_ok=True)
    print(f"build_wheels: {tier.name}: {len(builds)} sdists built into wheels", flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
