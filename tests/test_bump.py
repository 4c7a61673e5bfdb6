"""Pin bumps (all or nothing: pins.yaml, locks, images/, README and docs/), affected images, matrix, pin policy,
PR body, outdated. Versions are derived from pins.yaml, never spelled out."""

import json
import re
import subprocess

import pytest
from packaging.version import Version

from image_pipeline import files
from image_pipeline.errors import UserError
from image_pipeline.manifest import load_manifest
from image_pipeline.review import outdated

from conftest import REPO, edit, manifest, run_build, run_in_process, tree_snapshot

M = manifest()
CORE = M.components["megatron-core"]  # pins only the cpu image, and stays in its X.Y line below
ISSUE = "https://github.com/NVIDIA/Megatron-LM/releases"
NEW_ISSUE = "https://github.com/verl-project/verl/issues/1"  # a link no pin carries yet


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
    assert "[torch-npu-matches-torch]" in result.stderr and "--also torch-npu=" in result.stderr
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


def _pins_runners():
    """The runners table as written in pins.yaml (raw YAML, not through the model under test)."""
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((REPO / "pins.yaml").read_text())["runners"]


def test_matrix_builds_npu_images_on_hosted_runners_and_runs_device_jobs_only_on_named_device_runners(repo):
    mindspeed = M.components["mindspeed"]
    edit(repo / "pins.yaml", f"commit: {mindspeed.get('commit')}", "commit: " + "ab" * 20)
    jobs = json.loads(run_build("matrix", "--base", "HEAD", "--json", root=repo).stdout)["include"]
    runners, raw_images = _pins_runners(), M.users_of("mindspeed")
    assert raw_images and all(M.images[name].device == "npu" for name in raw_images)
    device_labels = {tuple(labels) for runner in runners["device"].values() if runner["device"] == "npu"
                     for labels in runner["runs_on"].values()}
    for job in jobs:
        image = M.images[job["image"]]
        if job["stage"] == "build":  # a hosted runner of the platform's architecture, never an Ascend one
            assert job["runs_on"] == runners["build"][job["platform"]]
            assert tuple(job["runs_on"]) not in device_labels
        else:
            assert job["stage"] == "device" and job["runner"] == image.runner.name
            assert job["runs_on"] == runners["device"][image.runner.name]["runs_on"][job["platform"]]
    keys = sorted((j["image"], j["platform"], j["stage"]) for j in jobs)
    assert len(keys) == len(set(keys))  # one job per (image, platform, stage)
    assert sorted((i, p) for i, p, s in keys if s == "build") == sorted(
        (name, p) for name in raw_images for p in M.images[name].platforms)
    # device jobs exactly where pins.yaml names a device runner: none on amd64, where no x86 Ascend runner exists
    assert sorted((i, p) for i, p, s in keys if s == "device") == sorted(
        (name, p) for name in raw_images for p in M.images[name].platforms
        if p in runners["device"][M.images[name].runner.name]["runs_on"])
    assert not [k for k in keys if k[1] == "linux/amd64" and k[2] == "device"]


def test_matrix_builds_every_platform_of_an_image_affected_on_one(repo):
    """The merge publishes all platforms of an image together, so a change to one platform's lock still
    runs both stages of the others (the unchanged ones build from the cache)."""
    lock = repo / "images/cpu/pylock.linux-amd64.toml"
    lock.write_text(lock.read_text() + "\n")
    assert run_build("affected", "--base", "HEAD", root=repo).stdout.split()[:2] == ["cpu", "linux/amd64:"]
    jobs = json.loads(run_build("matrix", "--base", "HEAD", "--json", root=repo).stdout)["include"]
    assert sorted((j["platform"], j["stage"]) for j in jobs) == sorted(
        (p, s) for p in M.default_image.platforms for s in ("build", "device"))


# ---------------------------------------------------------------- bumps that re-lock (network)

