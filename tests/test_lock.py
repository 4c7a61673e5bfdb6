"""The locks: offline staleness and requirement checks, and (marked `network`) real resolution.

Expected values come from pins.yaml and the committed locks, never spelled out here.
"""

import json
import re
import subprocess
import sys

import pytest

from image_pipeline.errors import UserError
from packaging.requirements import Requirement
from packaging.version import Version

from image_pipeline.lock import consistency, lockfile
from image_pipeline.lock.resolve import uv_version
from image_pipeline.manifest.model import PLATFORM_ARCH

from conftest import REPO, edit, manifest, run_build, tree_snapshot

M = manifest()


def lock_of(image, platform):
    return lockfile.read(lockfile.path_for(REPO, image, platform))


def test_every_image_has_a_fresh_lock_for_each_platform():
    assert consistency.stale(M, REPO, uv_version()) == []
    for image in M.images.values():
        for platform in image.platforms:
            lock = lock_of(image.name, platform)
            assert (lock.image, lock.platform, lock.python) == (image.name, platform, image.python)


NPU_IMAGES = [name for name, image in M.images.items() if image.device == "npu"]


def test_npu_locks_hold_upstreams_tested_stack():
    """torch, torch-npu, the rollout backend's NPU part and the Mooncake NPU wheel, for both platforms,
    at the image's python: vllm-ascend for the vllm images, sgl-kernel-npu's archive for the sglang ones."""
    assert {M.images[name].backend for name in NPU_IMAGES} == {"vllm", "sglang"}
    for name in NPU_IMAGES:
        image = M.images[name]
        for platform in image.platforms:
            lock = lock_of(name, platform)
            versions = {e.name: e.version for e in lock.packages}
            versions.update({x["dist"]: x["version"] for x in lock.externals})
            for role in ("torch", "torch_npu", "vllm_ascend", "mooncake"):
                comp = image.role(role)
                if comp is not None:
                    assert versions[comp.dist] == comp.version_for(platform), (name, platform, role)
            kernels = image.role("sgl_kernel")
            if kernels is not None:
                archive = next(a for a in lock.archives if a["component"] == kernels.name)
                assert archive["url"] == kernels.url_for(platform) and archive["wheels"] == list(kernels.wheels)
                assert not set(kernels.wheels) & set(versions), "an archive's wheels are never resolved from an index"
            assert image.role("vllm_ascend") or kernels, name
            assert lock.python == image.python


def test_each_platform_of_the_cpu_image_locks_its_own_torch_build():
    """amd64: the +cpu build (PyTorch CPU index); arm64: the NPU images' torch, which PyPI ships as a CPU
    build for aarch64 (a torch whose aarch64 wheel is a CUDA build would pull nvidia-* packages)."""
    cpu = M.default_image
    for platform in cpu.platforms:
        torch = cpu.on(platform).role("torch")
        locked = lock_of(cpu.name, platform)
        versions = [e.version for e in locked.packages if e.name == "torch"]
        externals = [x["version"] for x in locked.externals if x["component"] == torch.name]
        assert versions + externals == [torch.version_for(platform)], platform
        assert not [e.name for e in locked.packages if e.name.startswith("nvidia-")], platform
    assert cpu.on("linux/arm64").role("torch") is M.components["torch"]


def test_every_locked_file_has_a_sha256_and_fits_its_platform():
    for image in M.images.values():
        for platform in image.platforms:
            for entry in lock_of(image.name, platform).packages:
                assert re.fullmatch(r"[0-9a-f]{64}", entry.artifact.sha256), entry.name
                if entry.artifact.kind == "wheel" and "none-any" not in entry.artifact.name:
                    assert PLATFORM_ARCH[platform] in entry.artifact.name or "abi3" in entry.artifact.name, entry


def test_a_pin_change_makes_the_lock_stale_for_the_drift_gate(repo_copy):
    torch = M.components["torch-cpu"]  # the cpu image's x86_64 torch (arm64 installs the NPU images' torch)
    moved = f"{Version(torch.version).major}.{Version(torch.version).minor}.9"
    edit(repo_copy / "pins.yaml", f"version: {torch.version}\n    builds", f"version: {moved}\n    builds")
    run_build("render", root=repo_copy, check=True)
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1
    assert "images/cpu/pylock.linux-amd64.toml: stale against pins.yaml" in result.stdout
    assert "linux-arm64" not in result.stdout  # each platform's lock is stale only for what it installs
    assert "npu-a3" not in result.stdout


