"""Stack conformance: the image holds exactly what its pins.json says."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata as md
import os
import sys
from pathlib import Path

from packaging.version import Version

from .config import SYNC_DEFAULTS, VERL_SOURCES


def version_problems(pins: dict) -> tuple:
    """Every pinned distribution at its pinned version. Returns (problems, lines)."""
    problems, lines = [], []
    want_python = pins["python"]
    have_python = "%d.%d" % sys.version_info[:2]
    lines.append(f"python {have_python} (pinned {want_python})")
    if have_python != want_python:
        problems.append(f"python is {have_python}, pinned {want_python}")
    for role, comp in pins["stack"].items():
        dist = comp.get("dist") or comp.get("package")
        if not dist:
            continue
        try:
            have = md.version(dist)
        except md.PackageNotFoundError:
            problems.append(f"{role}: {dist} is not installed (pinned {comp.get('version') or comp.get('tag')})")
            continue
        want = comp.get("version")
        ok = want is None or _same_release(have, want)
        lines.append(f"{role}: {dist} {have}" + (f" (pinned {want})" if want else f" (from {comp.get('tag') or comp.get('branch')})")
                     + ("" if ok else "  <-- MISMATCH"))
        if not ok:
            problems.append(f"{role}: {dist} is {have}, pinned {want}")
    return problems, lines


def _same_release(have: str, want: str) -> bool:
    """2.13.0+cpu satisfies a 2.13.0 pin (same release, a local build label); 2.13.1 does not."""
    have_v, want_v = Version(have), Version(want)
    return have_v == want_v if want_v.local else have_v.public == want_v.public


def external_modules() -> tuple:
    """import verl under the image's VERL_USE_EXTERNAL_MODULES; every listed module must load."""
    value = os.environ.get("VERL_USE_EXTERNAL_MODULES", "")
    wanted = [m for m in value.split(",") if m]
    try:
        import verl  # noqa: F401  (imports every module in VERL_USE_EXTERNAL_MODULES)
    except Exception as exc:
        bad = next((m for m in wanted if not _importable(m)), None)
        cause = f"module {bad!r} failed to import" if bad else "import verl failed"
        return [f"VERL_USE_EXTERNAL_MODULES={value!r}: {cause}: {type(exc).__name__}: {exc}"], []
    missing = [m for m in wanted if m not in sys.modules]
    problems = [f"VERL_USE_EXTERNAL_MODULES lists {m!r} but import verl did not load it" for m in missing]
    from verl.utils.device import get_device_name

    lines = [f"VERL_USE_EXTERNAL_MODULES={value!r}: loaded {', '.join(wanted) or 'nothing'}",
             f"verl {verl.__version__}: device {get_device_name()!r}"]
    return problems, lines


def _importable(module: str) -> bool:
    try:
        importlib.import_module(module)
        return True
    except Exception:
        return False


def stack_imports(device) -> tuple:
    """megatron.core, mooncake.engine and (NPU) torch_npu import; device facts are reported."""
    problems, lines = [], []
    modules = ["megatron.core", "mooncake.engine"] + (["torch_npu"] if device.kind == "npu" else [])
    for module in modules:
        try:
            importlib.import_module(module)
            lines.append(f"import {module}: ok")
        except Exception as exc:
            problems.append(f"import {module} failed: {type(exc).__name__}: {exc}")
    if device.kind == "npu":
        import torch

        lines.append(f"npu devices: {torch.npu.device_count()}, CANN {cann_version()}")
    lines.append(f"device: {device.kind} (collectives {device.collective_backend}, mooncake {device.mooncake_protocol})")
    return problems, lines


def cann_version() -> str:
    for info in Path("/usr/local/Ascend/ascend-toolkit/latest").glob("*/ascend_toolkit_install.info"):
        for line in info.read_text().splitlines():
            if line.startswith("version="):
                return line.split("=", 1)[1]
    return "unknown (no ascend_toolkit_install.info)"


def verl_defaults() -> tuple:
    """verl's checkpoint-engine defaults still equal ours (smoke_tests.config), read from its source."""
    import importlib.util

    spec = importlib.util.find_spec("verl")
    root = Path(spec.origin).parent
    problems, lines = [], []
    for name, (rel, cls, func) in VERL_SOURCES.items():
        found = _default_in_source(root / rel, cls, func, name)
        want = getattr(SYNC_DEFAULTS, name)
        lines.append(f"{name}: verl {found!r}, ours {want!r} ({rel})")
        if found != want:
            problems.append(f"{name}: verl's default is {found!r} ({rel}:{cls}), smoke_tests.config says {want!r}")
    return problems, lines


def _default_in_source(path: Path, cls: str, func, name: str):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            if func is None:
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and getattr(item.target, "id", None) == name:
                        return ast.literal_eval(item.value)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == func:
                    args = item.args.args[-len(item.args.defaults):] if item.args.defaults else []
                    for arg, default in zip(args, item.args.defaults):
                        if arg.arg == name:
                            return ast.literal_eval(default)
                    for arg, default in zip(item.args.kwonlyargs, item.args.kw_defaults):
                        if arg.arg == name and default is not None:
                            return ast.literal_eval(default)
    return "<not found>"
