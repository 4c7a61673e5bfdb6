"""Pin bumps (all or nothing: pins.yaml, locks, images/, README), affected images, matrix, pin policy,
PR body, outdated. Versions are derived from pins.yaml, never spelled out."""

import json
import subprocess

import pytest
from packaging.version import Version

from image_pipeline import files
from image_pipeline.errors import UserError
from image_pipeline.manifest import load_manifest
from image_pipeline.review import outdated

from conftest import REPO, edit, manifest, run_build, tree_snapshot

M = manifest()
CORE = M.components["megatron-core"]  # pins only the cpu image, and stays in its X.Y line below
ISSUE = "https://github.com/NVIDIA/Megatron-LM/releases"


def _git(root, *args):
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(repo_copy):
    """The scratch repo as a git repository whose HEAD is the base of the change."""
    _git(repo_copy, "init", "-q")
    _git(repo_copy, "add", "-A")
    _git(repo_copy, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "base")
    return repo_copy


def _changed(root):
    return sorted(line[3:] for line in _git(root, "status", "--porcelain").splitlines())


def _comments(text):
    return [line.strip() for line in text.splitlines() if line.strip().startswith("#")]


def _same_line_release():
    """Another release of megatron-core in the pinned X.Y line (the cpu image shares that line)."""
    v = Version(CORE.version)
    return f"{v.major}.{v.minor}.{0 if v.micro else 1}"


# ---------------------------------------------------------------- refused before anything resolves

def test_options_that_do_not_fit_the_pin_are_refused(repo):
    result = run_build("bump", "mbridge", "--url", "https://example.org/x.whl", "--reason", "r", root=repo)
    assert result.returncode == 2 and "--url does not apply to a pypi pin" in result.stderr
    result = run_build("bump", "vllm-ascend-source", "--tag", "v9", "--reason", "r", root=repo)
    assert result.returncode == 2 and "--commit" in result.stderr
    assert _changed(repo) == []


def test_text_that_cannot_live_on_one_table_row_is_refused(repo):
    result = run_build("bump", "megatron-core", _same_line_release(), "--reason", "two\nlines", root=repo)
    assert result.returncode == 2 and "one line of text" in result.stderr
    assert _changed(repo) == []


def test_unknown_component_and_empty_reason(repo):
    assert "unknown component 'transformer'" in run_build("bump", "transformer", "1.0", "--reason", "r",
                                                          root=repo).stderr
    assert run_build("bump", "verl", "0.1", "--reason", " ", root=repo).returncode == 2
    assert _changed(repo) == []


def test_torch_alone_fails_naming_the_torch_npu_rule_and_touches_nothing(repo):
    torch = Version(M.components["torch"].version)
    before = tree_snapshot(repo)
    result = run_build("bump", "torch", f"{torch.major}.{torch.minor + 1}.0", "--reason", "r", root=repo)
    assert result.returncode == 2
    assert "[torch-npu-matches-torch]" in result.stderr and "--also torch_npu=" in result.stderr
    assert tree_snapshot(repo) == before


def test_a_failed_commit_restores_every_file_it_had_replaced(tmp_path, monkeypatch):
    paths = [tmp_path / name for name in ("a", "b", "c")]
    for path in paths:
        path.write_text(f"old {path.name}\n")
    real, calls = files.atomic_write, []

    def flaky(path, text):
        calls.append(path)
        if len(calls) == 3:
            raise OSError("disk full")
        real(path, text)

    monkeypatch.setattr(files, "atomic_write", flaky)
    with pytest.raises(OSError):
        files.commit({path: f"new {path.name}\n" for path in paths})
    assert [p.read_text() for p in paths] == ["old a\n", "old b\n", "old c\n"]


def test_lint_pins_wants_a_reason_and_for_npu_pins_an_issue(repo):
    transformers = M.components["transformers"]
    edit(repo / "pins.yaml", f"depName=transformers\n    version: {transformers.version}",
         f"depName=transformers\n    version: {transformers.version}.1")
    result = run_build("lint-pins", "--base", "HEAD", root=repo)
    assert result.returncode == 1
    assert "components.transformers: reason is unchanged since the base" in result.stdout
    edit(repo / "pins.yaml", f"issue: {transformers.get('issue')}", "")
    result = run_build("lint-pins", "--base", "HEAD", root=repo)
    npu = [name for name in M.users_of("transformers") if M.images[name].device == "npu"]
    assert f"reaches {', '.join(npu)}: an issue link is required" in result.stdout


