"""Publishing to a second registry copies the first one's blobs and manifest byte for byte (publish.copy_image),
fast: two real registries on loopback (Debian's docker-registry), images written through the distribution API.

The source registry is hostile until checked: a manifest or blob whose bytes are not its digest is never
committed in the target, and an upload goes nowhere but the target registry itself.
"""

import hashlib
import json

import pytest

from image_pipeline.errors import UserError
from image_pipeline.publish import publish
from image_pipeline.publish.registry import Registry

from conftest import LoopbackRegistry

REPOSITORY = "copy-test"
MANIFEST_TYPE = "application/vnd.docker.distribution.manifest.v2+json"


@pytest.fixture(scope="module")
def registries(tmp_path_factory):
    started = [LoopbackRegistry(tmp_path_factory.mktemp(name)).start() for name in ("source", "target")]
    yield started
    for registry in started:
        registry.stop()


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def write_image(address: str, tag: str, layers: list) -> tuple:
    """(manifest digest, config digest) of an image of these layer blobs, uploaded through Registry."""
    registry = Registry(address)
    config = json.dumps({"architecture": "amd64", "os": "linux", "config": {"Labels": {"tag": tag}},
                         "rootfs": {"type": "layers", "diff_ids": [_digest(layer) for layer in layers]}}).encode()
    for blob in (config, *layers):
        registry.upload_blob(REPOSITORY, _digest(blob), len(blob), [blob[:7], blob[7:]])
    body = json.dumps({"schemaVersion": 2, "mediaType": MANIFEST_TYPE,
                       "config": {"mediaType": "application/vnd.docker.container.image.v1+json",
                                  "size": len(config), "digest": _digest(config)},
                       "layers": [{"mediaType": "application/vnd.docker.image.rootfs.diff.tar.gzip",
                                   "size": len(layer), "digest": _digest(layer)} for layer in layers]}).encode()
    return registry.put_manifest(REPOSITORY, tag, MANIFEST_TYPE, body), _digest(config)


def stored(registry: LoopbackRegistry, digest: str):
    """The file a registry serves a blob (or a manifest, by digest) from."""
    hex_digest = digest.split(":")[1]
    return registry.directory / "data/docker/registry/v2/blobs/sha256" / hex_digest[:2] / hex_digest / "data"


def test_a_copy_is_the_same_manifest_and_blobs_and_sends_only_what_the_target_lacks(registries):
    source, target = (r.address for r in registries)
    layers = [b"layer one " * 5000, b"layer two " * 300]
    digest, image_id = write_image(source, "copied", layers)
    lines = []
    assert publish.copy_image(source, target, f"{REPOSITORY}:copied", digest, image_id, lines.append) == digest
    assert Registry(target).digest(REPOSITORY, "copied") == digest
    assert Registry(target).manifest(REPOSITORY, digest)[1] == Registry(source).manifest(REPOSITORY, digest)[1]
    for layer in layers:
        assert Registry(target).blob(REPOSITORY, _digest(layer)) == layer
    assert ": 3 of 3 blobs" in lines[-1]
    publish.copy_image(source, target, f"{REPOSITORY}:again", digest, image_id, lines.append)
    assert ": 0 of 3 blobs" in lines[-1]


def test_a_source_blob_that_is_not_its_digest_is_never_committed(registries):
    source, target = registries
    layer = b"the true layer " * 1000
    digest, image_id = write_image(source.address, "tampered", [layer])
    stored(source, _digest(layer)).write_bytes(b"the fake layer " * 1000)  # same size, other bytes
    with pytest.raises(UserError, match=f"blob {_digest(layer)}: {len(layer)} bytes read hash to"):
        publish.copy_image(source.address, target.address, f"{REPOSITORY}:tampered", digest, image_id, print)
    assert not Registry(target.address).has_blob(REPOSITORY, _digest(layer))
    assert Registry(target.address).digest(REPOSITORY, "tampered") is None


def test_a_source_manifest_that_is_not_its_digest_is_never_copied(registries):
    source, target = registries
    digest, image_id = write_image(source.address, "manifest-tampered", [b"a layer of its own " * 100])
    raw = stored(source, digest).read_bytes()
    stored(source, digest).write_bytes(raw.replace(b'"schemaVersion": 2', b'"schemaVersion":  2'))
    with pytest.raises(UserError, match="answered a manifest of another digest"):
        publish.copy_image(source.address, target.address, f"{REPOSITORY}:manifest-tampered", digest, image_id,
                           print)
    assert Registry(target.address).digest(REPOSITORY, "manifest-tampered") is None


