"""The registry side of the merge, fast: a real registry on loopback (Debian's docker-registry, `make
registry`), images written into it through the distribution API (a config and a manifest, no engine).

verify_candidates must find, at every recorded digest, the very image the stages ran (its config
digest) labelled with the content hash, platform and device-check text the records and pins.yaml say;
and a content tag a registry already holds at another digest is never moved.
"""

import hashlib
import json
import urllib.request

import pytest

from image_pipeline.builder import image_config
from image_pipeline.errors import UserError
from image_pipeline.publish import ci_stages, publish

from conftest import LoopbackRegistry, manifest
from test_stages import record

M = manifest()
CPU = M.default_image
HASH = "d" * 64


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    server = LoopbackRegistry(tmp_path_factory.mktemp("registry")).start()
    yield server.address
    server.stop()


def _put(address: str, path: str, data: bytes, content_type: str, method="PUT"):
    url = path if path.startswith("http") else f"http://{address}{path}"
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": content_type})
    return urllib.request.urlopen(request)


def write_image(address: str, tag: str, labels: dict) -> tuple:
    """(manifest digest, config digest) of a layerless image with these labels, stored under tag."""
    config = json.dumps({"architecture": "amd64", "os": "linux", "config": {"Labels": labels},
                         "rootfs": {"type": "layers", "diff_ids": []}}, sort_keys=True).encode()
    config_digest = "sha256:" + hashlib.sha256(config).hexdigest()
    repository = M.repository
    with urllib.request.urlopen(urllib.request.Request(f"http://{address}/v2/{repository}/blobs/uploads/",
                                                       method="POST")) as response:
        location = response.headers["Location"]
    separator = "&" if "?" in location else "?"
    _put("", f"{location}{separator}digest={config_digest}", config, "application/octet-stream")
    body = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                       "config": {"mediaType": "application/vnd.docker.container.image.v1+json",
                                  "size": len(config), "digest": config_digest}, "layers": []}).encode()
    with _put(address, f"/v2/{repository}/manifests/{tag}", body,
              "application/vnd.docker.distribution.manifest.v2+json") as response:
        return response.headers["Docker-Content-Digest"], config_digest


def _labels(platform="linux/amd64", **changes):
    return {image_config.CONTENT_LABEL: HASH, image_config.PLATFORM_LABEL: platform,
            image_config.DEVICE_CHECKS_LABEL: image_config.device_checks_label(CPU, platform), **changes}


def _build(address, platform, digest, image_id):
    return record(CPU, platform, "build", digest=digest, registry=address, image_id=image_id, content_hash=HASH)


def test_the_candidate_the_records_name_passes(registry):
    digest, image_id = write_image(registry, "ok-candidate", _labels())
    ci_stages.verify_candidates(M, CPU, {"linux/amd64": _build(registry, "linux/amd64", digest, image_id)})


def test_a_registry_holding_another_image_at_the_digest_is_refused(registry):
    digest, image_id = write_image(registry, "other-id", _labels())
    other = "sha256:" + "e" * 64
    with pytest.raises(UserError, match=f"holds {image_id} at {digest}, not the tested {other}"):
        ci_stages.verify_candidates(M, CPU, {"linux/amd64": _build(registry, "linux/amd64", digest, other)})


@pytest.mark.parametrize("label,value", [(image_config.CONTENT_LABEL, "e" * 64),
                                         (image_config.PLATFORM_LABEL, "linux/arm64"),
                                         (image_config.DEVICE_CHECKS_LABEL, "not run on linux/amd64: no runner")])
def test_a_candidate_labelled_otherwise_than_the_records_say_is_refused(registry, label, value):
    digest, image_id = write_image(registry, f"label-{label[-8:]}", _labels(**{label: value}))
    with pytest.raises(UserError, match=f"label {label} is {value!r}"):
        ci_stages.verify_candidates(M, CPU, {"linux/amd64": _build(registry, "linux/amd64", digest, image_id)})


def test_a_content_tag_held_at_another_digest_is_never_moved(registry):
    held, _ = write_image(registry, "cpu-dddddddddddd-amd64", _labels())
    candidate, _ = write_image(registry, "cpu-dddddddddddd-amd64-candidate", _labels(extra="x"))
    with pytest.raises(UserError, match=f"already names {held}, not {candidate}"):
        publish.merge(M, CPU, [registry], {registry: {"linux/amd64": candidate}},
                      content_tags={"linux/amd64": "cpu-dddddddddddd-amd64"})
    assert publish.remote(registry, M.repository)[0].digest(M.repository, "cpu-dddddddddddd-amd64") == held
    assert publish.remote(registry, M.repository)[0].digest(M.repository, CPU.name) is None  # no index moved


def test_merge_points_the_moving_tags_and_upstreams_names_at_one_index(registry):
    candidate, _ = write_image(registry, "cpu-eeeeeeeeeeee-amd64-candidate", _labels())
    moved = publish.merge(M, CPU, [registry], {registry: {"linux/amd64": candidate}}, log=lambda _: None)
    assert CPU.upstream_tags, "the cpu image declares an upstream-style alias"
    held = publish.remote(registry, M.repository)[0]
    index = {held.digest(M.repository, tag) for tag in (CPU.name, CPU.human_tag, *CPU.upstream_tags)}
    assert index == {moved[f"{registry}/{M.repository}:{CPU.name}"]}


def test_plain_http_only_to_a_literal_loopback_address():
    from image_pipeline.publish import registry as registry_module

    for host in ("127.0.0.1:5000", "127.3.2.1", "localhost:5000", "[::1]:5000", "::1"):
        assert registry_module.Registry(host).base.startswith("http://"), host
    for host in ("127.evil.example", "127.0.0.1.evil.example:5000", "localhost.example", "10.0.0.1:5000",
                 "quay.io"):
        assert registry_module.Registry(host).base.startswith("https://"), host


def test_a_loopback_registry_never_takes_another_one_on_its_port_for_itself(registry, tmp_path):
    """make test's two workers each start registries on ports the kernel called free: one handed a port
    the other holds must fail, not push into the other worker's registry."""
    second = LoopbackRegistry(tmp_path)
    second.address = registry
    with pytest.raises(AssertionError, match="exited"):
        second.start()
