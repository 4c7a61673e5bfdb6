"""Publishing for real: both architectures of the cpu image to two loopback registries (Debian's
docker-registry), by digest, one image index per registry, tags moved last (docs/guide.md: publishing)."""

import json

import pytest

from image_pipeline.errors import UserError
from image_pipeline.manifest import load_manifest
from image_pipeline.publish import publish
from image_pipeline.publish.registry import Registry

from conftest import REPO, LoopbackRegistry

pytestmark = pytest.mark.docker


@pytest.fixture(scope="module")
def registries(tmp_path_factory):
    started = [LoopbackRegistry(tmp_path_factory.mktemp(name)).start() for name in ("quay", "swr")]
    yield started
    for registry in started:
        registry.stop()


@pytest.fixture(scope="module")
def both_architectures(cpu_image, cpu_image_arm64):
    return {"linux/amd64": cpu_image, "linux/arm64": cpu_image_arm64}


def _tag_digest(address, repository, tag):
    return Registry(address).digest(repository, tag)


def _index(address, repository, reference):
    media_type, raw, _ = Registry(address).manifest(repository, reference)
    assert media_type.endswith("manifest.list.v2+json") or media_type.endswith("image.index.v1+json"), media_type
    return json.loads(raw)


def _config_digest(address, repository, digest):
    return json.loads(Registry(address).manifest(repository, digest)[1])["config"]["digest"]


def test_a_publish_failing_half_way_leaves_the_previous_index_everywhere(engine_client, registries, cpu_image,
                                                                         request):
    m = load_manifest(REPO / "pins.yaml")
    image = m.default_image
    addresses = [r.address for r in registries]
    amd64_only = publish.push(engine_client, m, image, addresses, platforms=["linux/amd64"], log=lambda _: None)
    publish.merge(m, image, addresses, amd64_only, log=lambda _: None)
    previous = {a: _tag_digest(a, m.repository, image.name) for a in addresses}
    assert all(previous.values())

    # only now the arm64 image: make test builds it in the background, and the push above overlaps that build
    request.getfixturevalue("both_architectures")
    registries[1].start(read_only=True)
    try:
        with pytest.raises(UserError, match=registries[1].address):
            publish.publish(engine_client, m, image, addresses, log=lambda _: None)
    finally:
        registries[1].start()
    for address in addresses:
        for tag in (image.name, image.human_tag):
            assert _tag_digest(address, m.repository, tag) == previous[address]
        platforms = [e["platform"]["architecture"] for e in _index(address, m.repository, previous[address])["manifests"]]
        assert platforms == ["amd64"]


def test_each_registry_gets_one_index_of_exactly_the_smoke_tested_digests(engine_client, registries,
                                                                          both_architectures):
    m = load_manifest(REPO / "pins.yaml")
    image = m.default_image
    addresses = [r.address for r in registries]
    moved = publish.publish(engine_client, m, image, addresses, log=lambda _: None)
    for address in addresses:
        assert image.upstream_tags, "the cpu image declares an upstream-style alias, so publishing pushes one"
        digests = {_tag_digest(address, m.repository, tag) for tag in (image.name, image.human_tag, *image.upstream_tags)}
        assert len(digests) == 1 and digests == {moved[f"{address}/{m.repository}:{image.name}"]}
        entries = _index(address, m.repository, digests.pop())["manifests"]
        listed = {f"{e['platform']['os']}/{e['platform']['architecture']}": e["digest"] for e in entries}
        assert sorted(listed) == ["linux/amd64", "linux/arm64"]
        for platform, outcome in both_architectures.items():
            # a manifest's config digest is the image ID: the index lists the very images the smoke suite passed
            assert _config_digest(address, m.repository, listed[platform]) == outcome.image_id


def test_pulling_the_tag_for_arm64_runs_an_aarch64_image(engine_client, registries, both_architectures):
    m = load_manifest(REPO / "pins.yaml")
    image = m.default_image
    reference = f"{registries[0].address}/{m.repository}"
    pulled = {}
    for platform, machine in (("linux/arm64", "aarch64"), ("linux/amd64", "x86_64")):
        pulled[platform] = engine_client.images.pull(reference, tag=image.name, platform=platform)
        out = engine_client.containers.run(pulled[platform].id, ["uname", "-m"], remove=True, network_mode="none",
                                           platform=platform).decode().strip()
        assert out == machine
        assert pulled[platform].id == both_architectures[platform].image_id
    engine_client.images.remove(f"{reference}:{image.name}")


def test_publish_needs_a_promoted_image(engine_client):
    m = load_manifest(REPO / "pins.yaml")
    npu = next(i for i in m.images.values() if i.name != m.default_image.name)
    with pytest.raises(UserError, match="has a promoted image"):
        publish.publish(engine_client, m, npu, ["127.0.0.1:1"], log=lambda _: None)
