"""Shared fixtures. Slow tests (marked `docker`) use the real Docker Engine and run in CI;
`network` tests resolve against the real package indexes."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from image_pipeline.paths import CACHE  # noqa: E402

COPIED = (".gitignore", ".gitattributes", "pins.yaml", "templates", "images", "README.md", "docs", ".hadolint.yaml", "patches", "payload",
          "smoke_tests", "installer", "records")


def pytest_addoption(parser):
    parser.addoption("--network", action="store_true",
                     help="also run the `network` tests, which resolve against the real PyPI (minutes; make test "
                          "and CI pass it)")


def pytest_collection_modifyitems(config, items):
    """The files with tests that need the arm64 image run last, and those tests last of all: make test
    builds it under QEMU in the background, and a test that waits for it early would hold the rest of the
    suite back (a stable sort; whole files, because make test's workers take whole files).
    `network` tests are opt-in, so the fast suite (`pytest -m "not docker"`) stays fast offline;
    they show as skipped, never as passed."""
    waits = {item.path for item in items if _needs_arm64(item)}
    items.sort(key=lambda item: (item.path in waits, _needs_arm64(item)))
    if config.getoption("--network"):
        return
    skip = pytest.mark.skip(reason="resolves against PyPI: run with --network (make test does)")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip)


def _needs_arm64(item) -> bool:
    return "cpu_image_arm64" in getattr(item, "fixturenames", ())


# Files that run pipelines on this repository's own cpu image (its cache, its lock, its candidate tag):
# one worker runs them one after another, as a single unit of work.
SHARES_THE_REPOSITORYS_PIPELINE = ("test_image.py", "test_reproducible.py")


def unit_of_work(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    return "the repository's pipeline" if Path(path).name in SHARES_THE_REPOSITORYS_PIPELINE else path


def pytest_xdist_make_scheduler(config, log):
    """make test's `-n 2 --dist loadfile`: whole files per worker (a module's image builds once), in
    collection order (the arm64 files last), with the files that share the repository's pipeline as one."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class WholeFiles(LoadFileScheduling):
        def _split_scope(self, nodeid):
            return unit_of_work(nodeid)

    config.option.loadscopereorder = False  # xdist would order files by test count instead
    return WholeFiles(config, log)


