"""Pin bumps: in-place edit, rules, re-render, affected images, matrix, pin policy, PR body, outdated."""

import json
import subprocess

import pytest

from verlimage import outdated
from verlimage.manifest import load_manifest

from conftest import REPO, edit, run_build

REASON = "transformers 5.11 fixes Qwen3 rope scaling"
ISSUE = "https://github.com/huggingface/transformers/releases/tag/v5.11.0"


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


def test_bump_changes_only_pins_and_the_images_that_use_it(repo):
    before = (repo / "pins.yaml").read_text()
    result = run_build("bump", "transformers", "5.11.0", "--reason", REASON, "--issue", ISSUE, root=repo)
    assert result.returncode == 0, result.stderr
    assert "affected images: npu-a2, npu-a3, cpu" in result.stdout
    assert _changed(repo) == ["README.md", "images/cpu/Dockerfile", "images/cpu/pins.json",
                              "images/npu-a2/Dockerfile", "images/npu-a2/pins.json", "images/npu-a3/Dockerfile",
                              "images/npu-a3/pins.json", "pins.yaml"]
    after = (repo / "pins.yaml").read_text()
    assert _comments(after) == _comments(before)
    diff = _git(repo, "diff", "-U0", "pins.yaml").splitlines()
    assert sorted(line for line in diff if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))) == sorted([
        "-    version: 5.10.4", "+    version: 5.11.0",
        "-    reason: newest release verl 0.9.1 accepts (transformers<5.11); installed after vllm-ascend, "
        "which pins an older one", f"+    reason: {REASON}", f"+    issue: {ISSUE}"])
    assert load_manifest(repo / "pins.yaml").components["transformers"].version == "5.11.0"
    assert run_build("render", "--check", root=repo).returncode == 0
    assert run_build("lint", root=repo).returncode == 0


def test_a_pin_used_by_one_image_affects_one_image(repo):
    run_build("bump", "megatron-core", "0.16.0", "--reason", "r", root=repo, check=True)
    assert _changed(repo) == ["README.md", "images/cpu/Dockerfile", "images/cpu/pins.json", "pins.yaml"]
    assert run_build("affected", "--base", "HEAD", root=repo).stdout.split() == ["cpu"]


def test_torch_alone_fails_naming_the_torch_npu_rule(repo):
    before = (repo / "pins.yaml").read_text()
    result = run_build("bump", "torch", "2.14.0", "--reason", "r", root=repo)
    assert result.returncode == 2
    assert "[torch-npu-matches-torch]" in result.stderr and "--also torch_npu=" in result.stderr
    assert (repo / "pins.yaml").read_text() == before and _changed(repo) == []


def test_torch_and_torch_npu_move_together(repo):
    result = run_build("bump", "torch", "2.14.0", "--also", "torch_npu=2.14.0", "--reason", "r", "--issue",
                       "https://github.com/Ascend/pytorch/releases", root=repo)
    assert result.returncode == 0, result.stderr
    manifest = load_manifest(repo / "pins.yaml")
    assert (manifest.components["torch"].version, manifest.components["torch_npu"].version) == ("2.14.0", "2.14.0")


def test_dry_run_shows_the_diff_and_writes_nothing(repo):
    result = run_build("bump", "verl", "0.9.2", "--reason", "r", "--dry-run", root=repo)
    assert result.returncode == 0
    assert "-    version: 0.9.1" in result.stdout and "+    version: 0.9.2" in result.stdout
    assert "would change: pins.yaml" in result.stdout
    assert _changed(repo) == []


def test_git_pin_bump_takes_tag_and_commit(repo):
    sha = "1" * 40
    result = run_build("bump", "vllm-ascend", "--tag", "v0.23.1", "--commit", sha, "--reason", "r", "--issue",
                       "https://github.com/vllm-project/vllm-ascend/releases", root=repo)
    assert result.returncode == 0, result.stderr
    comp = load_manifest(repo / "pins.yaml").components["vllm-ascend"]
    assert (comp.tag, comp.commit) == ("v0.23.1", sha)
    assert "affected images: npu-a2, npu-a3" in result.stdout
    missing = run_build("bump", "vllm-ascend", "--tag", "v0.23.2", "--reason", "r", root=repo)
    assert missing.returncode == 2 and "--commit" in missing.stderr


def test_unknown_component_and_empty_reason(repo):
    assert "unknown component 'transformer'" in run_build("bump", "transformer", "1.0", "--reason", "r",
                                                          root=repo).stderr
    assert run_build("bump", "verl", "0.9.2", "--reason", " ", root=repo).returncode == 2


