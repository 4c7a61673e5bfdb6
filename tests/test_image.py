"""`make image` for real: the cpu image on the real Docker Engine (slow, marked `docker`)."""

import json
import re

import pytest

from verlimage import context, engine, netprofile, pipeline, smoke
from verlimage.errors import UserError
from verlimage.manifest import load_manifest

from conftest import REPO, edit, run_build

pytestmark = pytest.mark.docker


def test_labels_carry_provenance_and_the_resolved_pins(engine_client, cpu_image):
    labels = engine_client.images.get(cpu_image.image_id).labels
    for key in ("created", "revision", "source", "version", "title"):
        assert labels.get(f"org.opencontainers.image.{key}"), key
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", labels["org.opencontainers.image.created"])
    assert re.fullmatch(r"[0-9a-f]{40}(-dirty)?", labels["org.opencontainers.image.revision"])
    committed = json.loads((REPO / "images/cpu/pins.json").read_text())
    assert json.loads(labels["org.verl.image.pins"]) == committed
    assert labels["org.verl.image.content-hash"].startswith(cpu_image.tags.short_hash)


def test_pins_file_and_env_inside_the_image(engine_client, cpu_image):
    committed = json.loads((REPO / "images/cpu/pins.json").read_text())
    inside = engine_client.containers.run(cpu_image.tags.final, ["cat", "/etc/verl-image/pins.json"], remove=True,
                                          network_mode="none")
    assert json.loads(inside) == committed
    env = engine_client.containers.run(cpu_image.tags.final, ["printenv", "VERL_USE_EXTERNAL_MODULES"],
                                       remove=True, network_mode="none").decode().strip()
    assert env == committed["env"]["VERL_USE_EXTERNAL_MODULES"] == "verl_cpu_platform"


def test_moving_tags_point_at_the_final_content_tag(engine_client, cpu_image):
    for reference in cpu_image.tags.moving:
        assert engine.image_id(engine_client, reference) == cpu_image.image_id
    assert engine.image_id(engine_client, cpu_image.tags.candidate) is None


def test_unchanged_rebuild_builds_nothing(engine_client, cpu_image):
    manifest = load_manifest(REPO / "pins.yaml")

    def must_not_smoke(reference):
        raise AssertionError("an up-to-date image must not be rebuilt or re-tested")

    again = pipeline.run(engine_client, manifest, manifest.default_image, REPO, netprofile.from_host(),
                         smoke_runner=must_not_smoke)
    assert (again.built, again.promoted, again.image_id) == (False, True, cpu_image.image_id)


def test_failed_smoke_never_moves_a_good_tag(engine_client, cpu_image, repo_copy):
    edit(repo_copy / "pins.yaml", "VERL_USE_EXTERNAL_MODULES: verl_cpu_platform", "VERL_USE_EXTERNAL_MODULES: verl_cpu_platfrom")
    run_build("render", root=repo_copy, check=True)
    manifest = load_manifest(repo_copy / "pins.yaml")
    image = manifest.default_image
    outcome = pipeline.run(engine_client, manifest, image, repo_copy, netprofile.from_host(), plain=True,
                           smoke_runner=lambda ref: smoke.run(engine_client, image.name, ref, only="conformance",
                                                              echo=False))
    try:
        assert outcome.built and not outcome.promoted
        assert "conformance.external_modules" in outcome.smoke.reason
        for reference in cpu_image.tags.moving:
            assert engine.image_id(engine_client, reference) == cpu_image.image_id, reference
        assert engine.image_id(engine_client, outcome.tags.final) is None
        assert engine.image_id(engine_client, outcome.tags.candidate) == outcome.image_id  # kept for debugging
    finally:
        engine_client.images.remove(outcome.tags.candidate, force=True)


def test_a_second_concurrent_pipeline_is_refused_and_touches_nothing(engine_client, cpu_image):
    with pipeline.image_lock("cpu"):
        result = run_build("image", "cpu")
    assert result.returncode == 2
    assert "another pipeline for 'cpu' is running" in result.stderr
    for reference in cpu_image.tags.moving:
        assert engine.image_id(engine_client, reference) == cpu_image.image_id


