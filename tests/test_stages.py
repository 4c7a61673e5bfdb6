"""CI's two stages per image and platform and the merge gate (docs/guide.md: CI).

Fast part: the gate over stage records (what the build and device jobs upload), through the real CLI;
the merge must refuse in one line before it touches a registry. Docker part: the whole flow simulated
against two loopback registries (Debian's docker-registry), the cpu image standing in for the device
stage: build stage -> candidate pushed by digest, nothing promoted; device stage pulls that digest;
merge promotes only after both; a waived platform is published with its label.
"""

import contextlib
import json

import pytest

from image_pipeline.errors import UserError
from image_pipeline.manifest import document
from image_pipeline.publish import ci_stages
from image_pipeline.render import install_script
from image_pipeline.smoke import stage_checks

from conftest import REPO, manifest, run_in_process

M = manifest()
CPU = M.default_image
NPU = next(img for img in M.images.values() if img.waivers)  # an NPU image: arm64 tested, amd64 waived
REGISTRY = "127.0.0.1:1"  # nothing answers there: a gate that refuses never gets that far
DIGEST = "sha256:" + "a" * 64
OTHER = "sha256:" + "b" * 64
IMAGE_ID = "sha256:" + "c" * 64


def record(image, platform, stage, digest=DIGEST, passed=True, registry=REGISTRY, **changes):
    checks = stage_checks.checks_of(image, stage)
    return {"image": image.name, "platform": platform, "stage": stage, "content_hash": "d" * 64,
            "image_id": IMAGE_ID, "digests": {registry: digest}, "checks": checks,
            "results": {name: "PASS" if passed else "FAIL" for name in checks}, "passed": passed,
            "reason": "" if passed else f"{checks[-1]} FAIL", **changes}


def both_stages(image):
    return [record(image, p, s) for p in image.platforms for s in ("build", "device") if image.device_runs_on(p)
            or s == "build"]


def merge_cli(tmp_path, image, records):
    directory = tmp_path / "stages"
    for i, item in enumerate(records):  # numbered: two records of one stage must both reach the merge
        ci_stages.write_record(ci_stages.record_path(directory, image.name, item["platform"], f"{item['stage']}{i}"), item)
    return run_in_process("merge", image.name, "--registry", REGISTRY, "--records", str(directory), root=REPO)


def refused(result, *words):
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_every_platform_with_both_stages_passed_for_one_digest_passes_the_gate():
    passed = ci_stages.gate(M, CPU, both_stages(CPU), [REGISTRY])
    assert sorted(passed) == sorted(CPU.platforms)


def test_a_missing_device_stage_is_refused_naming_the_platform_and_digest(tmp_path):
    records = [r for r in both_stages(CPU) if (r["platform"], r["stage"]) != ("linux/arm64", "device")]
    refused(merge_cli(tmp_path, CPU, records), "cpu linux/arm64", "no device stage result", DIGEST, CPU.runner.name)


def test_a_failed_device_stage_is_refused(tmp_path):
    records = [r for r in both_stages(CPU) if (r["platform"], r["stage"]) != ("linux/amd64", "device")]
    failing = record(CPU, "linux/amd64", "device", passed=False)
    refused(merge_cli(tmp_path, CPU, records + [failing]), "cpu linux/amd64", "device stage failed",
            failing["reason"])


def test_a_device_result_for_another_digest_is_refused(tmp_path):
    records = [r for r in both_stages(CPU) if (r["platform"], r["stage"]) != ("linux/amd64", "device")]
    refused(merge_cli(tmp_path, CPU, records + [record(CPU, "linux/amd64", "device", digest=OTHER)]),
            "cpu linux/amd64", f"tested {REGISTRY}@{OTHER}", f"pushed {DIGEST}")