def test_a_content_tag_the_target_holds_for_another_image_is_not_copied_over(registries):
    source, target = (r.address for r in registries)
    write_image(target, "held", [b"what the target had " * 10])
    digest, image_id = write_image(source, "held", [b"what the source has " * 10])
    with pytest.raises(UserError, match="already names another image"):
        publish.copy_image(source, target, f"{REPOSITORY}:held", digest, image_id, print, content_tag=True)
    assert Registry(target).image_config(REPOSITORY, "held")[0] != image_id


def test_a_manifest_of_another_image_or_with_a_bad_descriptor_is_refused(registries):
    source, target = (r.address for r in registries)
    digest, image_id = write_image(source, "other", [b"x" * 10])
    with pytest.raises(UserError, match="is not the manifest of sha256:0"):
        publish.copy_image(source, target, f"{REPOSITORY}:other", digest, "sha256:" + "0" * 64, print)
    bad = {"config": {"digest": image_id, "size": 10}, "layers": [{"digest": "sha256:../../x", "size": 1}]}
    with pytest.raises(UserError, match="not a sha256 digest and a byte count"):
        publish._blobs_of(bad, image_id, "here")
    bad["layers"] = [{"digest": "sha256:" + "a" * 64, "size": "1"}]
    with pytest.raises(UserError, match="not a sha256 digest and a byte count"):
        publish._blobs_of(bad, image_id, "here")


def test_an_upload_is_sent_nowhere_but_the_registry_itself():
    registry = Registry("127.0.0.1:5000")
    assert registry._same_origin("/v2/r/blobs/uploads/u?_state=s") == "/v2/r/blobs/uploads/u?_state=s"
    assert registry._same_origin("http://127.0.0.1:5000/v2/r/blobs/uploads/u") == "/v2/r/blobs/uploads/u"
    for hostile in ("http://127.0.0.1:5001/v2/r/blobs/uploads/u", "https://127.0.0.1:5000/v2/r/blobs/uploads/u",
                    "//evil.example/v2/r", "http://evil.example/v2/r", "/elsewhere", ""):
        with pytest.raises(UserError, match="not a path of its own"):
            registry._same_origin(hostile)


def test_a_source_blob_longer_than_its_manifest_says_is_cut_off_at_its_size(registries):
    """A hostile source streaming without end is read no further than the descriptor's size."""
    source, target = registries
    layer = b"a short layer " * 100
    digest, image_id = write_image(source.address, "longer", [layer])
    stored(source, _digest(layer)).write_bytes(layer * 50)
    with pytest.raises(UserError, match=f"blob {_digest(layer)} is longer than its {len(layer)} bytes"):
        publish.copy_image(source.address, target.address, f"{REPOSITORY}:longer", digest, image_id, print)
    assert not Registry(target.address).has_blob(REPOSITORY, _digest(layer))


def test_publishing_to_several_registries_has_the_engine_push_once_and_copies_the_rest(registries, monkeypatch):
    """The engine's push (a stand-in here: it writes the image through the API) goes to the first registry
    only; every other one gets the copy, so every registry names the image by one digest."""
    source, target = (r.address for r in registries)
    layer = b"pushed once " * 2000
    engine_pushes = []

    def engine_push(api, image_id, local, where, log, content_tag=False):
        engine_pushes.append(where)
        return write_image(where, local.rsplit(":", 1)[1], [layer])[0]

    monkeypatch.setattr(publish, "push_image", engine_push)
    image_id = _digest(json.dumps({"architecture": "amd64", "os": "linux", "config": {"Labels": {"tag": "once"}},
                                   "rootfs": {"type": "layers", "diff_ids": [_digest(layer)]}}).encode())
    digests = publish.push_everywhere(None, image_id, f"{REPOSITORY}:once", [source, target], print)
    assert engine_pushes == [source]
    assert digests[target] == digests[source] == Registry(target).digest(REPOSITORY, "once")


def test_what_the_source_answers_for_an_image_must_be_one_images_manifest(registries):
    """An index (or anything else) at the digest is not copied as if it were the image."""
    source, target = (r.address for r in registries)
    digest, image_id = write_image(source, "single", [b"one layer " * 10])
    index = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
                        "manifests": [{"mediaType": MANIFEST_TYPE, "digest": digest, "size": 1,
                                       "platform": {"architecture": "amd64", "os": "linux"}}]}).encode()
    index_digest = Registry(source).put_manifest(REPOSITORY, "an-index", "application/vnd.oci.image.index.v1+json",
                                                 index)
    with pytest.raises(UserError, match="not one image's manifest"):
        publish.copy_image(source, target, f"{REPOSITORY}:an-index", index_digest, image_id, print)
    assert Registry(target).digest(REPOSITORY, "an-index") is None
