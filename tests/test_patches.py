"""Fingerprinted patches, verified sources and the runtime-patch helper (issue: no sed, no floating refs)."""

import json
import multiprocessing
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from image_pipeline.errors import UserError
from image_pipeline.lock import artifacts
from image_pipeline.manifest import load_manifest

from conftest import REPO, run_build

PAYLOAD_DIR = REPO / "payload"
sys.path.insert(0, str(PAYLOAD_DIR / "python"))
from verl_image import patching, runtime_patch  # noqa: E402

MANIFEST = load_manifest(REPO / "pins.yaml")
PATCH = MANIFEST.patches["mbridge-dequant-device"]
DIFF = (REPO / PATCH.diff).read_text()


@pytest.fixture(scope="session")
def mbridge_site(tmp_path_factory):
    """The pinned mbridge release unpacked as a site-packages directory, with the file of every other
    declared patch (verl's) from its pinned release beside it."""
    site = tmp_path_factory.mktemp("site")
    for role, members in (("bridge", None), ("verl", [p.file for p in MANIFEST.patches.values() if p.package == "verl"])):
        dest = tmp_path_factory.mktemp("wheel")
        component = MANIFEST.default_image.role(role)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--dest", str(dest),
                        f"{component.dist}=={component.version}"], check=True, capture_output=True)
        with zipfile.ZipFile(next(dest.glob("*.whl"))) as archive:
            archive.extractall(site, members=members)
    return site


@pytest.fixture
def site(mbridge_site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(mbridge_site, copy)
    return copy


def _apply_script(site, tmp_path):
    patch_dir = tmp_path / "patches"
    patch_dir.mkdir(exist_ok=True)
    shutil.copyfile(REPO / PATCH.diff, patch_dir / Path(PATCH.diff).name)
    (patch_dir / "patches.json").write_text(json.dumps([PATCH.as_dict()]))
    return subprocess.run([sys.executable, str(PAYLOAD_DIR / "bin/apply_patches.py"), str(patch_dir),
                           "--markers", str(tmp_path / "markers")], capture_output=True, text=True,
                          env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"})


def test_apply_then_a_second_apply_is_a_no_op(site, tmp_path):
    target = site / PATCH.file
    first = _apply_script(site, tmp_path)
    assert first.returncode == 0, first.stderr
    assert "mbridge-dequant-device on mbridge/" in first.stdout and ": applied" in first.stdout
    patched = target.read_text()
    assert 'device="cuda"' not in patched and patched.count("device=_load_device()") == 2
    marker = json.loads((tmp_path / "markers/mbridge-dequant-device.json").read_text())
    assert marker["state"] == "applied" and marker["upstream_sha256"] == PATCH.sha256
    second = _apply_script(site, tmp_path)
    assert second.returncode == 0 and "already applied (no-op)" in second.stdout
    assert target.read_text() == patched


def test_one_changed_byte_upstream_fails_the_apply_with_one_line(site, tmp_path):
    target = site / PATCH.file
    data = bytearray(target.read_bytes())
    data[100] ^= 0x01
    target.write_bytes(bytes(data))
    result = _apply_script(site, tmp_path)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    found = patching.sha256(bytes(data))
    assert re.search(rf"{re.escape(str(target))} has sha256 {found}, expected {PATCH.sha256}", lines[0])
    assert "re-derive the patch" in lines[0]


def test_patch_check_against_a_local_install(site):
    ok = run_build("patch-check", "--site", str(site))
    assert ok.returncode == 0 and "ok: fingerprint matches" in ok.stdout
    (site / PATCH.file).write_text((site / PATCH.file).read_text().replace("import json", "import json  # x"))
    changed = run_build("patch-check", "--site", str(site))
    assert changed.returncode == 1 and "FAILED" in changed.stdout and "re-derive" in changed.stdout


def test_an_upstream_that_contains_the_fix_makes_the_patch_obsolete(site, tmp_path):
    target = site / PATCH.file
    fixed = patching.apply_hunks(target.read_text(), patching.parse_diff(DIFF)) + "\n# a later upstream release\n"
    target.write_text(fixed)
    check = run_build("patch-check", "--site", str(site))
    assert check.returncode == 0 and "OBSOLETE" in check.stdout
    applied = _apply_script(site, tmp_path)
    assert applied.returncode == 0 and "the patch is obsolete" in applied.stdout
    assert target.read_text() == fixed


def test_patch_check_against_the_pinned_release():
    result = run_build("patch-check")
    assert result.returncode == 0, result.stdout + result.stderr
    version = MANIFEST.default_image.role("bridge").version
    assert f"mbridge-dequant-device (mbridge-{version}-py3-none-any.whl): ok" in result.stdout
    verl = MANIFEST.default_image.role("verl").version
    assert f"verl-cpu-process-group (verl-{verl}-py3-none-any.whl): ok" in result.stdout


def test_a_diff_that_does_not_match_is_refused():
    with pytest.raises(patching.PatchError, match="hunk 1 does not match"):
        patching.apply_hunks("a\nb\nc\n", patching.parse_diff("@@ -1,2 +1,2 @@\n x\n-y\n+z\n"))


def test_no_rendered_dockerfile_edits_third_party_files():
    for dockerfile in (REPO / "images").glob("*/Dockerfile*"):
        for line in dockerfile.read_text().splitlines():
            if "sed " in line:
                assert "/etc/apt/sources.list" in line or "APT_MIRROR" in line, f"{dockerfile}: {line}"
            assert not re.search(r"\d+s/", line), f"{dockerfile}: line-number edit: {line}"
            assert "--remote" not in line and "--no-check-certificate" not in line


# ---------------------------------------------------------------- verified git sources

def _git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def upstream(tmp_path):
    repo = tmp_path / "upstream"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "one")
    first = _git(repo, "rev-parse", "HEAD")
    _git(repo, "tag", "v1")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "two")
    return repo, first, _git(repo, "rev-parse", "HEAD")