def test_a_device_result_pulled_from_a_registry_the_build_did_not_push_to_is_refused(tmp_path):
    records = [r for r in both_stages(CPU) if (r["platform"], r["stage"]) != ("linux/amd64", "device")]
    elsewhere = record(CPU, "linux/amd64", "device", registry="127.0.0.1:2")
    refused(merge_cli(tmp_path, CPU, records + [elsewhere]), "tested 127.0.0.1:2@", "pushed nothing there")


def test_a_missing_or_failed_build_stage_is_refused(tmp_path):
    records = [r for r in both_stages(CPU) if (r["platform"], r["stage"]) != ("linux/arm64", "build")]
    refused(merge_cli(tmp_path, CPU, records), "cpu linux/arm64", "no build stage result")
    records.append(record(CPU, "linux/arm64", "build", passed=False))
    refused(merge_cli(tmp_path, CPU, records), "cpu linux/arm64", "build stage failed")


def test_a_record_that_ran_fewer_checks_than_its_stage_is_refused(tmp_path):
    """A device run narrowed with --only (or a stale checks.json) does not count as the device stage."""
    records = [r for r in both_stages(CPU) if (r["platform"], r["stage"]) != ("linux/amd64", "device")]
    partial = record(CPU, "linux/amd64", "device")
    dropped = partial["checks"].pop()
    del partial["results"][dropped]
    refused(merge_cli(tmp_path, CPU, records + [partial]), "device stage record does not show", f"{dropped} missing")


def test_a_waived_platform_needs_only_its_build_stage():
    waived = sorted(NPU.waivers)[0]
    records = both_stages(NPU)
    assert not [r for r in records if r["platform"] == waived and r["stage"] == "device"]
    assert sorted(ci_stages.gate(M, NPU, records, [REGISTRY])) == sorted(NPU.platforms)
    without_build = [r for r in records if r["platform"] != waived]
    with pytest.raises(UserError, match=f"{NPU.name} {waived}: no build stage result"):
        ci_stages.gate(M, NPU, without_build, [REGISTRY])


def test_a_platform_that_is_not_waived_needs_its_device_stage_even_on_an_npu_image():
    tested = next(p for p in NPU.platforms if p not in NPU.waivers)
    records = [r for r in both_stages(NPU) if (r["platform"], r["stage"]) != (tested, "device")]
    with pytest.raises(UserError, match=f"{NPU.name} {tested}: no device stage result"):
        ci_stages.gate(M, NPU, records, [REGISTRY])


def test_records_of_another_image_or_twice_the_same_stage_are_refused(tmp_path):
    refused(merge_cli(tmp_path, CPU, both_stages(CPU) + [record(NPU, NPU.platforms[0], "build")]),
            f"a stage record of {NPU.name} was given to the merge of cpu")
    refused(merge_cli(tmp_path, CPU, both_stages(CPU) + [record(CPU, "linux/amd64", "build")]),
            "two build stage records")


def test_a_file_that_is_no_stage_record_is_refused(tmp_path):
    (tmp_path / "cpu@amd64-build.json").write_text(json.dumps({REGISTRY: {"linux/amd64": DIGEST}}))  # old digests
    refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(tmp_path), root=REPO),
            "not a stage record")


def test_an_empty_record_directory_is_refused_naming_the_first_missing_stage(tmp_path):
    refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(tmp_path), root=REPO),
            f"cpu {CPU.platforms[0]}: no build stage result")


def test_the_stages_split_the_suite_by_device_and_together_run_all_of_it():
    from smoke_tests.plan import load_checks, select

    for image in (CPU, NPU):
        build, device = (stage_checks.checks_of(image, s) for s in stage_checks.STAGES)
        whole = [c.name for c in select(load_checks(), image.device, "", False, roles=tuple(image.stack))]
        assert sorted(build + device) == sorted(whole) and not set(build) & set(device)
        by_name = {c.name: c for c in load_checks()}
        assert build and all(not by_name[n].needs_device for n in build)
        assert device and all(by_name[n].needs_device for n in device)