SECRET = "s3cr3t-T0KEN-8731"


def test_credentials_never_reach_a_layer_history_or_label(engine_client, cpu_image, tmp_path):
    manifest = load_manifest(REPO / "pins.yaml")
    image = manifest.default_image
    profile = netprofile.from_host(index_url=f"https://ci-bot:{SECRET}@pypi.internal.invalid/simple")
    assert SECRET in profile.secrets() and SECRET in profile.container_pip_conf()
    ctx, tags, base_id = pipeline.prepare(engine_client, manifest, image, REPO, profile)
    reference = f"{manifest.repository}:cpu-credential-check"
    labels = pipeline.oci_labels(manifest, image, REPO, ctx.content_hash, base_id)
    buildargs = {"BASE_IMAGE": image.base.reference, **profile.buildargs()}
    built = engine.build(engine_client, ctx.directory, reference, buildargs, labels, plain=True)
    try:
        inspected = engine_client.api.inspect_image(built)
        assert SECRET not in json.dumps(inspected)
        assert SECRET not in json.dumps(engine_client.api.history(built))
        tail = b""
        for chunk in engine_client.images.get(built).save(named=False):
            assert SECRET.encode() not in tail + chunk
            tail = chunk[-len(SECRET):]
    finally:
        engine_client.images.remove(reference, force=True)


def test_npu_bases_cannot_be_bootstrapped(engine_client):
    from verlimage import base

    manifest = load_manifest(REPO / "pins.yaml")
    with pytest.raises(UserError) as failure:
        base.ensure_base(engine_client, manifest.images["npu-a3"].base, pull=False)
    assert "cannot be bootstrapped" in str(failure.value) and "--load" in str(failure.value)


def test_the_cpu_image_build_applied_the_mbridge_patch(engine_client, cpu_image):
    script = ("import json, pathlib, sys; from verl_image.patching import locate;"
              "p = locate('mbridge', 'mbridge/models/ext/deepseek_v3/dequant_fp8_safetensor_io.py');"
              "m = json.loads((pathlib.Path(sys.prefix) / 'verl-image-patches/mbridge-dequant-device.json').read_text());"
              "print(m['state'], p.read_text().count('device=_load_device()'), 'device=\"cuda\"' in p.read_text())")
    out = engine_client.containers.run(cpu_image.tags.final, ["python", "-c", script], remove=True,
                                       network_mode="none").decode().split()
    assert out == ["applied", "2", "False"]


def test_engine_command_is_a_no_op_when_a_daemon_answers(cpu_image):
    result = run_build("engine")
    assert result.returncode == 0 and "already answers" in result.stdout


def test_a_base_can_be_loaded_from_a_tarball(engine_client, cpu_image, tmp_path):
    from verlimage import base
    from verlimage.manifest import Component

    manifest = load_manifest(REPO / "pins.yaml")
    debian = engine_client.images.get(manifest.default_image.base.reference)
    debian.tag("verl-test/loaded-base", "v1")
    tarball = tmp_path / "base.tar"
    with open(tarball, "wb") as out:
        for chunk in engine_client.images.get("verl-test/loaded-base:v1").save(named="verl-test/loaded-base:v1"):
            out.write(chunk)
    engine_client.images.remove("verl-test/loaded-base:v1")
    comp = Component(name="loaded", source="image", keypath=("components", "loaded"), image="verl-test/loaded-base",
                     tag="v1")
    wrong = Component(name="other", source="image", keypath=("components", "other"), image="verl-test/other",
                      tag="v1")
    try:
        loaded = base.ensure_base(engine_client, comp, load=tarball, cache=tmp_path, log=lambda line: None)
        assert loaded == debian.id
        assert json.loads((tmp_path / "bases.json").read_text())["verl-test/loaded-base:v1"]["origin"] == "loaded"
        with pytest.raises(UserError, match="holds verl-test/loaded-base:v1, not verl-test/other:v1"):
            base.ensure_base(engine_client, wrong, load=tarball, cache=tmp_path, log=lambda line: None)
    finally:
        engine_client.images.remove("verl-test/loaded-base:v1", force=True)
