"""Rendering: golden files, drift gate, ordering the templates must encode, atomicity."""

import json
import re

from verlimage import render
from verlimage.manifest import load_manifest
from verlimage.paths import REPO, TEMPLATES_DIR

from conftest import edit, run_build, tree_snapshot


def test_committed_images_are_the_fresh_render():
    result = run_build("render", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_render_is_deterministic():
    manifest = load_manifest(REPO / "pins.yaml")
    assert render.render_all(manifest) == render.render_all(load_manifest(REPO / "pins.yaml"))


def test_hand_edit_of_a_rendered_dockerfile_fails_the_gate_with_a_diff(repo_copy):
    edit(repo_copy / "images/npu-a3/Dockerfile", 'pip install "transformers==5.10.4"', 'pip install "transformers==5.9.0"')
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1
    assert "--- a/images/npu-a3/Dockerfile" in result.stdout
    assert '-RUN . /usr/local/Ascend' in result.stdout and '+RUN . /usr/local/Ascend' in result.stdout
    assert "transformers==5.9.0" in result.stdout


def test_stale_and_extra_files_fail_the_gate_and_render_removes_stale_dirs(repo_copy):
    (repo_copy / "images/npu-a9").mkdir()
    (repo_copy / "images/npu-a9/Dockerfile").write_text("FROM scratch\n")
    (repo_copy / "images/cpu/notes.txt").write_text("hand-written\n")
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1
    assert "images/npu-a9/: stale image directory" in result.stdout
    assert "images/cpu/notes.txt: not generated" in result.stdout
    run_build("render", root=repo_copy, check=True)
    assert not (repo_copy / "images/npu-a9").exists()


def test_readme_tables_are_generated_and_checked(repo_copy):
    readme = repo_copy / "README.md"
    edit(readme, "| `cpu` (default) |", "| `cpu-typed-by-hand` |")
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1 and "README.md" in result.stdout
    run_build("render", root=repo_copy, check=True)
    assert "| `cpu` (default) |" in readme.read_text()


def _changed_by(repo_copy, old, new):
    before = tree_snapshot(repo_copy)
    edit(repo_copy / "pins.yaml", old, new)
    run_build("render", root=repo_copy, check=True)
    after = tree_snapshot(repo_copy)
    return sorted(p for p in after if before.get(p) != after[p] and p.startswith("images/"))


def test_one_pin_changes_exactly_the_images_that_use_it(repo_copy):
    changed = _changed_by(repo_copy, "depName=megatron-core\n    version: 0.16.1", "depName=megatron-core\n    version: 0.16.0")
    assert changed == ["images/cpu/Dockerfile", "images/cpu/pins.json"]


def test_an_npu_only_pin_changes_only_npu_images(repo_copy):
    changed = _changed_by(repo_copy, "commit: e4772499f7eb9fa9a68919dd1eaddef00e915b2d",
                          "commit: " + "a" * 40)
    assert changed == ["images/npu-a2/Dockerfile", "images/npu-a2/pins.json",
                       "images/npu-a3/Dockerfile", "images/npu-a3/pins.json"]


def test_no_version_literal_in_templates():
    offenders = []
    for path in TEMPLATES_DIR.rglob("*.j2"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\d+\.\d+", line) or re.search(r"==\s*\d", line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert not offenders, "versions belong in pins.yaml:\n" + "\n".join(offenders)


def _lines(name):
    return (REPO / "images" / name / "Dockerfile").read_text().splitlines()


def _index(lines, needle):
    hits = [i for i, line in enumerate(lines) if needle in line]
    assert hits, f"{needle!r} not in Dockerfile"
    return hits[0]


def test_generated_header_says_how_to_regenerate():
    for name in ("cpu", "npu-a2", "npu-a3"):
        head = "\n".join(_lines(name)[:3])
        assert "GENERATED FILE: do not edit" in head and "make render" in head


def test_transformers_goes_after_vllm_ascend_and_the_bridge():
    for name in ("npu-a2", "npu-a3"):
        lines = _lines(name)
        transformers = _index(lines, '"transformers==')
        assert transformers > _index(lines, "--dest /opt/src/vllm-ascend")
        assert transformers > _index(lines, '"mbridge==')
        assert transformers < _index(lines, "-- final image")
    lines = _lines("cpu")
    assert _index(lines, '"transformers==') > _index(lines, '"mbridge==')


def test_git_sources_are_fetched_by_ref_and_verified_against_the_commit():
    manifest = load_manifest(REPO / "pins.yaml")
    text = "\n".join(_lines("npu-a3"))
    for comp in manifest.images["npu-a3"].stack.values():
        if comp.source == "git":
            flag = "--tag" if comp.tag else "--branch"
            assert f"--repo {comp.repo} {flag} {comp.ref} \\\n      --commit {comp.commit}" in text
    assert "--remote" not in text and "submodule update --remote" not in text


def test_downloads_are_checked_against_sha256():
    text = "\n".join(_lines("npu-a3"))
    assert re.search(r'echo "[0-9a-f]{64}  /tmp/artifacts/vllm-[\d.]+\.tar\.gz" \| sha256sum -c -', text)


def test_apt_caches_are_cleaned_in_the_same_layer():
    for name in ("cpu", "npu-a3"):
        text = "\n".join(_lines(name))
        for run in re.findall(r"^RUN .*?(?<!\\)$", text, re.S | re.M):
            if "apt-get install" in run:
                assert "rm -rf /var/lib/apt/lists/*" in run


def test_npu_images_source_cann_env_under_bash():
    lines = _lines("npu-a2")
    build_stage = _index(lines, "FROM runtime AS build")
    assert lines[build_stage + 1] == 'SHELL ["/bin/bash", "-o", "pipefail", "-c"]'
    assert ". /usr/local/Ascend/ascend-toolkit/set_env.sh && . /usr/local/Ascend/nnal/atb/set_env.sh" in lines[
        _index(lines, 'pip install "torch-npu==')]


def test_env_verl_use_external_modules_is_set():
    assert '    VERL_USE_EXTERNAL_MODULES="mindspeed.megatron_adaptor"' in _lines("npu-a3")
    assert '    VERL_USE_EXTERNAL_MODULES="verl_cpu_platform"' in _lines("cpu")


def test_pins_json_is_the_resolved_image():
    manifest = load_manifest(REPO / "pins.yaml")
    for name, image in manifest.images.items():
        data = json.loads((REPO / "images" / name / "pins.json").read_text())
        assert data == image.pins(manifest.repository)
        assert data["stack"]["torch"]["version"] == "2.13.0"


def test_template_errors_exit_2_and_write_nothing(repo_copy):
    edit(repo_copy / "templates/Dockerfile.j2", "{{ image.python }}", "{{ image.pyhton }}")
    edit(repo_copy / "pins.yaml", "version: 0.16.1", "version: 0.16.0")  # so that a render would change files
    before = tree_snapshot(repo_copy / "images")
    result = run_build("render", root=repo_copy)
    assert result.returncode == 2, result.stderr
    assert "pyhton" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert tree_snapshot(repo_copy / "images") == before