def _fetch(upstream_repo, dest, *ref_args, commit):
    return subprocess.run([sys.executable, str(PAYLOAD_DIR / "bin/fetch_source.py"), "--repo",
                           f"file://{upstream_repo}", *ref_args, "--commit", commit, "--dest", str(dest)],
                          capture_output=True, text=True)


def test_a_tag_at_its_pinned_commit_is_checked_out(upstream, tmp_path):
    repo, first, _ = upstream
    result = _fetch(repo, tmp_path / "src", "--tag", "v1", commit=first)
    assert result.returncode == 0, result.stderr
    assert _git(tmp_path / "src", "rev-parse", "HEAD") == first


def test_a_moved_tag_fails(upstream, tmp_path):
    repo, first, second = upstream
    _git(repo, "tag", "-f", "v1", second)
    result = _fetch(repo, tmp_path / "src", "--tag", "v1", commit=first)
    assert result.returncode == 1
    assert f"tag v1 resolves to {second}, pinned {first}: the tag moved" in result.stderr


def test_a_branch_that_moved_on_still_builds_the_pinned_commit(upstream, tmp_path):
    repo, first, second = upstream
    result = _fetch(repo, tmp_path / "src", "--branch", "main", commit=first)
    assert result.returncode == 0, result.stderr
    assert f"main has moved on to {second}" in result.stdout
    assert _git(tmp_path / "src", "rev-parse", "HEAD") == first


def test_a_commit_that_is_not_on_the_branch_fails(upstream, tmp_path):
    repo, _, _ = upstream
    result = _fetch(repo, tmp_path / "src", "--branch", "main", commit="f" * 40)
    assert result.returncode == 1 and "is not on branch main" in result.stderr


# ---------------------------------------------------------------- downloaded artifacts