def test_affected_follows_every_kind_of_build_input(repo):
    assert run_build("affected", "--base", "HEAD", root=repo).stdout.split() == []
    edit(repo / "smoke_tests/train.py", "LOSS_KEEP = ", "LOSS_KEEP  = ")
    lines = run_build("affected", "--base", "HEAD", root=repo).stdout.splitlines()
    assert sorted({line.split()[0] for line in lines}) == sorted(M.images)
    assert all("tree:smoke_tests" in line for line in lines)


def test_affected_counts_an_unrendered_pin_change_per_platform(repo):
    mindspeed = M.components["mindspeed"]
    edit(repo / "pins.yaml", f"commit: {mindspeed.get('commit')}", "commit: " + "ab" * 20)
    lines = run_build("affected", "--base", "HEAD", root=repo).stdout.splitlines()
    assert sorted(line.split(":")[0] for line in lines) == sorted(
        f"{name} {platform}" for name in M.users_of("mindspeed") for platform in M.images[name].platforms)


def test_matrix_gives_each_image_and_platform_its_runner(repo):
    mindspeed = M.components["mindspeed"]
    edit(repo / "pins.yaml", f"commit: {mindspeed.get('commit')}", "commit: " + "ab" * 20)
    matrix = json.loads(run_build("matrix", "--base", "HEAD", "--json", root=repo).stdout)
    for job in matrix["include"]:
        image = M.images[job["image"]]
        assert job["runs_on"] == image.runner.runs_on[job["platform"]] and job["device"] == "npu"
    assert len(matrix["include"]) == sum(len(M.images[n].platforms) for n in M.users_of("mindspeed"))
    assert {job["image"] for job in matrix["include"]} == set(M.users_of("mindspeed"))


# ---------------------------------------------------------------- bumps that re-lock (network)