@pytest.mark.network
def test_bump_changes_only_the_pin_its_locks_and_the_images_that_use_it(repo):
    before = (repo / "pins.yaml").read_text()
    new = _same_line_release()
    result = run_build("bump", "megatron-core", new, "--reason", "a fix of the core_r0.16 line", "--issue", ISSUE,
                       root=repo)
    assert result.returncode == 0, result.stderr
    assert "affected images: cpu" in result.stdout
    assert _changed(repo) == ["docs/reference.md", "images/cpu/Dockerfile", "images/cpu/pins.json",
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
    assert sorted({(j["image"], j["platform"]) for j in matrix["include"]}) == sorted(
        ("cpu", p) for p in M.default_image.platforms)  # one job per stage of each


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
    (run / "run.json").write_text(json.dumps({"platform": "linux/amd64", "tree_inputs": _tree(repo, "cpu", "linux/amd64")}))
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
    assert "- [ ] `cpu` linux/arm64: build stage on " in body and "- [ ] `cpu` linux/arm64: device stage on " in body


def _tree(root, image, platform) -> str:
    """The tree digest an image built from root carries (and a smoke run of it records)."""
    from image_pipeline.builder.inputs import tree_digest
    from image_pipeline.review import affected

    return tree_digest(affected.all_inputs(root, load_manifest(root / "pins.yaml"))[0][(image, platform)])


def _stage_run(artifacts, image, platform, stage, results, stamp, tree, faults=()):
    run = artifacts / image / f"20261202T00000{stamp}Z-1"
    run.mkdir(parents=True)
    (run / "run.json").write_text(json.dumps({"platform": platform, "stage": stage, "tree_inputs": tree,
                                              "faults": list(faults)}))
    (run / "results.json").write_text(json.dumps([{"name": n, "status": s} for n, s in results.items()]))


def test_the_tree_an_image_is_labelled_with_is_the_one_a_pr_body_computes_for_its_tree():
    from image_pipeline.builder import pipeline
    from image_pipeline.builder.inputs import tree_digest
    from image_pipeline.review import affected

    computed, _ = affected.all_inputs(REPO, M)
    for name, image in M.images.items():
        rendered = pipeline.rendered_files(M, image, REPO)
        for platform in image.platforms:
            assert pipeline.tree_inputs_of(REPO, image, platform, rendered) == tree_digest(computed[(name, platform)])


class _Started(Exception):
    pass


def test_a_smoke_run_records_the_tree_and_content_hash_its_image_is_labelled_with(tmp_path):
    """An engine stand-in that holds one labelled image and starts nothing (run.json is written first)."""
    from types import SimpleNamespace

    from image_pipeline.builder import image_config
    from image_pipeline.host import passthrough
    from image_pipeline.smoke import runner

    def start(*args, **kwargs):
        raise _Started

    labels = {image_config.TREE_INPUTS_LABEL: "t" * 64, image_config.CONTENT_LABEL: "c" * 64}
    client = SimpleNamespace(images=SimpleNamespace(get=lambda reference: SimpleNamespace(labels=labels)),
                             containers=SimpleNamespace(run=start))
    with pytest.raises(_Started):
        runner.run(client, "cpu", "ref", artifacts=tmp_path, echo=False, npu=passthrough.NpuPassthrough((), ()))
    (meta,) = tmp_path.glob("cpu/*/run.json")
    assert json.loads(meta.read_text())["tree_inputs"] == "t" * 64
    assert json.loads(meta.read_text())["content_hash"] == "c" * 64


def test_pr_body_counts_only_runs_of_the_reviewed_tree_without_faults(repo, tmp_path):
    """A run of the image before the change (another tree) or with a fault injected is no evidence of it:
    the stage stays owed, and the body says why the run in artifacts/ does not count."""
    edit(repo / "smoke_tests/train.py", "WARMUP_STEPS = ", "WARMUP_STEPS  = ")
    artifacts = tmp_path / "artifacts"
    _stage_run(artifacts, "cpu", "linux/amd64", "build", {"conformance.versions": "PASS"}, 1, _tree(REPO, "cpu", "linux/amd64"))
    _stage_run(artifacts, "cpu", "linux/amd64", "device", {"train": "PASS"}, 2, _tree(repo, "cpu", "linux/amd64"),
               faults=["no-pip-index"])
    body = run_build("pr-body", "--base", "HEAD", "--artifacts", str(artifacts), root=repo, check=True).stdout
    assert "- `cpu` linux/amd64 build stage" not in body and "- `cpu` linux/amd64 device stage" not in body
    assert ("- [ ] `cpu` linux/amd64: build stage on `" in body
            and "(the newest run, 20261202T000001Z-1, is of another tree: no evidence of this change)" in body)
    assert "- [ ] `cpu` linux/amd64: device stage on `" in body


@pytest.mark.parametrize("file, text", [("results.json", '{"name": "train"}'), ("results.json", "[{"),
                                        ("run.json", "[]"), ("run.json", "{"), ("train.curve.json", '{"run": {"x": 1}}')])
def test_pr_body_stops_in_one_line_naming_a_run_it_cannot_read(repo, tmp_path, file, text):
    edit(repo / "smoke_tests/train.py", "WARMUP_STEPS = ", "WARMUP_STEPS  = ")
    artifacts = tmp_path / "artifacts"
    _stage_run(artifacts, "cpu", "linux/amd64", "build", {"train": "PASS"}, 1, _tree(repo, "cpu", "linux/amd64"))
    run = artifacts / "cpu/20261202T000001Z-1"
    (run / file).write_text(text)
    result = run_build("pr-body", "--base", "HEAD", "--artifacts", str(artifacts), root=repo)
    assert result.returncode == 2 and str(run) in result.stderr and "--artifacts" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not result.stdout


def test_pr_body_shows_each_stage_what_is_owed_and_where_device_checks_are_waived(repo, tmp_path):
    edit(repo / "smoke_tests/train.py", "WARMUP_STEPS = ", "WARMUP_STEPS  = ")  # every image affected, no network needed
    artifacts = tmp_path / "artifacts"
    tree = _tree(repo, "cpu", "linux/amd64")
    _stage_run(artifacts, "cpu", "linux/amd64", "build", {"conformance.versions": "PASS"}, 1, tree)
    _stage_run(artifacts, "cpu", "linux/amd64", "device", {"train": "PASS", "sync.mooncake": "FAIL"}, 2, tree)
    body = run_build("pr-body", "--base", "HEAD", "--artifacts", str(artifacts), root=repo, check=True).stdout
    assert "- `cpu` linux/amd64 build stage: pass, 1 PASS" in body
    assert "- `cpu` linux/amd64 device stage: FAIL (sync.mooncake), 1 FAIL, 1 PASS" in body
    npu = next(img for img in M.images.values() if img.waivers)
    waived, tested = sorted(npu.waivers)[0], next(p for p in npu.platforms if p not in npu.waivers)
    assert (f"- `{npu.name}` {waived}: **device checks did not run on {waived.split('/')[1]}** "
            f"(waived in pins.yaml: {npu.waivers[waived]})") in body
    assert f"- [ ] `{npu.name}` {waived}: device stage" not in body  # no runner to owe it on
    assert f"- [ ] `{npu.name}` {tested}: device stage on `{npu.runner.name}`" in body
    assert f"| `{npu.name}` | {waived} | waived |" in body
    baseline = f"smoke_tests/baselines/{npu.name}.{npu.device}.{tested.split('/')[1]}.txt"
    assert not (REPO / baseline).exists()
    assert f"- [ ] `{npu.name}` {tested}: before CI can promote it, no training baseline (`{baseline}`" in body


@pytest.mark.network
def test_outdated_on_real_pypi():
    from image_pipeline import network

    rows = {r.component: r for r in outdated.check(manifest(), network.from_host(), fetch_git=lambda repo: [])}
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


# ---------------------------------------------------------------- wins_over: only the named requirers

def _locked_requirement(image, requirer, dist):
    """`requirer`'s requirement on `dist` as the image's lock records it (from its wheel METADATA)."""
    from packaging.requirements import Requirement

    from image_pipeline.lock import lockfile

    lock = lockfile.read(lockfile.path_for(REPO, image, M.images[image].platforms[0]))
    lines = lock.by_name()[requirer].requires
    return next(line for line in lines if Requirement(line).name == dist and Requirement(line).marker is None)


def test_an_override_leaves_every_other_requirers_bound_binding(repo):
    """transformers wins over vllm-ascend's and sglang's pins, not verl's bound: a bump past it is refused."""
    from packaging.requirements import Requirement

    transformers = M.components["transformers"]
    assert "verl" not in transformers.get("wins_over")
    bound = _locked_requirement("cpu", "verl", "transformers")
    too_high = next(spec.version for spec in Requirement(bound).specifier if spec.operator == "<")
    before = tree_snapshot(repo)
    result = run_build("bump", "transformers", too_high, "--reason", "r", "--issue", NEW_ISSUE, "--dry-run",
                       root=repo)
    assert result.returncode == 2, result.stdout
    message = result.stderr.strip()
    assert "\n" not in message and "Traceback" not in message
    assert f"verl {M.components['verl'].version} (pins.yaml:" in message and f"requires {bound};" in message, message
    assert f"pins transformers {too_high}" in message and "not verl" in message, message
    assert tree_snapshot(repo) == before


def test_a_requirer_the_override_stops_naming_binds_again(repo_copy):
    pinned = _locked_requirement("npu-a2", "vllm-ascend", "transformers")
    edit(repo_copy / "pins.yaml", "      vllm-ascend: vllm-ascend 0.23.0 pins", "      # vllm-ascend: vllm-ascend 0.23.0 pins")
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2
    assert f"vllm-ascend {M.components['vllm-ascend'].version} (pins.yaml:" in result.stderr
    assert f"requires {pinned};" in result.stderr, result.stderr


def test_an_override_must_name_a_package_that_requires_the_pin(repo_copy):
    edit(repo_copy / "pins.yaml", "      sglang: sglang", "      sglong: sglang")
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2
    assert "components.transformers.wins_over.sglong: sglong requires transformers in no lock" in result.stderr
    assert "did you mean 'sglang'?" in result.stderr, result.stderr


# ---------------------------------------------------------------- the pin policy outside CI

def _verls_lowest_transformers():
    """A transformers release every requirer accepts that is not the pinned one: verl's lower bound."""
    from packaging.requirements import Requirement

    bound = _locked_requirement("cpu", "verl", "transformers")
    return next(spec.version for spec in Requirement(bound).specifier if spec.operator == ">=")


def test_bumping_an_npu_pin_wants_a_new_issue_and_touches_nothing(repo):
    transformers = M.components["transformers"]
    lower = _verls_lowest_transformers()
    assert lower != transformers.version
    before = tree_snapshot(repo)
    kept = run_in_process("bump", "transformers", lower, "--reason", "a new reason", "--dry-run", root=repo)
    assert kept.returncode == 2 and "components.transformers: reaches npu-" in kept.stderr
    assert "the issue link is unchanged since the base" in kept.stderr and "--issue" in kept.stderr, kept.stderr
    old_reason = run_in_process("bump", "transformers", lower, "--reason", transformers.get("reason"), "--issue",
                                NEW_ISSUE, "--dry-run", root=repo)
    assert old_reason.returncode == 2 and "reason is unchanged since the base" in old_reason.stderr
    assert tree_snapshot(repo) == before


def test_validate_runs_the_pin_policy_against_head(repo):
    transformers = M.components["transformers"]
    assert run_in_process("validate", root=repo).stdout.rstrip().endswith("pin policy against HEAD)")
    edit(repo / "pins.yaml", f"depName=transformers\n    version: {transformers.version}",
         f"depName=transformers\n    version: {_verls_lowest_transformers()}")
    result = run_in_process("validate", root=repo)
    assert result.returncode == 2 and "components.transformers: reason is unchanged since the base" in result.stderr
    assert re.search(r"\(and \d+ more: build\.py lint-pins\)", result.stderr), result.stderr
    assert "issue link is unchanged" in run_build("lint-pins", "--base", "HEAD", root=repo).stdout
    assert run_in_process("validate", "--base", "HEAD~5", root=repo).returncode == 2  # no such ref: refused


def test_validate_says_the_policy_did_not_run_when_the_base_is_another_schema(repo):
    """A commit that changes the schema cannot compare pin by pin with its base: validate says so instead of
    refusing every pin as new (lint-pins in CI still checks every pin against such a base)."""
    edit(repo / "pins.yaml", f"schema: {M.doc.data['schema']}\n", "schema: 1\n")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "a base of another schema")
    edit(repo / "pins.yaml", "schema: 1\n", f"schema: {M.doc.data['schema']}\n")
    result = run_in_process("validate", root=repo)
    assert result.returncode == 0, result.stderr
    assert "pin policy not run: pins.yaml of HEAD does not load with this schema" in result.stdout