def test_the_label_says_what_pins_yaml_says_about_each_platforms_device_checks():
    from image_pipeline.builder import image_config

    waived, tested = sorted(NPU.waivers)[0], next(p for p in NPU.platforms if p not in NPU.waivers)
    assert image_config.device_checks_label(NPU, waived) == f"not run on {waived}: {NPU.waivers[waived]}"
    assert image_config.device_checks_label(NPU, tested).startswith(f"required on {tested} (device runner {NPU.runner.name})")
    labels = image_config.oci_labels(M.repository, NPU, waived, "d" * 64, IMAGE_ID, "{}", "t" * 64)
    assert labels[image_config.DEVICE_CHECKS_LABEL] == image_config.device_checks_label(NPU, waived)


def test_a_stage_run_that_ran_other_checks_than_its_own_does_not_pass(tmp_path):
    """--only selects by prefix: a check of the other stage whose name extends one of these would ride along."""
    from image_pipeline.smoke.runner import SmokeRun

    device = stage_checks.checks_of(CPU, "device")
    run = SmokeRun("cpu", "ref", tmp_path, exit_code=0, passed=True,
                   results=[{"name": n, "status": "PASS"} for n in device + ["conformance.extra"]])
    stage_checks.judge(run, CPU, "device")
    assert not run.passed and "conformance.extra" in run.reason
    exact = SmokeRun("cpu", "ref", tmp_path, exit_code=0, passed=True, results=[{"name": n, "status": "PASS"} for n in device])
    stage_checks.judge(exact, CPU, "device")
    assert exact.passed

# ---------------------------------------------------------------- the flow for real (Docker, two registries)

SIM_REPOSITORY = "verl-ascend-stages"  # tags no other build moves, so "no promoted tag moved" is exact
WAIVER = "no amd64 device runner in this simulation"


def _build_stage_pushes(monkeypatch, tmp_path, passed: bool, stamp_fails=False) -> tuple:
    """ci_stages.build_stage with --write-cache on a stand-in engine (test_promotion_gate.TagBook) whose
    build leaves the stamped candidate and BuildKit's own image under the carrier tag it was given:
    returns ({registry reference: image id pushed}, the tags left in the engine)."""
    from types import SimpleNamespace

    from image_pipeline.builder import engine, pipeline
    from image_pipeline.manifest.references import Tags

    from test_promotion_gate import TagBook

    tags = Tags(M.repository, CPU.name, "0123456789ab", CPU.human_tag, "amd64", host=True)
    book, pushed = TagBook({}), {}

    def build(*args, cache_carrier=None, **kwargs):
        book.tags[tags.candidate] = IMAGE_ID
        if cache_carrier:
            book.tags[cache_carrier] = BUILDKIT_IMAGE
        if stamp_fails:
            raise UserError("cannot stamp the candidate")
        return IMAGE_ID

    monkeypatch.setattr(pipeline, "prepare", lambda *a, **k: pipeline.Prepared({}, "0" * 64, "sha256:base", tags))
    monkeypatch.setattr(pipeline, "build_candidate", build)
    monkeypatch.setattr(engine, "image_id", lambda api, ref: api.tags.get(ref))
    monkeypatch.setattr(ci_stages, "push_everywhere", lambda api, image_id, local, targets, log: {
        target: pushed.setdefault(f"{target}/{local}", image_id) for target in targets})
    checks = stage_checks.checks_of(CPU, "build")
    outcome = SimpleNamespace(passed=passed, reason="", results=[{"name": n, "status": "PASS"} for n in checks])
    with pytest.raises(UserError, match="cannot stamp") if stamp_fails else contextlib.nullcontext():
        ci_stages.build_stage(book, M, CPU, "linux/amd64", REPO, None, [REGISTRY], smoke=lambda ref: outcome,
                              cache=tmp_path, write_cache=True, log=lambda _: None)
    return pushed, book.tags


BUILDKIT_IMAGE = "sha256:" + "e" * 64  # what BuildKit built, before build.py stamped it