def _other_torch():
    """A torch release line that the locked vllm-ascend does not accept."""
    entry = lock_of("npu-a3", "linux/arm64").by_name()["vllm-ascend"]
    wanted = next(Requirement(r) for r in entry.requires if Requirement(r).name == "torch")
    pinned = Version(M.components["torch"].version)
    other = f"{pinned.major}.{pinned.minor + 3}.0"
    assert not wanted.specifier.contains(other)
    return wanted, other


def test_a_pin_the_locked_packages_reject_stops_render_with_both_requirements(repo_copy):
    wanted, other = _other_torch()
    pins = repo_copy / "pins.yaml"
    for comp in ("torch", "torch-npu"):
        version = M.components[comp].version
        edit(pins, f"depName={M.components[comp].dist}\n    version: {version}",
             f"depName={M.components[comp].dist}\n    version: {other}")
    before = tree_snapshot(repo_copy / "images")
    for command in (["render"], ["lock", "--image", "npu-a3"]):
        result = run_build(*command, root=repo_copy)
        assert result.returncode == 2, result.stderr
        line = result.stderr.strip()
        assert "\n" not in line and "Traceback" not in line
        assert re.search(rf"vllm-ascend \S+ \(pins\.yaml:\d+\) requires torch{re.escape(str(wanted.specifier))}; pins\.yaml:\d+ pins "
                         rf"torch {re.escape(other)}", line), line
        assert tree_snapshot(repo_copy / "images") == before


def test_the_same_bump_is_refused_and_touches_nothing(repo_copy):
    _, other = _other_torch()
    before = tree_snapshot(repo_copy)
    result = run_build("bump", "torch", other, "--also", f"torch-npu={other}", "--reason", "r", "--issue",
                       "https://example.org/i", root=repo_copy)
    assert result.returncode == 2
    assert "vllm-ascend" in result.stderr and f"pins torch {other}" in result.stderr
    assert tree_snapshot(repo_copy) == before


# ---------------------------------------------------------------- real resolution (network)

@pytest.mark.network
def test_lock_reproduces_the_committed_locks_byte_for_byte():
    result = run_build("lock", "--check")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert "reproduce byte for byte" in result.stdout


def _hash_requirements(lock) -> str:
    return "".join(f"{e.name}=={e.version} --hash=sha256:{e.artifact.sha256}\n" for e in lock.packages
                   if e.artifact.kind == "wheel")


@pytest.mark.network
@pytest.mark.parametrize("image,platform", [(n, p) for n in NPU_IMAGES for p in M.images[n].platforms])
def test_pip_accepts_each_npu_lock_for_its_platform_with_hashes_required(tmp_path, image, platform):
    """pip (not uv) takes every locked wheel for the target, hash-checked; externals (not resolved here)
    and sdists (built in the image) are left out."""
    lock = lock_of(image, platform)
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(_hash_requirements(lock))
    arch = PLATFORM_ARCH[platform]
    glibc = int(lock.uv_platform.rsplit("_", 1)[1])
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--isolated", "--no-deps", "--require-hashes",
           "--only-binary", ":all:", "--python-version", lock.python, "--implementation", "cp",
           "--target", str(tmp_path / "target"), "--cache-dir", str(REPO / ".cache" / "pip"),
           "--report", str(tmp_path / "report.json"), "-r", str(requirements),
           *(f"--platform=manylinux_2_{m}_{arch}" for m in range(glibc, 16, -1)),
           f"--platform=manylinux2014_{arch}", f"--platform=linux_{arch}"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    installed = {item["metadata"]["name"].lower().replace("_", "-") for item in report["install"]}
    roles = [M.images[image].role(role) for role in ("torch_npu", "vllm_ascend", "mooncake")]
    locked = {comp.dist for comp in roles if comp is not None and comp.source == "pypi"}  # not a git/source build
    assert locked <= installed and M.images[image].role("torch_npu").dist in locked
    assert len(report["install"]) == requirements.read_text().count("\n")


def _overridden_pins():
    """(image, platform, overriding component) for every pin whose `wins_over` an image's lock applies."""
    for image in M.images.values():
        for platform in image.platforms:
            for comp in [*image.on(platform).components, *image.constraints]:
                if comp.get("wins_over"):
                    yield image, platform, comp