def test_the_pr_body_compares_the_loss_with_the_baseline_of_the_runs_architecture(tmp_path):
    """The training check of a run on each architecture leaves the curve of that architecture's baseline
    (the file the host's `build.py baseline` names for the platform); the PR body shows its last loss."""
    from types import SimpleNamespace

    from image_pipeline.manifest.model import arch_of
    from image_pipeline.review import prbody
    from image_pipeline.smoke.runner import baseline_file
    from smoke_tests import metrics, train

    image = M.default_image
    for platform in image.platforms:
        values = metrics.parse(baseline_file(REPO, image, platform).read_text())
        steps = sorted((int(k.rsplit("_", 1)[1]), v) for k, v in values.items() if k.startswith("train.loss.step_"))
        assert steps, f"the {platform} baseline has no per-step losses"
        run = tmp_path / platform.replace("/", "-")
        run.mkdir()
        (run / "results.json").write_text(json.dumps([{"name": "train", "status": "PASS"}]))
        in_image = metrics.baseline_path(image.name, image.device, arch_of(platform))
        curve = train.curve("train", SimpleNamespace(losses=lambda: {1: 7.0, 8: 0.5}), in_image, {})
        (run / "train.curve.json").write_text(json.dumps(curve))
        line = prbody._run_line(image.name, platform, run)
        assert f"(baseline {steps[-1][1]:.3f})" in line, line


