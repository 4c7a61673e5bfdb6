"""Layered images (docs/guide.md: layers): a real transformers bump, built on top of the promoted cpu image's
layer cache and pushed to a loopback registry, re-ships at most 5% of the image's bytes."""

import pytest
from packaging.version import Version

from image_pipeline import network
from image_pipeline.builder import engine, pipeline
from image_pipeline.manifest import load_manifest
from image_pipeline.publish import reship
from image_pipeline.review import outdated

from conftest import REPO, LoopbackRegistry, copy_repo, manifest, run_build

pytestmark = [pytest.mark.docker, pytest.mark.network]

RESHIP_LIMIT = 0.05


def another_release(dist: str, pinned: str) -> str:
    """The nearest other final release of the pinned major.minor line (older first: it is known to exist)."""
    v = Version(pinned)
    listed = outdated.index_releases("https://pypi.org/simple", dist, network.from_host().ssl_context())
    line = [r for r in listed if (r.major, r.minor) == (v.major, v.minor) and r != v
            and not (r.is_prerelease or r.is_devrelease)]
    older = [r for r in line if r < v]
    assert line, f"no other {dist} release in the {v.major}.{v.minor} line"
    return str(max(older) if older else min(line))


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    started = LoopbackRegistry(tmp_path_factory.mktemp("layers")).start()
    yield started
    started.stop()


def test_a_transformers_bump_reships_at_most_5_percent_of_the_image(engine_client, cpu_image, registry, tmp_path):
    transformers = manifest().components["transformers"]
    release = another_release(transformers.dist, transformers.version)
    root = copy_repo(tmp_path / "bumped")
    run_build("bump", transformers.name, release, "--reason", "layer test", "--keep-text", "a layer test, not a bump",
              "--issue",
              f"https://github.com/huggingface/transformers/releases/tag/v{release}", root=root, check=True)
    m = load_manifest(root / "pins.yaml")
    image, platform, profile = m.default_image, engine.host_platform(), network.from_host()
    # the repository's cache holds one build context per image and platform: its lock, as a pipeline takes it
    with pipeline.image_lock(image.name, platform, REPO / ".cache", wait=True):
        prepared = pipeline.prepare(engine_client, m, image, platform, root, profile, cache=REPO / ".cache",
                                    log=lambda _: None)
        bumped = pipeline.build_candidate(engine_client, m, image, platform, root, profile, prepared, plain=True,
                                          cache=REPO / ".cache", log=lambda _: None)
    assert prepared.tags.final != cpu_image.tags.final  # the bump is a new content tag
    try:
        before = reship.pushed_layers(engine_client, cpu_image.image_id, registry.address, "before")
        after = reship.pushed_layers(engine_client, bumped, registry.address, "after")
    finally:
        engine_client.images.remove(prepared.tags.candidate, noprune=True)
    measured = reship.compare(before, after)
    assert measured.changed, "a bump that changes no layer did not install the bumped transformers"
    assert measured.layers == len(before)
    assert measured.share <= RESHIP_LIMIT, (f"the bump re-ships {measured.changed_bytes / 1e6:.0f} of "
                                            f"{measured.total_bytes / 1e6:.0f} MB in {measured.changed} layers")
