"""`build.py patch-check`: will each declared patch still apply to the pinned upstream?

Runs the very code the image build runs (payload/python/verl_image/patching.py, loaded from
its file when needed) against a local install (--site) or the pinned release's wheel.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from packaging.utils import canonicalize_name

from ..errors import UserError
from ..paths import PAYLOAD, REPO

STATES = {"applies": "ok: fingerprint matches, the diff applies",
          "already": "ok: already applied",
          "obsolete": "OBSOLETE: upstream already contains the change; remove the patch"}


@functools.lru_cache(maxsize=1)
def patching():
    """payload/python/verl_image/patching.py, the module apply_patches.py uses in the build."""
    path = REPO / PAYLOAD / "python" / "verl_image" / "patching.py"
    spec = importlib.util.spec_from_file_location("verl_image_patching", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def pinned_version(manifest, patch) -> str:
    versions = {c.version for img in manifest.images.values() if patch in img.patches
                for c in img.components if c.dist == canonicalize_name(patch.package)}
    if len(versions) != 1:
        raise UserError(f"patch {patch.name}: {patch.package} is pinned at {sorted(versions)} across images")
    return versions.pop()


def check_all(manifest, root: Path, site: Path | None = None, log=print) -> int:
    failed = 0
    for patch in manifest.patches.values():
        diff = (root / patch.diff).read_text()
        try:
            with _target(manifest, patch, site) as (path, where):
                state = patching().check(patch.name, path, patch.sha256, diff)
            log(f"{patch.name} ({where}): {STATES[state]}")
        except patching().PatchError as exc:
            failed += 1
            log(f"{patch.name}: FAILED: {exc}")
    return 1 if failed else 0


def applies(manifest, root: Path, patch) -> bool:
    """Whether the patch applies (or is already in) the pinned release's wheel."""
    try:
        with _target(manifest, patch, None) as (path, _):
            patching().check(patch.name, path, patch.sha256, (root / patch.diff).read_text())
        return True
    except patching().PatchError:
        return False


@contextlib.contextmanager
def _target(manifest, patch, site):
    """(file path, description) of the patch's target: in --site, or in the pinned release's wheel."""
    if site:
        path = Path(site) / patch.file
        if not path.is_file():
            raise patching().PatchError(f"{path} does not exist")
        yield path, str(site)
        return
    version = pinned_version(manifest, patch)
    with tempfile.TemporaryDirectory(prefix="patch-check-") as tmp:
        wheel = _download_wheel(patch.package, version, Path(tmp))
        with zipfile.ZipFile(wheel) as archive:
            try:
                archive.extract(patch.file, tmp)
            except KeyError:
                raise patching().PatchError(f"{wheel.name} has no {patch.file}") from None
        yield Path(tmp) / patch.file, wheel.name


def _download_wheel(package: str, version: str, dest: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--dest", str(dest),
           f"{package}=={version}"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    wheels = list(dest.glob("*.whl"))
    if result.returncode or not wheels:
        raise UserError(f"could not download {package}=={version}: "
                        f"{(result.stderr.strip().splitlines() or ['?'])[-1]}")
    return wheels[0]