def test_words_about_a_pin_do_not_make_it_a_changed_pin():
    """`differs` and the reasons of a `without` say things about a pin; the distributions it leaves out are the pin."""
    import copy

    from image_pipeline.manifest import document
    from image_pipeline.manifest.load import build_manifest
    from image_pipeline.review import policy

    doc = document.load(REPO / "pins.yaml")
    reworded, widened = copy.copy(doc), copy.copy(doc)
    reworded.data, widened.data = copy.deepcopy(doc.data), copy.deepcopy(doc.data)
    name = next(n for n, c in M.components.items() if c.get("differs") and c.get("without"))
    for body in (reworded.data["components"][name],):
        body["differs"] = {url: why + " (reworded)" for url, why in body["differs"].items()}
        body["without"] = {dist: why + " (reworded)" for dist, why in body["without"].items()}
    widened.data["components"][name]["without"]["left-out-too"] = "a new distribution left out"
    assert policy.changed_pins(M, build_manifest(reworded)) == []
    assert [n for n, _, _ in policy.changed_pins(M, build_manifest(widened, check_rules=False))] == [name]


def test_a_base_written_before_a_rule_still_compares_pin_by_pin(repo):
    """The base breaks a rule added since (its sglang images name no upstream file): its pins still compare,
    so lint-pins sees no changed pin instead of every pin."""
    sglang = next(img for img in M.images.values() if img.backend == "sglang")
    line = f"      upstream: {M.doc.data['axes']['backend']['sglang']['upstream']}\n"
    edit(repo / "pins.yaml", line, "")
    _git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "base without the upstream file")
    edit(repo / "pins.yaml", "  sglang:\n      base:", "  sglang:\n" + line + "      base:")
    assert sglang.upstream and run_build("validate", root=repo).returncode == 0
    result = run_build("lint-pins", "--base", "HEAD", root=repo)
    assert result.returncode == 0 and "0 changed pin(s)" in result.stdout + result.stderr