def test_the_cache_tag_gets_buildkits_own_image_and_the_candidate_tag_the_stamped_one(monkeypatch, tmp_path):
    """The stamped candidate carries no inline cache (its id must not depend on the engine's history), so
    the cache a fresh runner's --cache-from reads is BuildKit's own image; its local tag does not stay."""
    pushed, left = _build_stage_pushes(monkeypatch, tmp_path, passed=True)
    cache = ci_stages.cache_reference(M, CPU, "linux/amd64", REGISTRY)
    assert pushed[cache] == BUILDKIT_IMAGE
    assert [image_id for reference, image_id in pushed.items() if reference != cache] == [IMAGE_ID]
    assert BUILDKIT_IMAGE not in left.values()


def test_a_build_stage_whose_checks_failed_pushes_no_cache(monkeypatch, tmp_path):
    pushed, left = _build_stage_pushes(monkeypatch, tmp_path, passed=False)
    assert pushed == {} and BUILDKIT_IMAGE not in left.values()


def test_a_build_stage_whose_stamp_failed_leaves_no_cache_tag(monkeypatch, tmp_path):
    """BuildKit's image is tagged as the carrier before the SBOM and the stamp: their failure removes it too."""
    pushed, left = _build_stage_pushes(monkeypatch, tmp_path, passed=True, stamp_fails=True)
    assert pushed == {} and BUILDKIT_IMAGE not in left.values()


def _collapse_to(doc, platform) -> None:
    """The cpu image built for `platform` alone: each role it names per platform names that platform's
    component, and the components only the other platforms used (by any image) are gone."""
    stack = doc.tree[CPU.keypath[0]][CPU.keypath[1]]["stack"]
    for role, components in CPU.stack.items():
        if all(c.name in CPU.only for c in components) and len(components) > 1:
            stack[role] = next(c.name for c in components if CPU.only[c.name] == platform)
    used = {c.name for image in M.images.values() if image.name != CPU.name for c in image.components}
    for name, only in CPU.only.items():
        if only != platform and name not in used:
            del doc.tree["components"][name]


def _single_platform_copy(target, platform, waived: bool):
    """A scratch repo whose cpu image is built for one platform only (the merge publishes every platform an
    image declares; this host builds one natively), under its own repository name; with waived=True the
    cpu device runner has no runs_on for it and pins.yaml waives its device checks there."""
    from conftest import copy_repo, run_build

    root = copy_repo(target)
    text = (root / "pins.yaml").read_text()
    text = text.replace(f"repository: {M.repository}\n", f"repository: {SIM_REPOSITORY}\n", 1)
    old = f"    platforms: [{', '.join(CPU.platforms)}]\n    runner: {CPU.runner.name}\n"
    assert old in text, old
    text = text.replace(old, f"    platforms: [{platform}]\n    runner: {CPU.runner.name}\n"
                        + (f"    device_checks_waived:\n      {platform}: {WAIVER}\n" if waived else ""), 1)
    if waived:
        runs_on = CPU.runner.runs_on[platform]
        line = f"        {platform}: [{', '.join(runs_on)}]\n"
        block = text[text.index(f"    {CPU.runner.name}:\n"):]
        assert line in block
        text = text.replace(block, block.replace(line, "", 1), 1)
    doc = document.parse(text, root / "pins.yaml")
    _collapse_to(doc, platform)
    (root / "pins.yaml").write_text(doc.dumps())
    for other in CPU.platforms:
        if other != platform:
            (root / f"images/cpu/pylock.{other.replace('/', '-')}.toml").unlink()
            (root / f"images/cpu/{install_script.script_name(other)}").unlink()
    run_build("render", root=root, check=True)
    assert run_build("render", "--check", root=root).returncode == 0
    return root


