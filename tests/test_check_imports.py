"""Every smoke check an image selects finds what it imports in that image's lock.

checks.json declares, per check, the modules it imports (by where they apply: every image, a device,
a stack role) and what verl's modules import in turn; this follows them for each image and platform
and looks each module's distribution up in images/<name>/pylock.<platform>.toml (test tools, locked
but never installed, do not count). conformance.imports imports the same list inside the image."""

import dataclasses

import pytest

from image_pipeline.lock import lockfile
from image_pipeline.lock.consistency import targets
from image_pipeline.lock.request import TEST_TIER
from smoke_tests.plan import DISTRIBUTIONS, EVERY_IMAGE, MODULES, alternatives, load_checks, required_imports, select

from conftest import REPO, manifest

M = manifest()
CHECKS = load_checks()
PAYLOAD_MODULES = {p.name for p in (REPO / "payload" / "python").iterdir() if not p.name.startswith("__")}


def installed(lock) -> set:
    """The distributions a lock puts in the image: resolved, external, source-built and archived ones."""
    return {dist for dist, tier in lock.tier_of().items() if tier != TEST_TIER}


def roles_of(image, platform) -> set:
    return {role for role, comps in image.on(platform).stack.items() if comps}


def unmet(image, platform, lock) -> list:
    """`check: import X` lines whose module no distribution of the lock installs."""
    roles, dists = roles_of(image, platform), installed(lock)
    chosen = select(CHECKS, image.device, "", True, roles)
    needed = required_imports(chosen, image.device, roles)
    for module in filter(None, image.env.get("VERL_USE_EXTERNAL_MODULES", "").split(",")):
        needed.setdefault(module, []).append("conformance.external_modules")
    problems = []
    for module, users in needed.items():
        if not any(_provided(name, dists) for name in alternatives(module)):
            wanted = " or ".join(f"{name} ({', '.join(_distributions(name))})" for name in alternatives(module))
            problems.append(f"{', '.join(users)}: import {wanted}: not in the lock")
    return problems


def _distributions(module: str) -> list:
    top = module.split(".")[0]
    assert top in DISTRIBUTIONS or top in PAYLOAD_MODULES, \
        f"checks.json: no distribution declared for {top!r} (add it to `distributions`)"
    return DISTRIBUTIONS.get(top, ["payload/python"])


def _provided(module: str, dists: set) -> bool:
    return module.split(".")[0] in PAYLOAD_MODULES or any(d in dists for d in _distributions(module))


@pytest.mark.parametrize("image,platform", [(i.name, p) for i, p in targets(M)])
def test_every_selected_checks_imports_are_in_the_images_lock(image, platform):
    lock = lockfile.read(lockfile.path_for(REPO, image, platform))
    assert lock is not None
    assert unmet(M.images[image], platform, lock) == []


def test_a_module_missing_from_the_lock_is_found():
    """The test above can fail: the cpu lock without vllm leaves the collective engine without its transport."""
    image = M.images["cpu"]
    platform = image.platforms[0]
    lock = lockfile.read(lockfile.path_for(REPO, image.name, platform))  # cached for every test: never edited in place
    lock = dataclasses.replace(lock, source_builds=[b for b in lock.source_builds if b["dist"] != "vllm"],
                               packages=[e for e in lock.packages if e.name != "vllm"])
    problems = unmet(image, platform, lock)
    assert any("sync.collective" in p and "import vllm.distributed.utils (vllm)" in p for p in problems), problems


def test_imports_are_keyed_by_every_image_a_device_or_a_role():
    """A misspelt key would silently apply nowhere."""
    devices = {i.device for i in M.images.values()}
    roles = {role for image in M.images.values() for role in image.stack}
    keys = {where for c in CHECKS for where, _ in c.imports}
    keys |= {where for needs in MODULES.values() for where in needs}
    assert keys - ({EVERY_IMAGE} | devices | roles) == set()


def test_every_imported_module_declares_its_distributions():
    modules = {m for c in CHECKS for _, ms in c.imports for m in ms}
    modules |= set(MODULES) | {m for needs in MODULES.values() for ms in needs.values() for m in ms}
    for module in modules:
        for name in alternatives(module):
            assert _distributions(name)


def test_each_documented_default_is_read_only_where_its_module_is_imported():
    """conformance.verl_defaults reads a row's class only in images whose verl_defaults imports include its module."""
    import json

    rows = json.loads((REPO / "smoke_tests" / "checkpoint_defaults.json").read_text())
    check = next(c for c in CHECKS if c.name == "conformance.verl_defaults")
    for image in M.images.values():
        roles = roles_of(image, image.platforms[0])
        imported = required_imports([check], image.device, roles)
        for row in rows:
            if set(row.get("roles", ())) <= roles:
                assert row["where"].split(":")[0] in imported, (image.name, row["setting"])


def test_the_readme_names_the_images_the_suite_selects_each_check_in():
    import json

    from image_pipeline.render.readme import check_runs_in

    raw = {c["name"]: c for c in json.loads((REPO / "smoke_tests" / "checks.json").read_text())["checks"]}
    for image in M.images.values():
        for platform in image.platforms:
            selected = {c.name for c in select(CHECKS, image.device, "", True, roles_of(image, platform))}
            assert selected == {name for name, check in raw.items() if check_runs_in(check, image)}, image.name


def _module_level_imports(source: str) -> list:
    """What a module imports when it is imported: [top-level names], one list per statement; a
    try/except ImportError block gives its alternatives in order (top-level names of third parties only)."""
    import ast
    import sys

    def names(node):
        found = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        return [n.split(".")[0] for n in found if n.split(".")[0] not in sys.stdlib_module_names | {"verl", ""}]

    out = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
            out += [[name] for name in names(node)]
        elif isinstance(node, ast.Try):
            blocks = [node.body] + [handler.body for handler in node.handlers]
            alternatives_ = [n for block in blocks for s in block if isinstance(s, (ast.Import, ast.ImportFrom))
                             for n in names(s)]
            if alternatives_:
                out.append(alternatives_)
    return out


@pytest.mark.network
def test_the_declared_needs_of_verls_modules_are_what_its_wheel_imports(tmp_path):
    """checks.json `modules` against the locked verl wheel's own source: every third-party import a module
    makes when imported is declared (a try/except ImportError as `a|b`, in verl's order)."""
    import hashlib
    import urllib.request
    import zipfile

    from image_pipeline.paths import CACHE

    entry = lockfile.read(lockfile.path_for(REPO, "cpu", M.images["cpu"].platforms[0])).by_name()["verl"]
    cached = REPO / CACHE / "files" / entry.artifact.sha256 / entry.artifact.name  # the wheelhouse's copy
    wheel = cached if cached.exists() else tmp_path / entry.artifact.name
    if not cached.exists():
        urllib.request.urlretrieve(entry.artifact.url, wheel)
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry.artifact.sha256
    with zipfile.ZipFile(wheel) as archive:
        for module, needs in MODULES.items():
            declared = {tuple(name.split(".")[0] for name in alternatives(m)) for ms in needs.values() for m in ms}
            source = archive.read(module.replace(".", "/") + ".py").decode()
            for imported in _module_level_imports(source):
                assert tuple(imported) in declared, f"{module} imports {'|'.join(imported)}: declare it in checks.json"