def test_a_round_trip_of_the_committed_pins_yaml_is_byte_for_byte_the_file():
    """bump edits one value and dumps the whole document: every line it did not edit must come back as
    written (ruamel would turn a key longer than 128 characters into an explicit `? key` block)."""
    from image_pipeline.manifest import document

    doc = document.load(REPO / "pins.yaml")
    assert max(len(line) for line in doc.text.splitlines()) > 128
    assert doc.dumps() == doc.text


def test_files_written_through_a_commit_keep_the_mode_a_plain_write_gives_and_scripts_stay_executable(tmp_path):
    """bump writes every generated file through files.commit: the install scripts it re-renders must stay
    runnable (render --check refuses them otherwise), and nothing is left at mkstemp's 0600."""
    script, text = tmp_path / "install.linux-amd64.sh", tmp_path / "pins.json"
    files.commit({script: "#!/bin/sh\n", text: "{}\n"})
    assert script.stat().st_mode & 0o111 == 0o111 and text.stat().st_mode & 0o044 == 0o044


def test_the_pr_body_shows_an_identical_dockerfile_diff_once_naming_every_file(repo):
    """A template edit every image's Dockerfile takes the same way: one diff, its summary naming them all."""
    edit(repo / "templates/partials/header.j2", "# GENERATED FILE: do not edit.",
         "# every image's first line\n# GENERATED FILE: do not edit.")
    run_build("render", root=repo, check=True)
    body = run_build("pr-body", "--base", "HEAD", root=repo, check=True).stdout
    summaries = re.findall(r"<summary>(images/[^<]*Dockerfile[^<]*)</summary>", body)
    named = [path for summary in summaries for path in summary.split(", ")]
    assert sorted(named) == sorted(f"images/{name}/Dockerfile" for name in M.images)
    assert len(summaries) < len(named) and body.count("+# every image's first line") == len(summaries)


# ---------------------------------------------------------------- text that names the old release

ASCEND = M.components["vllm-ascend"]


def _next_release(version: str) -> str:
    v = Version(version)
    return f"{v.major}.{v.minor}.{v.micro + 1}"


