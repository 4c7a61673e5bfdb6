"""`make image` for real: the cpu image on the real Docker Engine (slow, marked `docker`).

Each test names the guarantee it holds (docs/guide.md: what the pipeline guarantees about tags)."""

import json
import subprocess
import sys

import pytest

from image_pipeline import network
from image_pipeline.builder import base, engine, image_config, pipeline
from image_pipeline.errors import UserError
from image_pipeline.manifest import load_manifest
from image_pipeline.smoke import runner

from conftest import REPO, copy_repo, edit, run_build

pytestmark = pytest.mark.docker


def test_labels_carry_provenance_and_the_resolved_pins(engine_client, cpu_image):
    labels = engine_client.images.get(cpu_image.image_id).labels
    for key in ("created", "version", "title", "base.name", "base.digest"):
        assert labels.get(f"org.opencontainers.image.{key}"), key
    assert "org.opencontainers.image.revision" not in labels  # a commit would give one content tag two ids
    assert labels["org.opencontainers.image.created"] == image_config.timestamp(image_config.SOURCE_DATE_EPOCH)
    committed = json.loads((REPO / "images/cpu/pins.json").read_text())
    assert json.loads(labels["org.verl.image.pins"]) == committed
    assert labels[image_config.CONTENT_LABEL].startswith(cpu_image.tags.short_hash)
    assert labels[image_config.PLATFORM_LABEL] == engine.host_platform()
    assert json.loads(labels[image_config.UNVERIFIED_LABEL]) == []  # every file of the cpu lock is hash-pinned
    assert engine_client.images.get(cpu_image.image_id).attrs["Architecture"] == cpu_image.tags.arch


def test_pins_file_and_env_inside_the_image(engine_client, cpu_image):
    committed = json.loads((REPO / "images/cpu/pins.json").read_text())
    inside = engine_client.containers.run(cpu_image.tags.final, ["cat", "/etc/verl-image/pins.json"], remove=True,
                                          network_mode="none")
    assert json.loads(inside) == committed
    env = engine_client.containers.run(cpu_image.tags.final, ["printenv", "VERL_USE_EXTERNAL_MODULES"],
                                       remove=True, network_mode="none").decode().strip()
    assert env == committed["env"]["VERL_USE_EXTERNAL_MODULES"]


def test_no_wheel_compiler_or_installer_reaches_the_image(engine_client, cpu_image):
    script = ("ls /tmp /opt; test ! -e /opt/venv/../wheelhouse; ! ls / | grep -q tiers; "
              "! command -v gcc; ! find / -xdev -name '*.whl' -not -path '/proc/*' | grep -q .; echo clean")
    out = engine_client.containers.run(cpu_image.tags.final, ["bash", "-c", script], remove=True,
                                       network_mode="none").decode()
    assert out.strip().endswith("clean"), out


def test_guarantee_moving_tags_point_at_the_content_tag(engine_client, cpu_image):
    for reference in cpu_image.tags.moving:
        assert engine.image_id(engine_client, reference) == cpu_image.image_id
    assert engine.image_id(engine_client, cpu_image.tags.candidate) is None


def test_guarantee_an_unchanged_tree_builds_nothing(engine_client, cpu_image):
    def must_not_smoke(reference):
        raise AssertionError("an up-to-date image must not be rebuilt or re-tested")

    m = load_manifest(REPO / "pins.yaml")
    again = pipeline.run(engine_client, m, m.default_image, engine.host_platform(), REPO, network.from_host(),
                         smoke_runner=must_not_smoke, cache=REPO / ".cache", wait=True)
    assert (again.built, again.promoted, again.image_id) == (False, True, cpu_image.image_id)


def test_guarantee_a_second_clone_of_the_commit_gets_the_same_tag_and_builds_nothing(cpu_image, tmp_path):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    copy_repo(clone)  # the working tree under test, as a fresh clone of it would hold it
    for code in ("image_pipeline", "build.py"):
        subprocess.run(["cp", "-r", str(REPO / code), str(clone)], check=True)
    result = subprocess.run([sys.executable, str(clone / "build.py"), "image"], capture_output=True, text=True,
                            cwd=clone)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert f"image {cpu_image.tags.final}: up to date" in result.stdout


def test_guarantee_a_failed_smoke_never_moves_a_good_tag(engine_client, cpu_image, repo_copy):
    edit(repo_copy / "pins.yaml", "VERL_USE_EXTERNAL_MODULES: verl_cpu_platform",
         "VERL_USE_EXTERNAL_MODULES: verl_cpu_platform,json.tool_missing")
    run_build("render", root=repo_copy, check=True)
    m = load_manifest(repo_copy / "pins.yaml")
    image = m.default_image
    outcome = pipeline.run(engine_client, m, image, engine.host_platform(), repo_copy, network.from_host(),
                           plain=True, cache=REPO / ".cache", wait=True,
                           smoke_runner=lambda ref: runner.run(engine_client, image.name, ref, echo=False,
                                                               artifacts=REPO / "artifacts",
                                                               only="conformance.external_modules"))
    try:
        assert outcome.built and not outcome.promoted
        assert "conformance.external_modules FAIL" in outcome.smoke.reason
        for reference in cpu_image.tags.moving:
            assert engine.image_id(engine_client, reference) == cpu_image.image_id, reference
        assert engine.image_id(engine_client, outcome.tags.final) is None
        assert engine.image_id(engine_client, outcome.tags.candidate) == outcome.image_id  # kept for debugging
    finally:
        engine_client.images.remove(outcome.tags.candidate, force=True)