def test_affected_follows_context_and_smoke_test_changes(repo):
    assert run_build("affected", "--base", "HEAD", root=repo).stdout.split() == []
    (repo / "smoke_tests/train.py").write_text((repo / "smoke_tests/train.py").read_text() + "\n# changed\n")
    assert run_build("affected", "--base", "HEAD", root=repo).stdout.split() == ["npu-a2", "npu-a3", "cpu"]


def test_affected_counts_an_unrendered_pin_change(repo):
    edit(repo / "pins.yaml", "commit: e4772499f7eb9fa9a68919dd1eaddef00e915b2d", "commit: " + "ab" * 20)
    assert run_build("affected", "--base", "HEAD", root=repo).stdout.split() == ["npu-a2", "npu-a3"]


def test_matrix_gives_each_image_its_runner(repo):
    run_build("bump", "torch_npu", "2.13.0.post1", "--reason", "r", "--issue", ISSUE, root=repo, check=True)
    matrix = json.loads(run_build("matrix", "--base", "HEAD", "--json", root=repo).stdout)
    assert matrix == {"include": [
        {"image": "npu-a2", "device": "npu", "runner": "ascend-a2", "platforms": "linux/arm64,linux/amd64",
         "runs_on": ["self-hosted", "linux", "arm64", "ascend-a2"]},
        {"image": "npu-a3", "device": "npu", "runner": "ascend-a3", "platforms": "linux/arm64,linux/amd64",
         "runs_on": ["self-hosted", "linux", "arm64", "ascend-a3"]}]}


def test_lint_pins_wants_a_reason_and_for_npu_pins_an_issue(repo):
    edit(repo / "pins.yaml", "depName=transformers\n    version: 5.10.4", "depName=transformers\n    version: 5.11.0")
    result = run_build("lint-pins", "--base", "HEAD", root=repo)
    assert result.returncode == 1
    assert "components.transformers: reason is unchanged since the base" in result.stdout
    assert "reaches npu-a2, npu-a3: an issue link is required" in result.stdout
    _git(repo, "checkout", "pins.yaml")
    run_build("bump", "transformers", "5.11.0", "--reason", REASON, "--issue", ISSUE, root=repo, check=True)
    assert run_build("lint-pins", "--base", "HEAD", root=repo).returncode == 0
    _git(repo, "checkout", ".")
    run_build("bump", "megatron-core", "0.16.0", "--reason", "cpu only: no issue needed", root=repo, check=True)
    assert run_build("lint-pins", "--base", "HEAD", root=repo).returncode == 0


def test_pr_body_a_reviewer_can_act_on(repo, tmp_path):
    run_build("bump", "transformers", "5.11.0", "--reason", REASON, "--issue", ISSUE, root=repo, check=True)
    run = tmp_path / "artifacts/cpu/20261202T000000Z-1"
    run.mkdir(parents=True)
    (run / "results.json").write_text(json.dumps([{"name": "train", "passed": True}, {"name": "sync.nccl", "passed": True}]))
    (run / "metrics.txt").write_text("train.loss.first:6.94\ntrain.loss.last:0.64\nsync.nccl.synthetic.gbps:0.85\n"
                                     "sync.mooncake.synthetic.gbps:0.55\n")
    body = run_build("pr-body", "--base", "HEAD", "--artifacts", str(tmp_path / "artifacts"), root=repo, check=True).stdout
    assert body.startswith("## Pin bump: transformers 5.10.4 -> 5.11.0")
    assert "| `transformers` | 5.10.4 | 5.11.0 | [pypi](https://pypi.org/project/transformers/5.11.0/) |" in body
    assert f"- **transformers**: {REASON} ([issue]({ISSUE}))" in body
    assert "- [x] `torch-npu-matches-torch`" in body
    assert "| `npu-a3` | npu | ascend-a3 |" in body
    assert '+RUN . /usr/local/Ascend/ascend-toolkit/set_env.sh && . /usr/local/Ascend/nnal/atb/set_env.sh && pip install "transformers==5.11.0"' in body
    assert "- `cpu`: pass, 2 checks, loss 6.940 -> 0.640" in body and "nccl 0.85 GB/s, mooncake 0.55 GB/s" in body
    assert "- [ ] `npu-a2`: build and smoke-test on a `ascend-a2` runner (`make image IMAGE=npu-a2`)" in body


def test_outdated_on_real_pypi():
    rows = {r.component: r for r in outdated.check(load_manifest(REPO / "pins.yaml"),
                                                   fetch_git=lambda repo: [])}
    assert rows["transformers"].note == "newer release"
    assert outdated.Version(rows["transformers"].newest) > outdated.Version("5.10.4")
    assert rows["megatron-lm"].note.startswith("not checked")


def test_newest_release_ignores_prereleases():
    versions = [outdated.Version(v) for v in ("1.0", "1.1rc1", "1.0.post1", "2.0.dev1")]
    assert str(outdated.newest_release(versions)) == "1.0.post1"