@pytest.fixture(scope="module")
def sim(tmp_path_factory, engine_client):
    from conftest import LoopbackRegistry
    from image_pipeline.builder import engine

    platform = engine.host_platform()
    tmp = tmp_path_factory.mktemp("stages")
    registries = [LoopbackRegistry(tmp_path_factory.mktemp(name)).start() for name in ("quay", "swr")]
    try:
        yield {"platform": platform, "registries": [r.address for r in registries], "tmp": tmp,
               "tested": _single_platform_copy(tmp / "tested", platform, waived=False),
               "waived": _single_platform_copy(tmp / "waived", platform, waived=True)}
    finally:
        for registry in registries:
            registry.stop()


def _stage(sim, variant, *args, record):
    from conftest import run_build

    registries = [arg for address in sim["registries"] for arg in ("--registry", address)]
    if args[0] == "smoke":  # the device stage pulls from one registry
        registries = registries[:2]
    result = run_build(*args, "--platform", sim["platform"], *registries, "--record", str(record), root=sim[variant])
    return result, (json.loads(record.read_text()) if record.exists() else None)


def _merge(sim, variant, *records):
    from conftest import run_build

    directory = sim["tmp"] / f"merge-{len(list(sim['tmp'].glob('merge-*')))}"
    directory.mkdir()
    for i, item in enumerate(records):
        ci_stages.write_record(ci_stages.record_path(directory, "cpu", item["platform"], f"{item['stage']}{i}"), item)
    registries = [arg for address in sim["registries"] for arg in ("--registry", address)]
    return run_build("merge", "cpu", *registries, "--records", str(directory), root=sim[variant])


def _tags(address):
    import urllib.request

    with urllib.request.urlopen(f"http://{address}/v2/{SIM_REPOSITORY}/tags/list", timeout=30) as response:
        return sorted(json.load(response).get("tags") or [])


def _local_tags(api):
    return sorted(tag for image in api.images.list(name=SIM_REPOSITORY) for tag in image.tags
                  if tag.startswith(f"{SIM_REPOSITORY}:"))


@pytest.fixture(scope="module")
def built(sim, engine_client):
    """The build stage of the tested variant, as main's CI runs it: candidate pushed by digest, the cache
    tag written, nothing promoted."""
    result, record = _stage(sim, "tested", "image", "cpu", "--stage", "build", "--write-cache",
                            record=sim["tmp"] / "build.json")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    return record


@pytest.fixture(scope="module")
def device_passed(sim, built):
    result, record = _stage(sim, "tested", "smoke", "cpu", "--digest", next(iter(built["digests"].values())),
                            record=sim["tmp"] / "device.json")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    return record


@pytest.mark.docker
def test_the_build_stage_pushes_a_candidate_by_digest_and_moves_no_promoted_tag(sim, built, engine_client):
    assert built["passed"] and built["stage"] == "build"
    assert sorted(built["results"]) == sorted(stage_checks.checks_of(CPU, "build"))
    assert sorted(built["digests"]) == sorted(sim["registries"]) and len(set(built["digests"].values())) == 1
    from image_pipeline.builder import image_config
    from image_pipeline.publish.registry import Registry

    arch = sim["platform"].split("/")[1]
    candidate, cache = f"cpu-{built['content_hash'][:12]}-{arch}-candidate", ci_stages.cache_tag(CPU, sim["platform"])
    for address in sim["registries"]:
        assert _tags(address) == sorted([cache, candidate])  # no content tag, no index, no moving tag
        registry = Registry(address)
        assert image_config.BUILDKIT_CACHE_KEY in registry.image_config(SIM_REPOSITORY, cache)[1]
        image_id, config = registry.image_config(SIM_REPOSITORY, candidate)
        assert image_id == built["image_id"] and image_config.BUILDKIT_CACHE_KEY not in config
    local = _local_tags(engine_client)  # (earlier runs of this test may have left other candidates)
    assert f"{SIM_REPOSITORY}:{candidate}" in local and all(tag.endswith("-candidate") for tag in local)
    assert engine_client.images.get(f"{SIM_REPOSITORY}:{candidate}").id == built["image_id"]