@pytest.mark.network
def test_bump_changes_only_the_pin_its_locks_and_the_images_that_use_it(repo):
    before = (repo / "pins.yaml").read_text()
    new = _same_line_release()
    result = run_build("bump", "megatron-core", new, "--reason", "a fix of the core_r0.16 line", "--issue", ISSUE,
                       root=repo)
    assert result.returncode == 0, result.stderr
    assert "affected images: cpu" in result.stdout
    assert _changed(repo) == ["README.md", "images/cpu/Dockerfile", "images/cpu/pins.json",
                              "images/cpu/pylock.linux-amd64.toml", "images/cpu/pylock.linux-arm64.toml", "pins.yaml"]
    assert _comments((repo / "pins.yaml").read_text()) == _comments(before)
    diff = [line for line in _git(repo, "diff", "-U0", "pins.yaml").splitlines()
            if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert sorted(diff) == sorted([f"-    version: {CORE.version}", f"+    version: {new}",
                                   f"-    reason: {CORE.get('reason')}", "+    reason: a fix of the core_r0.16 line",
                                   f"+    issue: {ISSUE}"])
    assert load_manifest(repo / "pins.yaml").components["megatron-core"].version == new
    lock = (repo / "images/cpu/pylock.linux-amd64.toml").read_text()
    assert f'name = "megatron-core"\nversion = "{new}"' in lock
    assert run_build("render", "--check", root=repo).returncode == 0
    matrix = json.loads(run_build("matrix", "--base", "HEAD", "--json", root=repo).stdout)
    assert sorted((j["image"], j["platform"]) for j in matrix["include"]) == sorted(
        ("cpu", p) for p in M.default_image.platforms)


@pytest.mark.network
def test_bump_keeps_crlf_line_endings_and_edits_flow_style_components(repo):
    pins = repo / "pins.yaml"
    text = pins.read_text()
    block = text[text.index("  megatron-core:\n"):text.index("  mindspeed:\n")]
    flow = (f"  megatron-core: {{source: pypi, version: {CORE.version}, reason: core line}}\n"
            f"  # renovate: datasource=pypi depName=megatron-core\n")
    pins.write_bytes((text.replace(block, flow)).replace("\n", "\r\n").encode())
    result = run_build("bump", "megatron-core", _same_line_release(), "--reason", "r", "--issue", ISSUE, root=repo)
    assert result.returncode == 0, result.stderr
    raw = pins.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n")  # no mixed line endings
    assert f"version: {_same_line_release()}".encode() in raw and f"issue: {ISSUE}".encode() in raw


@pytest.mark.network
def test_dry_run_resolves_shows_the_diff_and_writes_nothing(repo):
    result = run_build("bump", "megatron-core", _same_line_release(), "--reason", "r", "--dry-run", root=repo)
    assert result.returncode == 0, result.stderr
    assert f"-    version: {CORE.version}" in result.stdout and f"+    version: {_same_line_release()}" in result.stdout
    assert "would change: " in result.stdout and "images/cpu/pylock.linux-amd64.toml" in result.stdout
    assert _changed(repo) == []


@pytest.mark.network
def test_a_bump_that_does_not_resolve_is_refused_and_touches_nothing(repo):
    before = tree_snapshot(repo)
    result = run_build("bump", "megatron-core", f"{CORE.version}.999", "--reason", "r", root=repo)
    assert result.returncode == 2 and "does not resolve" in result.stderr, result.stderr
    assert "\n" not in result.stderr.strip()
    assert tree_snapshot(repo) == before


@pytest.mark.network
def test_pr_body_a_reviewer_can_act_on(repo, tmp_path):
    new = _same_line_release()
    run_build("bump", "megatron-core", new, "--reason", "a fix of the core_r0.16 line", "--issue", ISSUE,
              root=repo, check=True)
    run = tmp_path / "artifacts/cpu/20261202T000000Z-1"
    run.mkdir(parents=True)
    (run / "run.json").write_text(json.dumps({"platform": "linux/amd64"}))
    (run / "results.json").write_text(json.dumps([{"name": "train", "status": "PASS"},
                                                  {"name": "sync.collective", "status": "PASS"}]))
    (run / "metrics.txt").write_text("train.loss.step_01:6.94\ntrain.loss.step_02:0.64\nsync.collective.synthetic.gbps:0.85\n")
    (run / "train.curve.json").write_text(json.dumps({"check": "train", "run": {"1": 6.94, "2": 0.64},
                                                      "baseline": {"1": 6.94, "2": 0.65}, "baseline_file": "b.txt"}))
    body = run_build("pr-body", "--base", "HEAD", "--artifacts", str(tmp_path / "artifacts"), root=repo,
                     check=True).stdout
    assert body.startswith(f"## Pin bump: megatron-core {CORE.version} -> {new}")
    assert f"| `megatron-core` | {CORE.version} | {new} | [pypi](https://pypi.org/project/megatron-core/{new}/) |" in body
    assert f"- **megatron-core**: a fix of the core_r0.16 line ([issue]({ISSUE}))" in body
    assert f"~ megatron-core {CORE.version} -> {new}" in body  # the lock changes, per platform
    assert "- [x] `torch-npu-matches-torch`" in body
    assert "| `cpu` | linux/amd64 | hosted-cpu |" in body
    assert "- `cpu` linux/amd64: pass, 2 PASS, `train` loss 6.940 -> 0.640 (baseline 0.650)" in body
    assert "collective 0.85 GB/s" in body
    assert "- [ ] `cpu` linux/arm64: build and smoke-test on `hosted-cpu`" in body


@pytest.mark.network
def test_outdated_on_real_pypi():
    rows = {r.component: r for r in outdated.check(manifest(), fetch_git=lambda repo: [])}
    newest = Version(rows["transformers"].newest)
    assert newest >= Version(M.components["transformers"].version)
    assert rows["megatron-lm"].note.startswith("not checked")


def test_newest_release_ignores_prereleases():
    versions = [outdated.Version(v) for v in ("1.0", "1.1rc1", "1.0.post1", "2.0.dev1")]
    assert str(outdated.newest_release(versions)) == "1.0.post1"


def test_bumping_an_archive_moves_its_urls_and_drops_their_old_sha256(tmp_path):
    from image_pipeline.manifest import document
    from image_pipeline.review import bump

    kernels = next(c for c in M.components.values() if c.source == "archive")
    pins = tmp_path / "pins.yaml"
    pins.write_text((REPO / "pins.yaml").read_text())
    doc = document.load(pins)
    doc.tree["components"][kernels.name]["builds"]["linux/arm64"]["sha256"] = "0" * 64
    newer = f"{kernels.version}.post1"
    bump.edit(doc, kernels.name, bump.fields_for(kernels, {"version": newer}))
    body = doc.tree["components"][kernels.name]
    assert body["version"] == newer
    for platform, build in body["builds"].items():
        assert build["url"] == kernels.build_for(platform)["url"] and "{version}" in build["url"]
        assert "sha256" not in build
    with pytest.raises(UserError, match="does not apply"):
        bump.fields_for(kernels, {"version": newer, "commit": "ab" * 20})
