"""The cpu image for linux/arm64 on this x86 host: bootstrapped, built and smoke-tested under QEMU user
emulation, promoted under per-architecture tags (docs/guide.md: multi-arch)."""

import json

import pytest

from image_pipeline.builder import base, engine, image_config
from image_pipeline.manifest import load_manifest

from conftest import REPO

pytestmark = pytest.mark.docker

ARM64 = "linux/arm64"


def test_the_arm64_image_passed_its_promotion_suite_under_emulation(cpu_image_arm64):
    """Every check a local promotion waits for (the whole suite but the device stage's measurements,
    checks.json `promotion: false`) ran under QEMU and passed before the arm64 tags moved."""
    from smoke_tests.plan import load_checks, select

    assert cpu_image_arm64.promoted
    if cpu_image_arm64.smoke is not None:  # built in this session: its own run's verdicts
        statuses = {r["name"]: r["status"] for r in cpu_image_arm64.smoke.results}
        assert statuses and all(s in ("PASS", "MEASURED") for s in statuses.values()), statuses
        assert statuses["train"] == "PASS"
        pins = json.loads((REPO / "images" / "cpu" / "pins.json").read_text())
        wanted = select(load_checks(), pins["device"], "", False, roles=pins["stack"], promotion=True)
        assert sorted(statuses) == sorted(c.name for c in wanted)


def test_every_path_that_makes_an_arm64_image_records_arm64(engine_client, cpu_image_arm64):
    m = load_manifest(REPO / "pins.yaml")
    bootstrapped = engine_client.images.get(base.local_reference(m.default_image.base, ARM64))
    built = engine_client.images.get(cpu_image_arm64.image_id)
    assert bootstrapped.attrs["Architecture"] == "arm64"  # `docker import` alone would say amd64
    assert built.attrs["Architecture"] == "arm64"
    assert built.labels[image_config.PLATFORM_LABEL] == ARM64
    out = engine_client.containers.run(cpu_image_arm64.image_id, ["uname", "-m"], remove=True, network_mode="none",
                                       platform=ARM64)
    assert out.decode().strip() == "aarch64"


def test_per_architecture_tags_never_take_the_hosts_plain_tags(engine_client, cpu_image, cpu_image_arm64):
    tags = cpu_image_arm64.tags
    assert tags.final.endswith("-arm64") and all(t.endswith("-arm64") for t in tags.moving)
    for reference in tags.moving:
        assert engine.image_id(engine_client, reference) == cpu_image_arm64.image_id
    plain = f"{tags.repository}:{tags.name}"
    assert engine.image_id(engine_client, plain) == cpu_image.image_id  # the host's (amd64) image


def test_the_arm64_image_holds_the_arm64_lock(engine_client, cpu_image_arm64):
    pins = json.loads(engine_client.images.get(cpu_image_arm64.image_id).labels["org.verl.image.pins"])
    torch = next(c for c in pins["stack"]["torch"] if ARM64 in c.get("platforms", [ARM64]))
    script = "import torch; print(torch.__version__)"
    out = engine_client.containers.run(cpu_image_arm64.image_id, ["python", "-c", script], remove=True,
                                       network_mode="none", platform=ARM64).decode().strip().splitlines()[-1]
    assert out.split("+")[0] == torch["version"]