def test_a_download_with_the_wrong_sha256_is_refused(tmp_path):
    artifact = tmp_path / "thing-1.0.tar.gz"
    artifact.write_bytes(b"payload")
    with pytest.raises(UserError) as failure:
        artifacts.fetch_url(f"file://{artifact}", "0" * 64, tmp_path / "cache")
    message = str(failure.value)
    assert "download of file://" in message and f"sha256 {patching.sha256(b'payload')}, expected {'0' * 64}" in message
    assert not list((tmp_path / "cache").rglob("thing-1.0.tar.gz"))
    good = artifacts.fetch_url(f"file://{artifact}", patching.sha256(b"payload"), tmp_path / "cache")
    assert good.read_bytes() == b"payload"


# ---------------------------------------------------------------- runtime patches

UPSTREAM = textwrap.dedent('''
    def greet():
        return "hello from upstream"
''')
PATCHMOD = textwrap.dedent('''
    import upstream_mod
    from verl_image import runtime_patch

    EXPECTED = "{fingerprint}"

    def patched_greet():
        return "hello from the patch"

    def apply():
        runtime_patch.replace(upstream_mod, "greet", patched_greet, expect_sha256=EXPECTED, patch_id="greet-v1")

    def report(queue):
        import upstream_mod
        queue.put(upstream_mod.greet())
''')


@pytest.fixture
def patch_modules(tmp_path, monkeypatch):
    (tmp_path / "upstream_mod.py").write_text(UPSTREAM)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    for name in ("upstream_mod", "greet_patch"):
        sys.modules.pop(name, None)
    upstream_mod = importlib.import_module("upstream_mod")
    (tmp_path / "greet_patch.py").write_text(PATCHMOD.format(fingerprint=runtime_patch.fingerprint(upstream_mod.greet)))
    greet_patch = importlib.import_module("greet_patch")
    yield upstream_mod, greet_patch
    runtime_patch.REGISTERED.clear()


def test_runtime_patch_is_applied_once(patch_modules):
    upstream_mod, greet_patch = patch_modules
    greet_patch.apply()
    first = upstream_mod.greet
    greet_patch.apply()
    assert upstream_mod.greet is first and upstream_mod.greet() == "hello from the patch"
    assert upstream_mod.greet.__wrapped__() == "hello from upstream"


def test_a_spawned_child_sees_the_patch_only_through_the_child_entry_point(patch_modules):
    upstream_mod, greet_patch = patch_modules
    greet_patch.apply()
    runtime_patch.register("greet_patch:apply")
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    child = runtime_patch.spawn(ctx, greet_patch.report, args=(queue,))
    child.start()
    assert queue.get(timeout=60) == "hello from the patch"
    child.join(30)
    plain = ctx.Process(target=greet_patch.report, args=(queue,))
    plain.start()
    assert queue.get(timeout=60) == "hello from upstream"  # why the entry point is needed
    plain.join(30)


def test_an_unknown_upstream_raises_instead_of_patching(patch_modules, tmp_path):
    upstream_mod, greet_patch = patch_modules
    (tmp_path / "upstream_mod.py").write_text(UPSTREAM.replace("hello from upstream", "hello, changed upstream"))
    import importlib

    importlib.reload(upstream_mod)
    with pytest.raises(runtime_patch.UnknownUpstream, match="re-derive the patch"):
        greet_patch.apply()
    assert upstream_mod.greet() == "hello, changed upstream"


def test_hunks_are_read_by_their_counts():
    """A removed line that itself begins with "-- " is content, not a file header."""
    (hunk,) = patching.parse_diff("--- a/f\n+++ b/f\n@@ -1,2 +1,1 @@\n keep\n--- looks like a header\n")
    assert hunk.old == ("keep", "-- looks like a header") and hunk.new == ("keep",)
    with pytest.raises(patching.PatchError, match="ends early"):
        patching.parse_diff("@@ -1,3 +1,3 @@\n a\n")
