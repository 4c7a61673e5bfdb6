"""The example PR bodies under docs/examples/ (real bumps, made by the README's recipe in a scratch clone)
regenerate byte for byte from their patch, base commit and artifacts, and a stale one is named."""

import json
import shutil
import subprocess

import pytest

from image_pipeline.review import examples

from conftest import REPO, run_build, run_in_process

EXAMPLES = examples.examples(REPO)


def test_the_examples_show_a_wheel_bump_and_a_wheel_turned_source_build():
    bodies = [(example / examples.BODY).read_text() for example in EXAMPLES]
    assert len(bodies) >= 2, "docs/examples/ holds fewer than two example PR bodies"
    assert any(" -> sdist: " in body and "built from source with: `" in body for body in bodies), \
        "no example shows a wheel that became a declared source build, with its settings"
    assert any(" -> wheel: " not in body and "(file " in body for body in bodies), "no example changes a wheel"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_each_example_pr_body_regenerates_byte_for_byte(example):
    assert examples.regenerate(REPO, example) == (example / examples.BODY).read_text()


@pytest.fixture
def clone(tmp_path):
    """A clone of this repository (its history holds each example's base) with today's docs/examples/."""
    target = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", "--shared", str(REPO), str(target)], check=True)
    shutil.rmtree(target / "docs" / "examples", ignore_errors=True)
    shutil.copytree(REPO / "docs" / "examples", target / "docs" / "examples")
    return target


def test_check_names_a_stale_example_and_writing_restores_it(clone):
    example = examples.examples(clone)[0]
    body = example / examples.BODY
    good = body.read_text()
    body.write_text(good.replace("###", "####", 1))
    checked = run_build("pr-body-examples", "--check", root=clone)
    assert checked.returncode == 1 and f"{example.name}/{examples.BODY}: differs" in checked.stdout
    assert body.read_text() != good, "--check wrote the file"
    assert run_build("pr-body-examples", root=clone).returncode == 0
    assert body.read_text() == good


@pytest.mark.parametrize("base", ["--output=/tmp/x", "HEAD", "682767f", 7, None])
def test_an_example_base_that_is_not_a_full_commit_stops_in_one_line(clone, base):
    example = examples.examples(clone)[0]
    (example / "example.json").write_text(json.dumps({"base": base}))
    result = run_in_process("pr-body-examples", "--check", root=clone)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "example.json" in result.stderr and "base" in result.stderr


def test_a_patch_that_does_not_apply_on_its_base_stops_in_one_line(clone):
    example = examples.examples(clone)[0]
    (example / "change.patch").write_text("--- a/nothing\n+++ b/nothing\n@@ -1 +1 @@\n-a\n+b\n")
    result = run_in_process("pr-body-examples", "--check", root=clone)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "git apply failed" in result.stderr and "must apply to the base it was made on" in result.stderr


def test_a_base_missing_from_the_history_stops_in_one_line_saying_so(clone):
    example = examples.examples(clone)[0]
    (example / "example.json").write_text(json.dumps({"base": "0" * 40}))
    result = run_in_process("pr-body-examples", "--check", root=clone)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "git checkout failed" in result.stderr and "this clone's history" in result.stderr