@pytest.mark.docker
def test_the_merge_refuses_before_the_device_stage_ran(sim, built):
    result = _merge(sim, "tested", built)
    refused(result, f"cpu {sim['platform']}: no device stage result for {next(iter(built['digests'].values()))}")
    for address in sim["registries"]:
        assert all(tag.endswith(("-candidate", "-cache")) for tag in _tags(address))


@pytest.mark.docker
def test_the_device_stage_pulls_exactly_the_candidate_digest(sim, built, device_passed, engine_client):
    digest = next(iter(built["digests"].values()))
    assert device_passed["passed"] and device_passed["digests"] == {sim["registries"][0]: digest}
    assert device_passed["image_id"] == built["image_id"]
    assert sorted(device_passed["results"]) == sorted(stage_checks.checks_of(CPU, "device"))
    pulled = engine_client.images.get(f"{sim['registries'][0]}/{SIM_REPOSITORY}@{digest}")
    assert pulled.id == built["image_id"]
    missing = "sha256:" + "0" * 64
    result, _ = _stage(sim, "tested", "smoke", "cpu", "--digest", missing, record=sim["tmp"] / "device-missing.json")
    refused(result, f"cannot pull {sim['registries'][0]}/{SIM_REPOSITORY}@{missing}")


@pytest.mark.docker
def test_the_merge_promotes_only_after_both_stages_passed_for_one_digest(sim, built, device_passed, engine_client):
    from image_pipeline.publish.registry import Registry

    result = _merge(sim, "tested", built, device_passed)
    assert result.returncode == 0, result.stderr
    digest = next(iter(built["digests"].values()))
    content = f"cpu-{built['content_hash'][:12]}-{sim['platform'].split('/')[1]}"
    for address in sim["registries"]:
        assert {"cpu", CPU.human_tag, content} <= set(_tags(address))
        assert Registry(address).digest(SIM_REPOSITORY, content) == digest
        index = json.loads(Registry(address).manifest(SIM_REPOSITORY, "cpu")[1])
        assert [(e["platform"]["architecture"], e["digest"]) for e in index["manifests"]] == [
            (sim["platform"].split("/")[1], digest)]
        config_digest, config = Registry(address).image_config(SIM_REPOSITORY, digest)
        assert config_digest == built["image_id"]
        assert config["config"]["Labels"]["org.verl.image.device-checks"].startswith(f"required on {sim['platform']}")


@pytest.mark.docker
def test_a_waived_platform_is_published_with_its_label_and_a_stale_device_result_is_refused(sim, built,
                                                                                          device_passed):
    from image_pipeline.publish.registry import Registry

    result, waived = _stage(sim, "waived", "image", "cpu", "--stage", "build", record=sim["tmp"] / "build-waived.json")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    digest = next(iter(waived["digests"].values()))
    assert digest != next(iter(built["digests"].values()))  # the label differs, so does the candidate
    # the tested variant (no waiver) with this build and the device result of the other digest: refused
    refused(_merge(sim, "tested", waived, device_passed), f"the build stage pushed {digest}")
    # the device result turned into a failure (what a failing device job uploads): refused
    failed = {**device_passed, "passed": False, "reason": "train FAIL", "results": {**device_passed["results"],
                                                                                    "train": "FAIL"}}
    refused(_merge(sim, "tested", built, failed), "the device stage failed", "train FAIL")
    # the waived variant with a candidate built before the waiver (its label says checks are required): refused
    refused(_merge(sim, "waived", built), "org.verl.image.device-checks", "rebuild it")
    result = _merge(sim, "waived", waived)
    assert result.returncode == 0, result.stderr
    assert f"published without device checks (waived: {WAIVER})" in result.stdout
    for address in sim["registries"]:
        index = json.loads(Registry(address).manifest(SIM_REPOSITORY, "cpu")[1])
        assert [e["digest"] for e in index["manifests"]] == [digest]
        labels = Registry(address).image_config(SIM_REPOSITORY, digest)[1]["config"]["Labels"]
        assert labels["org.verl.image.device-checks"] == f"not run on {sim['platform']}: {WAIVER}"
