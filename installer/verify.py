#!/usr/bin/env python3
"""The last step of every image build: the installed stack is the pinned one; never shipped.

    python3 verify.py PINS_JSON

  versions   every distribution pins.json names is installed at its pinned release (a tree put on
             the import path instead: it is there and on the venv's sys.path)
  pip check  the installed set is consistent, except requirements on a distribution that
             a pin wins over (`wins_over`: numpy 1.26 under packages asking numpy>=2) or leaves out on
             purpose (`without`: e.g. triton, which xgrammar pulls in for GPUs)
  ldd        (NPU images) every native extension in the venv finds its shared libraries, except
             the driver libraries mounted into the container at run time (pins.json names them)
A failure fails the build, so a later install that moved an earlier pin never gets a tag.
"""

import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

VENV_PYTHON = os.environ.get("VERL_IMAGE_VENV", "/opt/venv") + "/bin/python"  # another: a host install


def installed_versions() -> dict:
    out = subprocess.run([VENV_PYTHON, "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
                         capture_output=True, text=True, check=True).stdout
    return {canonical(p["name"]): p["version"] for p in json.loads(out)}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def same_release(have: str, want: str) -> bool:
    """2.13.0+cpu is the 2.13.0 release; 2.13.1 is not."""
    return have == want or have.split("+", 1)[0] == want.split("+", 1)[0] and "+" not in want


def this_platform() -> str:
    """The docker platform this build runs as (pins.json marks components meant for one platform)."""
    return "linux/" + {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())


def check_versions(pins: dict, installed: dict) -> list:
    problems = []
    for role, comps in pins["stack"].items():
        for comp in comps:
            if this_platform() not in comp.get("platforms", [this_platform()]):
                continue
            if comp.get("import_path"):
                problems += check_import_path(role, comp)
                continue
            # an archive pins its wheels by the archive's sha256, not by their own versions
            want = None if comp.get("wheels") else comp.get("version")
            for dist in comp.get("wheels") or [comp["dist"]]:
                have = installed.get(canonical(dist))
                if have is None:
                    problems.append(f"{role}: {dist} is not installed (pinned {want or comp.get('commit') or comp['name']})")
                elif want and not same_release(have, want):
                    problems.append(f"{role}: {dist} is {have}, pinned {want}")
    for comp in pins.get("constraints", []):
        have = installed.get(canonical(comp["dist"]))
        if have is not None and comp.get("version") and not same_release(have, comp["version"]):
            problems.append(f"constraint: {comp['dist']} is {have}, pinned {comp['version']}")
    return problems


def check_import_path(role: str, comp: dict) -> list:
    """A tree put on the import path (not installed): it is there and the venv's interpreter sees it."""
    path = comp["import_path"]
    seen = subprocess.run([VENV_PYTHON, "-c", "import sys; print('\\n'.join(sys.path))"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    if not Path(path).is_dir():
        return [f"{role}: {comp['name']} should be at {path}, which does not exist"]
    if path not in seen:
        return [f"{role}: {comp['name']} is at {path}, which is not on the venv's import path"]
    return []


def check_consistency(pins: dict) -> list:
    overridden = {canonical(name) for name in pins.get("wins_over", [])}
    left_out = {canonical(name) for name in pins.get("without", [])}
    result = subprocess.run([VENV_PYTHON, "-m", "pip", "check", "--disable-pip-version-check"],
                            capture_output=True, text=True)
    problems = []
    for line in result.stdout.splitlines():
        match = re.match(r"(\S+) \S+ (?:has requirement|requires) (\S+?)[<>=!~ ,;]", line + " ")
        if match and canonical(match.group(2)) in overridden:
            print(f"verify: allowed (pins.yaml: {match.group(2)} wins over it): {line}")
            continue
        missing = re.match(r"\S+ \S+ requires (\S+), which is not installed", line)
        if missing and canonical(missing.group(1)) in left_out:
            print(f"verify: allowed (pins.yaml leaves {missing.group(1)} out): {line}")
            continue
        if line.startswith("No broken requirements"):
            continue
        problems.append(f"pip check: {line}")
    return problems


def native_extensions(root: Path):
    for path in root.rglob("*.so*"):
        if path.is_file() and not path.is_symlink():
            yield path


def site_packages() -> Path:
    return Path(subprocess.run([VENV_PYTHON, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())


def check_libraries(pins: dict) -> list:
    """NPU images: ldd of every native extension; libraries packages load for each other (torch's
    libtorch.so for its extensions) are searched where they live in site-packages."""
    if pins["device"] != "npu":
        return []
    mounted = set(pins.get("mounted_libraries", []))
    site = site_packages()
    extensions = list(native_extensions(site))
    search = sorted({str(path.parent) for path in extensions})
    env = dict(os.environ, LD_LIBRARY_PATH=":".join([os.environ.get("LD_LIBRARY_PATH", ""), *search]))
    problems, checked = [], 0
    for path in extensions:
        result = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env)
        if "not a dynamic executable" in result.stdout + result.stderr:
            continue
        checked += 1
        for line in result.stdout.splitlines():
            if "=> not found" in line:
                library = line.split("=>")[0].strip()
                if library not in mounted:
                    problems.append(f"ldd: {path.relative_to(site)} needs {library}, which is not in the image")
    print(f"verify: ldd checked {checked} native extensions", flush=True)
    return problems


def main(pins_path: str) -> int:
    pins = json.loads(Path(pins_path).read_text())
    problems = check_versions(pins, installed_versions()) + check_consistency(pins) + check_libraries(pins)
    for problem in problems:
        print(f"verify: {problem}", file=sys.stderr)
    if problems:
        print(f"verify: {len(problems)} problem(s): the image does not hold the pinned stack", file=sys.stderr)
        return 1
    print("verify: pinned versions installed, requirements consistent, native libraries resolve", flush=True)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("LANG", "C.UTF-8")
    sys.exit(main(sys.argv[1]))
