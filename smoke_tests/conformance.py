"""Conformance: the image holds what its pins.json says, and runs on the device it names."""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata as md
import inspect
import json
import os
import platform
import sys
from dataclasses import MISSING, fields, is_dataclass
from pathlib import Path

from packaging.version import Version

from .device import cann_version
from .outcome import judged
from .plan import alternatives, load_checks, required_imports, select

DEFAULTS_FILE = Path(__file__).with_name("checkpoint_defaults.json")
PATCH_MARKERS = Path(sys.prefix) / "verl-image-patches"


def _same_release(have: str, want: str) -> bool:
    """2.13.0+cpu is the 2.13.0 release; 2.13.1 is not."""
    have_v, want_v = Version(have), Version(want)
    return have_v == want_v if want_v.local else have_v.public == want_v.public


def versions(ctx):
    """Every pinned distribution at its pinned release, and python as pinned."""
    if "hang" in ctx.faults:
        import time

        time.sleep(3600)  # the fault the runner's timeout must catch
    pins = ctx.pins
    problems, lines = [], []
    have_python = "%d.%d" % sys.version_info[:2]
    lines.append(f"python {have_python} (pinned {pins['python']})")
    if have_python != pins["python"]:
        problems.append(f"python is {have_python}, pinned {pins['python']}")
    here = "linux/" + {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    for role, comps in pins["stack"].items():
        for comp in comps:
            if here not in comp.get("platforms", [here]):
                continue  # the build of another platform (pins.json lists every platform's)
            if comp.get("import_path"):
                on_path = comp["import_path"] in sys.path and Path(comp["import_path"]).is_dir()
                lines.append(f"{role}: {comp['name']} on the import path at {comp['import_path']}"
                             + ("" if on_path else "  <-- MISSING"))
                if not on_path:
                    problems.append(f"{role}: {comp['name']} is not on the import path at {comp['import_path']}")
                continue
            # an archive pins its wheels by the archive's sha256, not by their own versions
            want = None if comp.get("wheels") else comp.get("version")
            for dist in comp.get("wheels") or [comp["dist"]]:
                try:
                    have = md.version(dist)
                except md.PackageNotFoundError:
                    problems.append(f"{role}: {dist} is not installed (pinned {want or comp.get('commit') or comp['name']})")
                    continue
                ok = want is None or _same_release(have, want)
                lines.append(f"{role}: {dist} {have}" + (f" (pinned {want})" if want else "")
                             + ("" if ok else "  <-- MISMATCH"))
                if not ok:
                    problems.append(f"{role}: {dist} is {have}, pinned {want}")
    return judged("conformance.versions", problems, lines)


def environment(ctx):
    """The pinned ENV holds in this process, whatever launched it (no entrypoint needed)."""
    problems, lines = [], []
    for key, want in ctx.pins["env"].items():
        have = os.environ.get(key)
        lines.append(f"{key}={have!r}")
        if have is None:
            problems.append(f"{key} is not set (pinned {want!r}): the image needs its entrypoint for it")
        elif "${" not in want and have != want:
            problems.append(f"{key} is {have!r}, pinned {want!r}")
    if ctx.pins["device"] == "npu":
        home = os.environ.get("ASCEND_TOOLKIT_HOME") or os.environ.get("ASCEND_HOME_PATH")
        if not home or not Path(home).is_dir():
            problems.append("the CANN toolkit is not in the environment (ASCEND_TOOLKIT_HOME/ASCEND_HOME_PATH)")
        else:
            lines.append(f"CANN toolkit at {home}")
    return judged("conformance.environment", problems, lines)


def verl_defaults(ctx):
    """Each documented checkpoint-engine setting equals verl's own default (its classes, not our copy)."""
    os.environ["VERL_USE_EXTERNAL_MODULES"] = ""  # defaults, not plugins: no device needed here
    from .sync.adapt import prepare_engines

    prepare_engines(ctx.pins["device"], require_device=False)
    problems, lines = [], []
    for row in json.loads(DEFAULTS_FILE.read_text()):
        if not set(row.get("roles", ())) <= set(ctx.pins["stack"]):
            lines.append(f"{row['setting']}: not in this image (its engine needs {', '.join(row['roles'])})")
            continue
        found = _default(row["where"])
        lines.append(f"{row['setting']}: verl {found!r} ({row['where']}), documented {row['value']!r}")
        if found != row["value"]:
            problems.append(f"{row['setting']}: verl's default is {found!r} ({row['where']}), the README says "
                            f"{row['value']!r}")
    return judged("conformance.verl_defaults", problems, lines)


def _default(where: str):
    """module:Class.field (a dataclass field) or module:Class.method.param (a parameter default)."""
    module, _, path = where.partition(":")
    parts = path.split(".")
    owner = getattr(importlib.import_module(module), parts[0])
    if len(parts) == 2 and is_dataclass(owner):
        field = next(f for f in fields(owner) if f.name == parts[1])
        value = field.default if field.default is not MISSING else field.default_factory()
    else:
        parameter = inspect.signature(getattr(owner, parts[1])).parameters[parts[2]]
        value = parameter.default
    return str(value).removeprefix("torch.") if type(value).__name__ == "dtype" else value


def patches(ctx):
    """Every declared patch applied (marker present) and the file still as patched."""
    problems, lines = [], []
    for patch in ctx.pins.get("patches", []):
        marker = PATCH_MARKERS / f"{patch['name']}.json"
        if not marker.exists():
            problems.append(f"patch {patch['name']}: not applied (no {marker})")
            continue
        record = json.loads(marker.read_text())
        target = Path(record["path"])
        found = hashlib.sha256(target.read_bytes()).hexdigest() if target.exists() else "missing"
        if record["state"] == "applied" and found != record["patched_sha256"]:
            problems.append(f"patch {patch['name']}: {target} changed after patching (sha256 {found})")
        lines.append(f"patch {patch['name']}: {record['state']} on {record['file']}")
    if not ctx.pins.get("patches"):
        lines.append("no patches declared for this image")
    return judged("conformance.patches", problems, lines)


# what the build bind-mounts or could leave behind: BuildKit leaves the mount points, empty
LEFTOVERS = ("/tmp/tier", "/tmp/tier-built", "/tmp/build-src", "/tmp/patches", "/tmp/payload", "/tmp/netprofile",
             "/etc/pip.conf", "/etc/xdg/pip/pip.conf", "/root/.config/pip", "/root/.pip", "/root/.netrc",
             "/root/.cache/pip")


def leftovers(ctx):
    """Nothing of the build in the image: files under its mount points, pip settings (which may hold an
    index's credentials) or caches. Only inside an image: on a host these are the user's."""
    problems, lines = [], []
    for place in map(Path, LEFTOVERS):
        found = [place] if place.is_file() else [p for p in place.rglob("*") if p.is_file()] if place.is_dir() else []
        lines.append(f"{place}: {len(found)} file(s)" if found else f"{place}: clean")
        problems += [f"{path} is in the image" for path in found[:3]]
    return judged("conformance.leftovers", problems, lines)


def device(ctx):
    """The device the pins name is the one this container has, at the pinned CANN release."""
    from . import device as devices

    problems, lines = [], []
    found = devices.for_pins(ctx.pins)  # on NPU: torch_npu imports and sees an NPU, or this raises
    lines.append(f"device {found.kind} (pinned {ctx.pins['device']})")
    if found.kind != ctx.pins["device"]:
        problems.append(f"the checks would run on {found.kind}, pinned {ctx.pins['device']}")
    if ctx.pins["device"] == "npu":
        import torch

        lines.append(f"{torch.npu.device_count()} NPU(s): {torch.npu.get_device_name(0)}")
        have = cann_version()
        lines.append(f"CANN {have} (pinned {ctx.pins['cann_version']})")
        if not have.startswith(ctx.pins["cann_version"]):
            problems.append(f"CANN is {have}, pinned {ctx.pins['cann_version']}")
    return judged("conformance.device", problems, lines)


def imports(ctx):
    """Everything the image's checks import (checks.json `imports`, and what `modules` says those need),
    on the device; and the checkpoint engines its sync checks drive are registered."""
    from .sync.adapt import prepare_engines

    device_kind, roles = ctx.pins["device"], ctx.pins["stack"]
    prepare_engines(device_kind)
    chosen = select(load_checks(), device_kind, "", True, roles)
    problems, lines = [], []
    for module, users in required_imports(chosen, device_kind, roles).items():
        found, failures = _import_first(alternatives(module))
        if found:
            lines.append(f"import {found}: ok" + (f" (the first of {module})" if found != module else ""))
        else:
            problems.append(f"import {' or '.join(failures)} failed (needed by {', '.join(users)})")
    from verl.checkpoint_engine import CheckpointEngineRegistry

    for backend in dict.fromkeys(c.engine for c in chosen if c.engine):
        try:
            lines.append(f"checkpoint engine {backend!r}: {CheckpointEngineRegistry.get(backend).__name__}")
        except ValueError as exc:
            problems.append(str(exc)[:300])
    return judged("conformance.imports", problems, lines)


def _import_first(modules: list) -> tuple:
    """(the first module that imports or "", each failure as `module: error`)."""
    failures = []
    for module in modules:
        try:
            importlib.import_module(module)
            return module, failures
        except Exception as exc:
            failures.append(f"{module} ({type(exc).__name__}: {exc})")
    return "", failures


def pip_index(ctx):
    """pip's configuration in the image, or in the environment a host install made, names the index the
    image's torch came from (pins.json pip_extra_index), so `pip install <something needing torch>` keeps
    the installed build."""
    import subprocess

    arch = {"x86_64": "amd64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    wanted = (ctx.pins.get("pip_extra_index") or {}).get(f"linux/{arch}", "")
    env = dict(os.environ, PIP_CONFIG_FILE=os.devnull) if "no-pip-index" in ctx.faults else None
    listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, env=env)
    configured = [line.split("=", 1)[1].strip().strip("'").split() for line in listed.stdout.splitlines()
                  if line.split("=", 1)[0].endswith(".extra-index-url")]
    urls = [url for group in configured for url in group]
    if not wanted:
        return judged("conformance.pip_index", [], [f"torch comes from PyPI on linux/{arch}: nothing to persist"])
    problems = [] if wanted in urls else [f"pip's extra-index-url is {urls or 'unset'}, not {wanted}: a later pip install "
                                          "may replace torch's build"]
    return judged("conformance.pip_index", problems, [f"pip's extra-index-url: {', '.join(urls) or 'unset'}"])


LAUNCHER_PROBE = r"""
#include <Python.h>
static PyObject *answer(PyObject *self, PyObject *args) { return PyLong_FromLong(42); }
static PyMethodDef methods[] = {{"answer", answer, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "launcher_probe", NULL, -1, methods};
PyMODINIT_FUNC PyInit_launcher_probe(void) { return PyModule_Create(&module); }
"""


def triton_launcher(ctx):
    """Build and load a CPython extension with the image's C compiler, as triton-ascend builds its
    launcher (triton/runtime/build.py: the first of cc, gcc, clang; -shared -fPIC against the
    interpreter's include directory) at its first kernel launch."""
    import importlib.util
    import shutil
    import subprocess
    import sysconfig
    import tempfile

    search = "" if "no-compiler" in ctx.faults else None  # None: the image's own PATH
    compiler = next((found for name in ("cc", "gcc", "clang") if (found := shutil.which(name, path=search))), None)
    include = sysconfig.get_paths()["include"]
    if compiler is None:
        return judged("conformance.triton_launcher", ["no C compiler (cc, gcc, clang) on PATH: triton-ascend's first "
                                                      "kernel launch compiles its launcher with one"], [])
    with tempfile.TemporaryDirectory() as work:
        source = Path(work, "launcher_probe.c")
        source.write_text(LAUNCHER_PROBE)
        built = Path(work, "launcher_probe" + sysconfig.get_config_var("EXT_SUFFIX"))
        compiled = subprocess.run([compiler, str(source), "-O1", "-shared", "-fPIC", "-o", str(built), f"-I{include}"],
                                  capture_output=True, text=True)
        if compiled.returncode:
            return judged("conformance.triton_launcher", [f"{compiler} could not build an extension against {include}: "
                                                          f"{compiled.stderr.strip().splitlines()[-1:]}"], [])
        spec = importlib.util.spec_from_file_location("launcher_probe", built)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        answer = module.answer()
    problems = [] if answer == 42 else [f"the built extension returned {answer!r}, not 42"]
    return judged("conformance.triton_launcher", problems, [f"{compiler} built and loaded an extension against {include}"])


def external_modules(ctx):
    """import verl under the image's VERL_USE_EXTERNAL_MODULES: every listed module loads, and verl
    picks the pinned device."""
    value = os.environ.get("VERL_USE_EXTERNAL_MODULES", "")
    pinned = ctx.pins["env"].get("VERL_USE_EXTERNAL_MODULES")
    wanted = [m for m in value.split(",") if m]
    problems = [] if value == pinned else [f"VERL_USE_EXTERNAL_MODULES is {value!r}, pinned {pinned!r}"]
    try:
        import verl  # noqa: F401  (imports every module in VERL_USE_EXTERNAL_MODULES)
    except Exception as exc:
        bad = next((m for m in wanted if not _importable(m)), None)
        cause = f"module {bad!r} failed to import" if bad else "import verl failed"
        return judged("conformance.external_modules", problems + [
            f"VERL_USE_EXTERNAL_MODULES={value!r}: {cause}: {type(exc).__name__}: {exc}"], [])
    problems += [f"VERL_USE_EXTERNAL_MODULES lists {m!r} but import verl did not load it"
                 for m in wanted if m not in sys.modules]
    from verl.utils.device import get_device_name

    chosen = get_device_name()
    if chosen != ctx.pins["device"]:
        problems.append(f"verl picked device {chosen!r}, the image is for {ctx.pins['device']!r}")
    lines = [f"VERL_USE_EXTERNAL_MODULES={value!r}: loaded {', '.join(wanted) or 'nothing'}",
             f"verl {verl.__version__}: device {chosen!r}"]
    return judged("conformance.external_modules", problems, lines)


def _importable(module: str) -> bool:
    try:
        importlib.import_module(module)
        return True
    except Exception:
        return False