@pytest.mark.network
def test_every_requirer_of_an_overridden_pin_accepts_it_or_is_named_by_the_override(tmp_path):
    """uv's override silences every requirement on the pinned package, also those of packages the lock
    picks only because of it (pandas 3 beside numpy 1.26.0: pandas then refuses to import). The wheels'
    own METADATA says who really accepts the pin; whoever does not must be named in `wins_over`."""
    from image_pipeline.lock import metadata

    unaccepted = []
    for image, platform, comp in _overridden_pins():
        lock = lockfile.read(lockfile.path_for(REPO, image.name, platform))
        pinned = next(e for e in lock.packages if e.name == comp.dist)
        by_name = {e.name: e for e in lock.packages}
        for requirer in pinned.via:
            entry = by_name.get(requirer)
            if entry is None or entry.artifact.kind != "wheel" or requirer in comp.get("wins_over"):
                continue
            # a pin installed --no-deps with its own `requires` (verl-npu) is bound by those, not its METADATA
            lines = entry.requires if entry.requires is not None else metadata.wheel_requires(
                entry.artifact.url, entry.artifact.size, entry.artifact.sha256, REPO / ".cache")
            for line in lines:
                requirement = Requirement(line)
                if requirement.name.lower().replace("_", "-") != comp.dist or requirement.marker is not None \
                        and not requirement.marker.evaluate({"python_version": image.python, "extra": ""}):
                    continue
                if not requirement.specifier.contains(pinned.version, prereleases=True):
                    unaccepted.append(f"{image.name} {platform}: {requirer} {entry.version} requires {line}; "
                                      f"{comp.name} pins {pinned.version}")
    assert not unaccepted, "\n".join(unaccepted)


def test_locks_resolve_in_parallel_bounded_by_jobs(monkeypatch):
    """Two locks resolve at once with jobs=2 (a barrier only two concurrent resolutions pass), one at a
    time with jobs=1; the result is the same mapping either way."""
    import threading

    from image_pipeline import network
    from image_pipeline.lock import resolve, run

    two = [(M.images["cpu"], p) for p in M.images["cpu"].platforms]
    monkeypatch.setattr(consistency, "check_pins", lambda *a: None)
    monkeypatch.setattr(consistency, "targets", lambda manifest: two)
    monkeypatch.setattr(resolve, "uv_version", lambda: "0")

    def run_with(jobs):
        barrier = threading.Barrier(2, timeout=3)

        class Lock:
            externals = packages = ()

            def __init__(self, request):
                self.text = request.platform

            def to_toml(self):
                return self.text

        def fake(self, request, previous, fresh=False, sibling=None):
            barrier.wait()
            return Lock(request)

        monkeypatch.setattr(resolve.Resolver, "resolve", fake)
        return run.lock_all(M, REPO, network.from_host(), REPO / ".cache", jobs=jobs, log=lambda *_: None)

    out = run_with(2)
    assert list(out.values()) == [p for _, p in two]
    with pytest.raises(threading.BrokenBarrierError):
        run_with(1)


def test_a_fresh_lock_hands_uv_no_preferences(monkeypatch, tmp_path):
    from image_pipeline import network
    from image_pipeline.lock import resolve
    from image_pipeline.lock.request import build_request

    image = next(img for img in M.images.values() if not build_request(M, img, img.platforms[0]).source_builds)
    request = build_request(M, image, image.platforms[0])
    previous = lockfile.read(lockfile.path_for(REPO, image.name, image.platforms[0]))
    seen = []

    def fake_uv(self, work, request, mirrors, fmt, prefer):
        seen.append(prefer)
        raise KeyboardInterrupt  # stop before anything resolves

    monkeypatch.setattr(resolve, "uv_version", lambda: "0")
    monkeypatch.setattr(resolve.Resolver, "_uv", fake_uv)
    resolver = resolve.Resolver(network.from_host(), tmp_path, M)
    for fresh in (False, True):
        with pytest.raises(KeyboardInterrupt):
            resolver.resolve(request, previous, fresh=fresh)
    with pytest.raises(KeyboardInterrupt):
        resolver.resolve(request, None, sibling=previous)  # a first lock: the sibling's versions
    assert seen == [previous, None, previous]