def copy_repo(target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
        elif source.exists():
            shutil.copyfile(source, target / name)
    return target


@pytest.fixture
def repo_copy(tmp_path) -> Path:
    """A scratch copy of everything `render`, `lock` and `image` read and write."""
    return copy_repo(tmp_path / "repo")


def run_build(*args, root: Path | None = None, check=False, env=None) -> subprocess.CompletedProcess:
    """The real CLI in a fresh interpreter: exit codes and stderr exactly as a user sees them."""
    cmd = [sys.executable, str(REPO / "build.py")]
    if root is not None:
        cmd += ["--root", str(root)]
    result = subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=REPO, env=env)
    if check and result.returncode:
        raise AssertionError(f"build.py {' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def run_in_process(*args, root: Path) -> subprocess.CompletedProcess:
    """The CLI's main() in this interpreter, for the many-case tests: same exit code and output as
    run_build, without an interpreter start per case; an exception that escapes main() fails the test."""
    from image_pipeline.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--root", str(root), *args])
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def tree_snapshot(directory: Path) -> dict:
    """Every file's bytes, but the download cache's: filling it is not a change to the repository."""
    files = {p.relative_to(directory): p for p in sorted(directory.rglob("*")) if p.is_file()}
    return {relative.as_posix(): p.read_bytes() for relative, p in files.items() if relative.parts[0] != CACHE}


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert text.count(old) >= count, f"{old!r} not found {count}x in {path.name}"
    path.write_text(text.replace(old, new, count))


def manifest():
    from image_pipeline.manifest import load_manifest

    return load_manifest(REPO / "pins.yaml")


# ---------------------------------------------------------------- real Docker Engine (marked `docker`)

@pytest.fixture(scope="session")
def engine_client():
    from image_pipeline.builder import engine

    return engine.client()


def build_promoted(api, platform: str | None = None, root: Path = REPO):
    """The real pipeline for the default image: built, smoke-tested and promoted (an image whose
    content tag exists is not rebuilt)."""
    from image_pipeline import network
    from image_pipeline.builder import engine, pipeline
    from image_pipeline.manifest import load_manifest
    from image_pipeline.smoke import runner

    m = load_manifest(root / "pins.yaml")
    image = m.default_image
    platform = platform or engine.host_platform()
    # wait=True: .ci/run builds the arm64 image in the background while the tests start
    return pipeline.run(api, m, image, platform, root, network.from_host(), plain=True, cache=REPO / ".cache", wait=True,
                        smoke_runner=lambda ref: runner.run(api, image.name, ref, artifacts=REPO / "artifacts",
                                                            platform=platform, promotion=True))


@pytest.fixture(scope="session")
def cpu_image(engine_client):
    outcome = build_promoted(engine_client)
    assert outcome.promoted, f"the cpu image failed its smoke suite: {outcome.smoke and outcome.smoke.reason}"
    return outcome


@pytest.fixture(scope="session")
def cpu_image_arm64(engine_client):
    """The cpu image for linux/arm64: on an x86 host built and smoke-tested under QEMU (docs/guide.md: multi-arch)."""
    outcome = build_promoted(engine_client, platform="linux/arm64")
    assert outcome.promoted, f"the arm64 cpu image failed its smoke suite: {outcome.smoke and outcome.smoke.reason}"
    return outcome


def release_before(dist: str, version: str) -> str:
    """The newest release of dist older than version, as the package index lists them."""
    from packaging.version import Version

    listing = subprocess.run([sys.executable, "-m", "pip", "index", "versions", dist], capture_output=True, text=True,
                             check=True).stdout
    releases = [Version(v.strip()) for v in listing.split("versions:", 1)[1].split(",")]
    return str(max(v for v in releases if v < Version(version) and not v.is_prerelease))


@pytest.fixture(scope="session")
def previous_verl_image(engine_client, cpu_image, tmp_path_factory):
    """The promoted cpu image with the verl release before the pinned one in its place (the pinned release
    added the Mooncake engine's completion-slot drain): (reference, version)."""
    from image_pipeline.builder import engine

    version = release_before("verl", manifest().default_image.role("verl").version)
    context = tmp_path_factory.mktemp("previous-verl")
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--dest",
                    str(context), f"verl=={version}"], check=True, capture_output=True)
    wheel = next(context.glob("verl-*.whl")).name
    (context / "Dockerfile").write_text(f"FROM {cpu_image.tags.final}\nCOPY {wheel} /tmp/\n"
                                        f"RUN pip install --no-index --no-deps /tmp/{wheel} && rm /tmp/{wheel}\n")
    # per worker: the other worker's session removes its own when it ends
    reference = f"verl-ascend:cpu-verl-{version}-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    engine.build(context, reference, platform=engine.host_platform(), buildargs={}, labels={}, plain=True)
    yield reference, version
    engine_client.images.remove(reference, force=True)


# ---------------------------------------------------------------- a real registry on loopback

REGISTRY_HEADER = "X-Loopback-Registry"


class LoopbackRegistry:
    """One docker-registry process on 127.0.0.1; restartable read-only over the same storage."""

    def __init__(self, directory):
        self.directory = directory
        self.address = f"127.0.0.1:{_free_port()}"
        self.process = None
        self.token = os.urandom(8).hex()  # the header this registry answers with, and no other on the port

    def start(self, read_only=False):
        self.stop()
        maintenance = "  maintenance:\n    readonly:\n      enabled: true\n" if read_only else ""
        config = self.directory / "config.yml"
        config.write_text(f"version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: {self.directory / 'data'}\n"
                          f"{maintenance}http:\n  addr: {self.address}\n  headers:\n    {REGISTRY_HEADER}: [{self.token}]\n")
        binary = shutil.which("docker-registry")
        assert binary, "docker-registry is not installed: `make test` installs it (apt-get install docker-registry)"
        self.process = subprocess.Popen([binary, "serve", str(config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"docker-registry on {self.address} exited ({self.process.returncode}): port taken?")
            try:
                with urllib.request.urlopen(f"http://{self.address}/v2/", timeout=2) as response:
                    if response.headers.get(REGISTRY_HEADER) == self.token:
                        return self
            except OSError:
                pass
            time.sleep(0.2)  # make test's other worker may have a registry on a port it was also handed
        raise AssertionError(f"docker-registry on {self.address} did not answer")

    def stop(self):
        if self.process:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
