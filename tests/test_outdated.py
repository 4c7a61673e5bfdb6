"""`build.py outdated` against a local index (PEP 503 pages on loopback) and a local git repository:
each category comes from what the index really lists. Versions derive from pins.yaml."""

import functools
import http.server
import subprocess
import threading

import pytest
from packaging.version import Version

from image_pipeline import network
from image_pipeline.review import outdated

from conftest import manifest

M = manifest()


def _next(version: str) -> str:
    v = Version(version)
    return f"{v.major}.{v.minor}.{v.micro + 1}"


def _wheels(dist: str, version: str, arches=("x86_64", "aarch64")) -> list:
    name = dist.replace("-", "_")
    return [f"{name}-{version}-cp312-cp312-manylinux_2_34_{arch}.whl" for arch in arches]


def _pure(dist: str, version: str) -> list:
    return [f"{dist.replace('-', '_')}-{version}-py3-none-any.whl"]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    """A simple index of a few projects, each listing what makes one category."""
    root = tmp_path_factory.mktemp("index")
    ascend, transformers, core = (M.components[n] for n in ("vllm-ascend", "transformers", "megatron-core"))
    mbridge, verl = M.components["mbridge"], M.components["verl"]
    older = Version(mbridge.version)
    pages = {
        ascend.dist: _wheels(ascend.dist, ascend.version) + [f"{ascend.dist.replace('-', '_')}-{ascend.version}.post1.tar.gz"],
        transformers.dist: _pure(transformers.dist, transformers.version) + _pure(transformers.dist, f"{_next(transformers.version)}rc1"),
        core.dist: _pure(core.dist, core.version) + _pure(core.dist, _next(core.version)),
        mbridge.dist: _pure(mbridge.dist, f"{older.major}.{older.minor}.{max(older.micro - 1, 0)}a1"),
        verl.dist: _pure(verl.dist, verl.version),
    }
    for dist, files in pages.items():
        page = root / "simple" / dist
        page.mkdir(parents=True)
        links = "".join(f'<a href="../../files/{f}#sha256={"0" * 64}">{f}</a>\n' for f in files)
        (page / "index.html").write_text(f"<!DOCTYPE html><html><body>\n{links}</body></html>\n")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/simple"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def rows(index, tmp_path_factory):
    closed = "http://127.0.0.1:9/simple"  # nothing listens on the discard port here
    profile = network.NetProfile(explicit_mirrors={"pypi": index, "pytorch-cpu": closed, "ascend": closed})
    repo = tmp_path_factory.mktemp("git")
    git = next(c for c in M.components.values() if c.source == "git" and c.get("tag") and c.release)

    def tags(url):
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                        "--allow-empty", "-m", "x"], check=True)
        for tag in (f"v{git.release}", f"v{_next(str(git.release))}"):
            subprocess.run(["git", "-C", str(repo), "tag", "-f", tag], check=True, capture_output=True)
        return outdated.git_tag_versions(str(repo))
    return {r.component: r for r in outdated.check(M, profile, fetch_git=tags)}


def test_a_release_without_a_wheel_for_a_platform_is_named_so(rows):
    assert rows["vllm-ascend"].note == "newer release without a wheel for linux/amd64, linux/arm64"
    assert rows["vllm-ascend"].newest == f"{M.components['vllm-ascend'].version}.post1"


def test_a_release_a_pre_release_and_up_to_date_are_told_apart(rows):
    assert rows["megatron-core"].note == "newer release"
    assert rows["transformers"].note == "newer pre-release"
    assert rows["verl"].note == "up to date"


def test_a_pin_newer_than_anything_its_index_lists_is_never_up_to_date(rows):
    assert rows["mbridge"].note == "pinned release not on its index (newer than its newest)"


def test_a_pin_from_an_index_that_does_not_answer_is_not_reachable_from_here(rows):
    triton = next(c for c in M.components.values() if c.get("index") == "ascend")
    assert rows[triton.name].note.startswith("not reachable from here (ascend via http://127.0.0.1:9/simple")
    torch = rows["torch"].note
    assert "linux/amd64 from pytorch-cpu: not reachable from here" in torch and "linux/arm64 from pypi" in torch


def test_git_tags_come_from_the_repository(rows):
    git = next(c for c in M.components.values() if c.source == "git" and c.get("tag") and c.release)
    assert rows[git.name].note == "newer release" and rows[git.name].newest == _next(str(git.release))


def test_a_local_version_is_its_release():
    found = outdated.releases_of([f"torch-{M.components['torch'].version}+cpu-cp311-cp311-linux_x86_64.whl"])
    assert list(found) == [Version(M.components["torch"].version)]
    assert found[Version(M.components["torch"].version)].fits("linux/amd64")
    assert not found[Version(M.components["torch"].version)].fits("linux/arm64")