def test_a_resolution_uv_refuses_names_the_pin_in_pins_yaml():
    """uv speaks of its own project ("lock-input"); the user reads pins.yaml:LINE of the pin it named."""
    from image_pipeline.lock.request import build_request
    from image_pipeline.lock.resolve import conflict

    image = next(img for img in M.images.values() if any(c.name == "numpy-npu" for c in img.constraints))
    numpy = M.components["numpy-npu"]
    stderr = ("  × No solution found when resolving dependencies:\n  ╰─▶ Because opencv-python-headless>=4.13.0.90 "
              f"depends on numpy>=2 and lock-input depends on numpy=={numpy.version}, we can conclude that your "
              "requirements and opencv-python-headless>=4.13.0.90 are incompatible.\n")
    message = str(conflict(stderr, build_request(M, image, image.platforms[0]), M))
    assert message.startswith(f"pins.yaml:{M.line(numpy.keypath + ('version',))}: components.numpy-npu.version: ")
    told, _, detail = message.partition(" (uv said: ")
    assert f"the image's pins require numpy=={numpy.version}" in told and "lock-input" not in told
    assert "opencv-python-headless>=4.13.0.90 depends on numpy>=2" in detail and "\n" not in message


def test_metadata_of_an_index_that_does_not_answer_is_asked_again_then_refused_in_one_line(tmp_path, monkeypatch):
    """A dropped DNS answer failed a whole bump here once: a read that gets no answer is retried."""
    from image_pipeline.lock import metadata

    waits = []
    monkeypatch.setattr(metadata.time, "sleep", waits.append)
    with pytest.raises(UserError) as caught:
        metadata.wheel_requires("http://127.0.0.1:9/x-0-py3-none-any.whl", None, "0" * 64, tmp_path)
    assert waits == [1, 2] and "did not answer 3 times" in str(caught.value) and "\n" not in str(caught.value)


def test_a_first_lock_prefers_its_closest_siblings_versions_and_fresh_none(monkeypatch, repo_copy):
    """npu-a3 locked for the first time (its lock removed) starts from npu-a2's lock: same device, python and
    CANN (the sglang and release images of its SoC have others)."""
    from image_pipeline.lock import family, resolve, run

    image = M.images["npu-a3"]
    platform = image.platforms[0]
    lockfile.path_for(repo_copy, image.name, platform).unlink()
    name, lock = family.sibling(M, image, platform, repo_copy)
    assert name == "npu-a2" and lock == lockfile.read(lockfile.path_for(REPO, "npu-a2", platform))
    assert family.sibling(M, M.images["npu-sglang-a3"], platform, REPO)[0] == "npu-sglang-a2"  # its CANN, python
    assert family.sibling(M, M.images["cpu"], platform, REPO) is None  # no other cpu image
    seen = []

    def fake(self, request, previous, fresh=False, sibling=None):
        seen.append((previous, sibling))
        raise KeyboardInterrupt  # stop before anything resolves

    monkeypatch.setattr(consistency, "check_pins", lambda *a: None)
    monkeypatch.setattr(consistency, "targets", lambda manifest: [(image, platform)])
    monkeypatch.setattr(resolve.Resolver, "__init__", lambda self, *a: None)
    monkeypatch.setattr(resolve.Resolver, "resolve", fake)
    for fresh in (False, True):
        with pytest.raises(KeyboardInterrupt):
            run.lock_all(M, repo_copy, None, repo_copy / ".cache", fresh=fresh, jobs=1, log=lambda *_: None)
    assert seen == [(None, lock), (None, None)]


def test_the_pr_body_of_an_added_image_lists_where_it_differs_from_its_sibling(repo_copy):
    import dataclasses

    from image_pipeline.lock import family
    from image_pipeline.review import prbody

    platform = M.images["npu-a3"].platforms[0]
    kin = lockfile.read(lockfile.path_for(REPO, "npu-a2", platform))
    moved = kin.packages[0]
    other = dataclasses.replace(kin, packages=[dataclasses.replace(moved, version=moved.version + ".post9"),
                                               *kin.packages[1:]])
    assert family.differences(other, kin) == [f"{moved.name} {moved.version}.post9 (sibling: {moved.version})"]
    lines = prbody._sibling_lines(REPO, M, "npu-a3", platform, other)
    assert "sibling `npu-a2`" in lines[0] and "1 the resolver chose otherwise" in lines[0]
    assert f"  {moved.name} {moved.version}.post9 (sibling: {moved.version})" in lines
    assert "every shared one" in prbody._sibling_lines(REPO, M, "npu-a3", platform, kin)[0]
