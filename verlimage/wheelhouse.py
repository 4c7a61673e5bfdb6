"""Host-side downloads an image installs offline: the wheelhouse and url artifacts.

`pip download` runs on the host with the host's own pip configuration (credentials
stay there); the image installs with --no-index from the copy in its build context.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from .errors import UserError
from .paths import CACHE_DIR

PLATFORM_TAGS = {"linux/amd64": "x86_64", "linux/arm64": "aarch64"}


def host_platform() -> str:
    machine = os.uname().machine
    for platform, arch in PLATFORM_TAGS.items():
        if arch == machine:
            return platform
    raise UserError(f"unsupported host architecture {machine}")


def requirements(image) -> list:
    return [f"{c.dist}=={c.version}" for c in image.stack.values() if c.source == "pypi"]


def wheelhouse_dir(image, platform: str, cache: Path = CACHE_DIR) -> Path:
    return cache / "wheelhouse" / image.name / platform.replace("/", "-")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure_wheelhouse(image, platform: str | None = None, cache: Path = CACHE_DIR, log=print) -> Path:
    """Download (once) every pinned wheel of the image, with dependencies, for a platform."""
    platform = platform or host_platform()
    target = wheelhouse_dir(image, platform, cache)
    wanted = requirements(image)
    index = target / "wheelhouse.json"
    if index.exists() and json.loads(index.read_text()).get("requirements") == wanted:
        log(f"wheelhouse {target}: up to date ({len(wanted)} pins)")
        return target
    log(f"wheelhouse {target}: downloading {len(wanted)} pins and their dependencies for {platform}")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{image.name}-", dir=target.parent))
    try:
        torch = image.stack.get("torch")
        if torch is not None and torch.source == "pypi":
            _download_torch(torch, platform, image.python, staging, log)
        (staging / "requirements.txt").write_text("\n".join(wanted) + "\n")
        _pip_download(["-r", str(staging / "requirements.txt"), "--find-links", str(staging)], platform,
                      image.python, staging)
        _build_sdists(staging, platform, image.python)
        files = {p.name: sha256_file(p) for p in sorted(staging.glob("*.whl"))}
        (staging / "wheelhouse.json").write_text(json.dumps(
            {"requirements": wanted, "platform": platform, "files": files}, indent=1, sort_keys=True) + "\n")
        if target.exists():
            shutil.rmtree(target)
        os.replace(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    log(f"wheelhouse {target}: {len(files)} wheels, {_size(target)}")
    return target


def _download_torch(torch, platform, python, dest, log) -> None:
    """On x86_64 PyPI's torch is a multi-GB CUDA build: take the CPU build from its index first."""
    spec = f"torch=={torch.version}"
    if PLATFORM_TAGS[platform] == "x86_64" and torch.cpu_index:
        try:
            _pip_download(["--no-deps", spec, "--index-url", torch.cpu_index], platform, python, dest)
        except UserError:
            log(f"wheelhouse: {torch.cpu_index} did not answer; trying the host's own pip configuration")
            _pip_download(["--no-deps", spec], platform, python, dest)
        wheels = list(dest.glob("torch-*.whl"))
        if not any("+cpu" in w.name for w in wheels):
            raise UserError(f"got {', '.join(w.name for w in wheels)}, not a CPU build of torch: point "
                            f"--index-url at an index with torch {torch.version}+cpu", key="torch")
    else:
        _pip_download(["--no-deps", spec], platform, python, dest)


def _pip_download(args, platform, python, dest) -> None:
    cmd = [sys.executable, "-m", "pip", "download", "--dest", str(dest), "--progress-bar", "off", *args]
    if _cross(platform, python):
        arch = PLATFORM_TAGS[platform]
        cmd += ["--only-binary=:all:", "--platform", f"manylinux_2_28_{arch}", "--platform",
                f"manylinux2014_{arch}", "--python-version", python, "--implementation", "cp"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode:
        last = (result.stderr.strip().splitlines() or ["pip failed"])[-1]
        raise UserError(f"pip download failed: {last}", key="wheelhouse")


def _cross(platform: str, python: str) -> bool:
    """True when the image's wheels cannot be resolved by running this host's pip as is."""
    return platform != host_platform() or python != "%d.%d" % sys.version_info[:2]


def _build_sdists(directory: Path, platform: str, python: str) -> None:
    """Turn downloaded sdists into wheels so the image never builds anything."""
    sdists = [p for p in directory.iterdir() if p.name.endswith((".tar.gz", ".zip"))]
    if sdists and _cross(platform, python):
        raise UserError(f"{sdists[0].name} has no {platform} wheel and cannot be built on this host",
                        key="wheelhouse")
    for sdist in sdists:
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(directory), str(sdist)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode:
            raise UserError(f"could not build a wheel from {sdist.name}", key="wheelhouse")
        sdist.unlink()


def _size(directory: Path) -> str:
    total = sum(p.stat().st_size for p in directory.iterdir() if p.is_file())
    return f"{total / 2**20:.0f} MiB"


def ensure_artifacts(image, cache: Path = CACHE_DIR, log=print) -> list:
    """Download every url component once, verified against its sha256; return the files."""
    files = []
    for comp in image.stack.values():
        if comp.source != "url":
            continue
        target = cache / "artifacts" / comp.url.rsplit("/", 1)[1]
        if not (target.exists() and sha256_file(target) == comp.sha256):
            log(f"artifact {comp.name}: downloading {comp.url}")
            _download(comp, target)
        files.append(target)
    return files


def _download(comp, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(target.suffix + ".part")
    try:
        with urllib.request.urlopen(comp.url, timeout=60) as response, open(tmp, "wb") as out:
            shutil.copyfileobj(response, out)
    except OSError as exc:
        raise UserError(f"download failed: {exc}", key=f"components.{comp.name}.url") from None
    found = sha256_file(tmp)
    if found != comp.sha256:
        tmp.unlink()
        raise UserError(f"sha256 mismatch for {comp.url}: expected {comp.sha256}, found {found}",
                        key=f"components.{comp.name}.sha256")
    os.replace(tmp, target)
