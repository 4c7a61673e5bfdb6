"""Values that cross a boundary into a program or a gate: refs handed to git, committed baselines, the
image a baseline is written from. Each is refused in one line (exit 2) before anything acts on it."""

import pytest

from image_pipeline.builder import image_config
from image_pipeline.errors import UserError
from image_pipeline.smoke import baseline

from conftest import REPO, manifest, run_in_process

M = manifest()


@pytest.mark.parametrize("command", ["affected", "matrix", "lint-pins", "pr-body"])
def test_a_base_ref_that_looks_like_an_option_never_reaches_git(command, tmp_path):
    target = tmp_path / "v"
    result = run_in_process(command, f"--base=--output={target}", root=REPO)
    assert result.returncode == 2 and "is not a git ref" in result.stderr and "--base" in result.stderr
    assert not target.exists()


@pytest.mark.parametrize("text,line,words", [
    ("train.step_time_s.mean:inf\n", 2, "train.step_time_s.mean: 'inf' is not a finite number"),
    ("train.loss.step_01:1\ntrain.loss.step_01:2\n", 3, "a second value"),
    ("train.step_-1:1\n", 2, "no metric of that name"),
    ("made_with.gpu:x\n", 2, "unknown (made_with holds"),
])
def test_a_committed_baseline_is_read_strictly_by_validate_and_render_check(repo_copy, text, line, words):
    path = repo_copy / "smoke_tests/baselines/cpu.cpu.amd64.txt"
    path.write_text("made_with.device:cpu x86_64\n" + text)
    for command in (["validate"], ["render", "--check"]):
        result = run_in_process(*command, root=repo_copy)
        assert result.returncode == 2, result.stdout + result.stderr
        said = result.stderr.strip()
        assert said.startswith(f"error: smoke_tests/baselines/cpu.cpu.amd64.txt:{line}: ") and words in said, said


def test_a_baseline_made_on_another_architecture_is_refused(repo_copy):
    arm = (repo_copy / "smoke_tests/baselines/cpu.cpu.arm64.txt").read_text()
    (repo_copy / "smoke_tests/baselines/cpu.cpu.amd64.txt").write_text(arm)
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2 and "made on arm64, named amd64" in result.stderr


def test_a_baseline_comes_only_from_an_image_labelled_as_that_image_and_platform():
    image = M.default_image
    pins = image_config.oci_labels(M.repository, image, "linux/amd64", "d" * 64, "sha256:b",
                                   (REPO / f"images/{image.name}/pins.json").read_text(), "t" * 64)
    baseline.require_image_of(pins, "ref", image, "linux/amd64")
    with pytest.raises(UserError, match="labelled image 'cpu' for 'linux/amd64', not cpu for linux/arm64"):
        baseline.require_image_of(pins, "ref", image, "linux/arm64")
    other = next(img for img in M.images.values() if img.name != image.name)
    with pytest.raises(UserError, match=f"not {other.name} for linux/amd64"):
        baseline.require_image_of(pins, "ref", other, "linux/amd64")
    with pytest.raises(UserError, match="labelled image None"):
        baseline.require_image_of({}, "ref", image, "linux/amd64")


def test_a_baseline_on_another_device_than_its_image_is_refused(repo_copy):
    arm = (repo_copy / "smoke_tests/baselines/cpu.cpu.arm64.txt").read_text()
    (repo_copy / "smoke_tests/baselines/cpu.npu.arm64.txt").write_text(arm.replace("made_with.device:cpu", "made_with.device:npu"))
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2 and "is a cpu image: no baseline on npu" in result.stderr
