#!/usr/bin/env python3
"""Install one tier (one image layer) into /opt/venv during `docker build`; never shipped.

    python3 install_tier.py TIER_DIR

TIER_DIR (bind-mounted from the build context) holds:
  requirements.txt  the tier's locked packages, one `name==version --hash=sha256:...` per line
  files/            their wheels and sdists, downloaded and verified on the host
  sources.json      what is not resolved by the lock: pinned sdists built from source, index
                    externals (installed pinned, --no-deps, their file checked against the
                    sha256 the lock recorded), the wheels of archives, git trees
                    under src/ (installed from a subdirectory, with another pyproject.toml
                    swapped in where pins.yaml says, or put on the import path by a .pth where
                    upstream uses PYTHONPATH) and wheels a builder stage made (mounted
                    at /tmp/tier-built/<component>)
No resolver runs here: every pip call is --no-index --no-deps, locked packages with
--require-hashes. Compilers for source builds are installed and purged in this same step,
so none reaches a layer.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

VENV = os.environ.get("VERL_IMAGE_VENV", "/opt/venv")  # another venv: the project's tests, host_install.py
# --use-pep517: an sdist with only a setup.py is built into a wheel too (pip 23.0 would run `setup.py install`
# where the `wheel` package is absent, leaving an egg-info without RECORD), so every sdist installs the wheel
# installer/build_wheels.py builds of it with these same flags.
PIP_FLAGS = ["--no-index", "--no-deps", "--no-build-isolation", "--use-pep517", "--disable-pip-version-check",
             "--no-cache-dir", "--progress-bar", "off"]
PIP = [f"{VENV}/bin/python", "-m", "pip", "install", *PIP_FLAGS]


def run(cmd, env=None):
    print("+ " + " ".join(cmd), flush=True)
    result = subprocess.run(cmd, env={**os.environ, **(env or {})})
    if result.returncode:
        sys.exit(f"install_tier: `{' '.join(cmd[:6])} ...` failed with exit code {result.returncode}")


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def is_sdist(name: str) -> bool:
    return name.endswith((".tar.gz", ".zip"))


def from_source(item: dict) -> bool:
    """Whether a sources.json item installs an sdist, which pip builds into a wheel first."""
    return item["kind"] == "sdist" or (item["kind"] == "index" and is_sdist(item["file"]))


def pinned_file(tier: Path, item: dict, script: str) -> Path:
    """The item's file under files/, which must have the sha256 its pin names."""
    path = tier / "files" / item["file"]
    found = sha256(path)
    if found != item["sha256"]:
        sys.exit(f"{script}: {item['file']} has sha256 {found}, pinned {item['sha256']}")
    return path


def missing(packages):
    """The packages not installed yet: only those are installed for a build and purged after it."""
    out = []
    for package in packages:
        status = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
        if status.stdout.strip() != "install ok installed":
            out.append(package)
    return out


def apt(packages, action):
    if not packages:
        return
    if action == "install":
        run(["apt-get", "update", "-q"])
        run(["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages])
    else:
        run(["apt-get", "purge", "-y", "-q", "--auto-remove", *packages])
        shutil.rmtree("/var/lib/apt/lists", ignore_errors=True)
        os.makedirs("/var/lib/apt/lists/partial", exist_ok=True)


def install(tier: Path) -> None:
    sources = json.loads((tier / "sources.json").read_text())
    locked = [line for line in (tier / "requirements.txt").read_text().splitlines() if line.strip()]
    build_packages = missing(sources.get("apt_build", [])) if sources.get("compile") else []
    apt(build_packages, "install")
    if locked:
        run([*PIP, "--find-links", str(tier / "files"), "--require-hashes", "-r", str(tier / "requirements.txt")])
    for item in sources.get("items", []):
        install_item(tier, item, sources.get("soc_version", ""))
    apt(build_packages, "purge")
    print(f"install_tier: {tier.name}: {len(locked)} locked packages, {len(sources.get('items', []))} from source",
          flush=True)


def item_env(item: dict, soc_version: str) -> dict:
    """The environment an item builds in: pins.yaml's build env, and the SoC where the build needs it."""
    env = dict(item.get("env", {}))
    if item.get("soc_env"):
        if not soc_version:
            sys.exit(f"install_tier: {item['dist']} needs {item['soc_env']} but the image has no soc_version")
        env[item["soc_env"]] = soc_version
    return env


def install_item(tier: Path, item: dict, soc_version: str) -> None:
    env = item_env(item, soc_version)
    if item["kind"] in ("sdist", "index"):
        run([*PIP, str(pinned_file(tier, item, "install_tier"))], env)
    elif item["kind"] == "built":
        wheels = sorted(Path("/tmp/tier-built", item["component"]).glob("*.whl"))
        if len(wheels) != 1:
            sys.exit(f"install_tier: the builder stage of {item['component']} left {len(wheels)} wheels, not one")
        run([*PIP, str(wheels[0])], env)
    elif item["kind"] == "wheels":
        run([*PIP, *(str(tier / "files" / name) for name in item["files"])], env)
    elif item["kind"] == "git" and item.get("import_path"):
        put_on_import_path(tier / "src" / item["component"] / item["path"], Path(item["import_path"]), item["component"])
    elif item["kind"] == "git":
        source = tier / "src" / item["component"]
        work = Path("/tmp/build-src") / item["component"]
        shutil.copytree(source, work, symlinks=True)  # the bind mount is read-only; builds write into their tree
        project = work / item.get("subdirectory", "")
        if item.get("pyproject"):
            shutil.copyfile(work / item["pyproject"], project / "pyproject.toml")
        run([*PIP, str(project)], env)
        shutil.rmtree(work)
    else:
        sys.exit(f"install_tier: unknown source kind {item['kind']!r}")


def put_on_import_path(tree: Path, target: Path, name: str) -> None:
    """A tree upstream puts on PYTHONPATH instead of installing: copied to `target` and listed in a .pth of
    the venv, so every interpreter of the venv imports it whatever launched it (no ENV to lose)."""
    if target.exists():
        sys.exit(f"install_tier: {target} already exists; {name} would be put on the import path twice")
    shutil.copytree(tree, target, symlinks=True)
    site = subprocess.run([f"{VENV}/bin/python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, f"{name}.pth").write_text(f"{target}\n")
    print(f"install_tier: {name}: {target} is on the import path ({Path(site, name + '.pth')})", flush=True)


if __name__ == "__main__":
    install(Path(sys.argv[1]))
