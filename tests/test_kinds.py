"""A re-lock that turns a wheel into an undeclared source build is refused (lock/kinds.py).

The new lock is the committed one with one package's wheel swapped for the sdist a release without
a wheel would give: uv is not run (the swap is what it would return for vllm-ascend 0.23.0.post1)."""

import dataclasses

import pytest

from image_pipeline.errors import UserError
from image_pipeline.lock import consistency, kinds, lockfile, resolve, run
from image_pipeline.manifest import load_manifest

from conftest import REPO, edit, manifest

M = manifest()
PACKAGE = M.components["vllm-ascend"].dist


def _npu_target():
    image = next(img for img in M.images.values() if any(c.dist == PACKAGE for c in img.components))
    return image, image.platforms[-1]


def _as_sdist(lock, name):
    """The lock with `name`'s wheel replaced by an sdist of the same version."""
    def swap(entry):
        if entry.name != name:
            return entry
        sdist = dataclasses.replace(entry.artifact, kind="sdist", name=f"{entry.name}-{entry.version}.tar.gz")
        return dataclasses.replace(entry, artifact=sdist, requires=[])
    return dataclasses.replace(lock, packages=[swap(e) for e in lock.packages])


def test_a_wheel_that_becomes_an_sdist_is_refused_naming_package_platform_and_both_files():
    image, platform = _npu_target()
    path = lockfile.path_for(REPO, image.name, platform)
    old = lockfile.read(path)
    wheel = old.by_name()[PACKAGE].artifact.name
    with pytest.raises(UserError) as caught:
        kinds.check(image, platform, old, _as_sdist(old, PACKAGE), path.relative_to(REPO))
    message = str(caught.value)
    assert message.startswith(f"images/{image.name}/") and PACKAGE in message and platform in message
    assert wheel in message and f"{PACKAGE}-" in message.split(" -> ")[1] and "\n" not in message


def test_a_declared_source_build_and_an_unchanged_lock_pass(repo_copy):
    image, platform = _npu_target()
    old = lockfile.read(lockfile.path_for(REPO, image.name, platform))
    kinds.check(image, platform, old, old, "lock")  # nothing changed
    kinds.check(image, platform, None, old, "lock")  # a first lock has nothing to compare
    copy = repo_copy / "pins.yaml"
    edit(copy, "  vllm-ascend:\n    source: pypi\n",
         "  vllm-ascend:\n    source: pypi\n    build:\n      env:\n        COMPILE_CUSTOM_KERNELS: \"1\"\n")
    declared = load_manifest(copy).images[image.name]
    kinds.check(declared, platform, old, _as_sdist(old, PACKAGE), "lock")


def test_lock_all_refuses_the_swap_before_writing_anything(monkeypatch):
    image, platform = _npu_target()
    monkeypatch.setattr(consistency, "check_pins", lambda *a: None)
    monkeypatch.setattr(consistency, "targets", lambda manifest: [(image, platform)])
    monkeypatch.setattr(resolve.Resolver, "__init__", lambda self, *a: None)
    monkeypatch.setattr(resolve.Resolver, "resolve", lambda self, request, previous, fresh=False, sibling=None: _as_sdist(previous, PACKAGE))
    with pytest.raises(UserError, match=f"{PACKAGE} loses its wheel on {platform}"):
        run.lock_all(M, REPO, None, REPO / ".cache", jobs=1, log=lambda *_: None)


def test_the_pr_body_shows_a_kind_change_its_size_and_the_edges_that_vanish():
    from image_pipeline.review import prbody

    image, platform = _npu_target()
    old = lockfile.read(lockfile.path_for(REPO, image.name, platform))
    entry = old.by_name()[PACKAGE]
    needs = sorted(e.name for e in old.packages if PACKAGE in (e.via or ()))
    assert needs, f"nothing in the lock is needed by {PACKAGE}: pick a package with dependencies"
    new = _as_sdist(old, PACKAGE)
    new = dataclasses.replace(new, packages=[
        dataclasses.replace(e, via=[v for v in e.via if v != PACKAGE]) if e.name in needs else e
        for e in new.packages])
    lines = prbody._lock_delta(old, new)
    assert f"~ {PACKAGE} {entry.version} (wheel -> sdist: {entry.artifact.name} -> {PACKAGE}-{entry.version}.tar.gz)" in lines
    assert [f"- edge {PACKAGE} -> {name}" for name in needs] == [line for line in lines if "edge" in line]
    assert prbody._lock_delta(old, old) == []
    smaller = dataclasses.replace(old, packages=[
        dataclasses.replace(e, artifact=dataclasses.replace(e.artifact, size=e.artifact.size // 2))
        if e.name == PACKAGE else e for e in old.packages])
    assert prbody._lock_delta(old, smaller) == [
        f"~ {PACKAGE} {entry.version} (file {prbody._signed_mb(entry.artifact.size // 2 - entry.artifact.size)})"]


def test_a_declared_source_build_is_built_with_its_settings_in_the_image_and_on_the_host(repo_copy):
    """The declaration is not only a pass for the kind check: the build context and the host's completed plan
    build the locked sdist as an item with the declared env and SoC variable, never from the part's plain
    requirements (which install_tier.py installs with no settings)."""
    from image_pipeline.render import host_plan, install_plan, install_script, layers

    image, platform = _npu_target()
    copy = repo_copy / "pins.yaml"
    edit(copy, "  vllm-ascend:\n    source: pypi\n",
         "  vllm-ascend:\n    source: pypi\n    build:\n      env:\n        COMPILE_CUSTOM_KERNELS: \"1\"\n"
         "      soc_env: SOC_VERSION\n")
    declared = load_manifest(copy).images[image.name]
    lock = _as_sdist(lockfile.read(lockfile.path_for(REPO, image.name, platform)), PACKAGE)
    lockfile.path_for(repo_copy, image.name, platform).write_text(lock.to_toml())
    sdist = lock.by_name()[PACKAGE].artifact.name
    parts = install_plan.parts(declared, platform, lock, layers.locked_own_layers(repo_copy, declared))
    built = [(part.slug, item) for part in parts for item in part.sources(declared)["items"] if item.get("file") == sdist]
    assert [(item["kind"], item["env"], item["soc_env"]) for _, item in built] == \
        [("sdist", {"COMPILE_CUSTOM_KERNELS": "1"}, "SOC_VERSION")]
    assert not any(f"{PACKAGE}==" in part.requirements() for part in parts)
    layout = install_script.layout(declared, platform, lock, layers.locked_own_layers(repo_copy, declared),
                                   (REPO / "images" / image.name / "Dockerfile").read_text())
    host = host_plan.complete(layout, repo_copy)
    on_host = [(part["slug"], item) for part in host["parts"] for item in part["sources"]["items"]
               if item.get("file") == sdist]
    assert [(slug, {k: v for k, v in item.items() if k != host_plan.FETCH}) for slug, item in on_host] == built
    assert not any(line.startswith(f"{PACKAGE}==") for part in host["parts"] for line in part["requirements"])