def test_guarantee_stale_renders_are_refused_before_anything_is_built(engine_client, cpu_image, repo_copy):
    edit(repo_copy / "pins.yaml", "VERL_USE_EXTERNAL_MODULES: verl_cpu_platform",
         "VERL_USE_EXTERNAL_MODULES: verl_cpu_platform,json")
    result = run_build("image", root=repo_copy)
    assert result.returncode == 2
    assert "images/cpu/Dockerfile, pins.json differ from pins.yaml" in result.stderr
    for reference in cpu_image.tags.moving:
        assert engine.image_id(engine_client, reference) == cpu_image.image_id


def test_guarantee_a_stale_lock_is_refused(engine_client, cpu_image, repo_copy):
    edit(repo_copy / "images/cpu/pylock.linux-amd64.toml", 'inputs = "', 'inputs = "0')
    result = run_build("image", root=repo_copy)
    assert result.returncode == 2 and "is stale against pins.yaml: run `make lock`" in result.stderr


def test_guarantee_a_second_concurrent_pipeline_is_refused_and_touches_nothing(engine_client, cpu_image):
    with pipeline.image_lock("cpu", engine.host_platform(), REPO / ".cache"):
        result = run_build("image", "cpu")
    assert result.returncode == 2
    assert "another pipeline for 'cpu'" in result.stderr
    for reference in cpu_image.tags.moving:
        assert engine.image_id(engine_client, reference) == cpu_image.image_id


SECRET = "s3cr3t-T0KEN-8731"


def test_credentials_never_reach_a_layer_history_or_label(engine_client, cpu_image):
    """The host's index credentials are used on the host only: they are no build input (the same content
    tag), no build-arg, and nowhere in the image, its history or its labels."""
    profile = network.from_host(index_url=f"https://ci-bot:{SECRET}@pypi.internal.invalid/simple")
    assert SECRET in profile.secrets()
    m = load_manifest(REPO / "pins.yaml")
    image, platform = m.default_image, engine.host_platform()
    tags = pipeline.prepare(engine_client, m, image, platform, REPO, profile, cache=REPO / ".cache").tags
    assert tags.final == cpu_image.tags.final  # the image these credentials would build is this very one
    assert SECRET not in json.dumps(pipeline.buildargs(image, platform, profile, platform))
    inspected = engine_client.api.inspect_image(cpu_image.image_id)
    assert SECRET not in json.dumps(inspected)
    assert SECRET not in json.dumps(engine_client.api.history(cpu_image.image_id))
    tail = b""
    for chunk in engine_client.images.get(cpu_image.image_id).save(named=False):
        assert SECRET.encode() not in tail + chunk
        tail = chunk[-len(SECRET):]


def test_npu_bases_cannot_be_bootstrapped(engine_client):
    m = load_manifest(REPO / "pins.yaml")
    with pytest.raises(UserError) as failure:
        base.ensure_base(engine_client, m.images["npu-a3"].base, "linux/arm64", pull=False, cache=REPO / ".cache")
    assert "cannot be bootstrapped" in str(failure.value) and "--load base.tar" in str(failure.value)


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


def test_a_base_can_be_loaded_from_a_tarball_and_its_architecture_is_checked(engine_client, cpu_image, tmp_path):
    from image_pipeline.manifest.model import Component

    m = load_manifest(REPO / "pins.yaml")
    debian = engine_client.images.get(base.local_reference(m.default_image.base, engine.host_platform()))
    debian.tag("verl-test/loaded-base", "v1")
    tarball = tmp_path / "base.tar"
    with open(tarball, "wb") as out:
        for chunk in engine_client.images.get("verl-test/loaded-base:v1").save(named="verl-test/loaded-base:v1"):
            out.write(chunk)
    comp = Component("loaded", ("components", "loaded"), {"source": "image", "image": "verl-test/loaded-base",
                                                          "tag": "v1", "glibc": "2_36"})
    wrong = Component("other", ("components", "other"), {"source": "image", "image": "verl-test/other", "tag": "v1",
                                                         "glibc": "2_36"})
    try:
        loaded = base.ensure_base(engine_client, comp, engine.host_platform(), load=tarball, cache=tmp_path,
                                  log=lambda line: None)
        assert loaded == debian.id
        with pytest.raises(UserError, match="holds verl-test/loaded-base:v1, not verl-test/other:v1"):
            base.ensure_base(engine_client, wrong, engine.host_platform(), load=tarball, cache=tmp_path,
                             log=lambda line: None)
        with pytest.raises(UserError, match="is a amd64 image, not arm64"):
            base.ensure_base(engine_client, comp, "linux/arm64", load=tarball, cache=tmp_path, log=lambda line: None)
    finally:
        for ref in ("verl-test/loaded-base:v1", "verl-test/loaded-base:v1-amd64", "verl-test/loaded-base:v1-arm64"):
            if engine.image_id(engine_client, ref):
                engine_client.images.remove(ref, force=True)