def _vllm_ascend_at(version: str, text: str | None = None) -> str:
    text = text if text is not None else (REPO / "pins.yaml").read_text()
    old = f"depName=vllm-ascend\n    version: {ASCEND.version}\n"
    assert old in text
    return text.replace(old, f"depName=vllm-ascend\n    version: {version}\n")


def _stale_keys(text: str) -> list:
    from image_pipeline.manifest import build_manifest, document
    from image_pipeline.review import stale_text

    new = build_manifest(document.parse(text, REPO / "pins.yaml"))
    return [".".join(map(str, s.keypath)) for s in stale_text.find(M, new, policy_changed(M, new))]


def policy_changed(base, new):
    from image_pipeline.review import policy

    return policy.changed_pins(base, new)


def test_a_bump_finds_the_old_release_in_its_prose_its_alternative_and_text_naming_it():
    stale = _stale_keys(_vllm_ascend_at(_next_release(ASCEND.version)))
    alternative = next(c for c in M.components.values() if c.get("alternative_to") == ASCEND.name)
    assert any(k.startswith(f"components.{ASCEND.name}.differs.") for k in stale), stale
    assert f"components.{alternative.name}.version" in stale
    # the text of another pin counts where it names vllm-ascend, not where it only shares the number
    assert any(k.startswith("components.vllm.without.") for k in stale), stale
    assert not any(k.startswith("components.vllm.differs.") for k in stale), stale
    assert not any(k.endswith((".url", ".sha256", ".issue")) for k in stale), stale


def test_a_post_release_is_not_its_release_and_a_reason_may_name_the_move():
    from image_pipeline.review.stale_text import says

    post = f"{ASCEND.version}.post1"
    assert not says(f"the {post} wheel", ASCEND.version) and says(f"the v{ASCEND.version} wheel", ASCEND.version)
    assert not says(f"{ASCEND.version}1", ASCEND.version) and not says(f"x{ASCEND.version}", ASCEND.version)
    new = _next_release(ASCEND.version)
    text = _vllm_ascend_at(new)
    reason = f"    reason: {ASCEND.get('reason')}\n"
    moved = text.replace(reason, f"    reason: {ASCEND.version} -> {new}, {ASCEND.get('reason')}\n")
    assert f"components.{ASCEND.name}.reason" not in _stale_keys(moved)
    alone = text.replace(reason, f"    reason: still {ASCEND.version}\n")
    assert f"components.{ASCEND.name}.reason" in _stale_keys(alone)


def test_keeps_text_speaks_only_for_the_change_that_sets_it():
    from image_pipeline.manifest import build_manifest, document
    from image_pipeline.review import stale_text

    new = _next_release(ASCEND.version)
    line = "    keeps_text: the other pins are rewritten in the next bump\n"
    with_keep = (REPO / "pins.yaml").read_text().replace(
        f"depName=vllm-ascend\n    version: {ASCEND.version}\n",
        f"depName=vllm-ascend\n    version: {ASCEND.version}\n{line}")
    assert _stale_keys(_vllm_ascend_at(new, with_keep)) == []  # set by this change: it speaks
    base = build_manifest(document.parse(with_keep, REPO / "pins.yaml"))
    later = build_manifest(document.parse(_vllm_ascend_at(new, with_keep), REPO / "pins.yaml"))
    assert stale_text.find(base, later, policy_changed(base, later))  # already in the base: it does not


def test_lint_pins_and_bump_refuse_stale_text_of_a_hand_edit_and_a_bump(repo):
    alternative = next(c for c in M.components.values() if c.get("alternative_to") == ASCEND.name)
    new = _next_release(ASCEND.version)
    before = tree_snapshot(repo)
    bumped = run_in_process("bump", ASCEND.name, new, "--reason", "a test", "--issue", NEW_ISSUE, root=repo)
    assert bumped.returncode == 2 and f"still says {ASCEND.version} after the {ASCEND.name} bump" in bumped.stderr
    assert bumped.stderr.count("\n") == 1 and "more)" in bumped.stderr, bumped.stderr
    assert tree_snapshot(repo) == before
    (repo / "pins.yaml").write_text(_vllm_ascend_at(new, (repo / "pins.yaml").read_text()))
    linted = run_build("lint-pins", "--base", "HEAD", root=repo)
    assert linted.returncode == 1
    assert f"components.{alternative.name}.version: still says {ASCEND.version}" in linted.stdout, linted.stdout
