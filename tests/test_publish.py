"""Publishing to a real registry (Debian's docker-registry on loopback): by digest, then the tags."""

import json
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from verlimage import publish
from verlimage.errors import UserError
from verlimage.manifest import load_manifest

from conftest import REPO

pytestmark = pytest.mark.docker


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def registry(tmp_path):
    binary = shutil.which("docker-registry")
    assert binary, "docker-registry is not installed: `make test` installs it (apt-get install docker-registry)"
    port = _free_port()
    config = tmp_path / "config.yml"
    config.write_text(f"version: 0.1\nstorage:\n  filesystem:\n    rootdirectory: {tmp_path / 'data'}\n"
                      f"http:\n  addr: 127.0.0.1:{port}\n")
    process = subprocess.Popen([binary, "serve", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    address = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://{address}/v2/", timeout=2)
            break
        except OSError:
            time.sleep(0.2)
    yield address
    process.terminate()
    process.wait(10)


def _manifest_digest(address, repository, tag):
    request = urllib.request.Request(f"http://{address}/v2/{repository}/manifests/{tag}", method="HEAD",
                                     headers={"Accept": "application/vnd.docker.distribution.manifest.v2+json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers["Docker-Content-Digest"]


def test_publish_pushes_by_digest_then_moves_the_tags(engine_client, cpu_image, registry):
    manifest = load_manifest(REPO / "pins.yaml")
    image = manifest.default_image
    pushed = publish.publish(engine_client, manifest, image, registry, log=lambda line: None)
    content = f"{registry}/{cpu_image.tags.final}"
    digest = pushed[content]
    assert digest.startswith("sha256:")
    with urllib.request.urlopen(f"http://{registry}/v2/{manifest.repository}/tags/list", timeout=10) as response:
        tags = set(json.load(response)["tags"])
    assert tags == {cpu_image.tags.final.split(":")[1], image.name, image.human_tag}
    for tag in tags:
        assert _manifest_digest(registry, manifest.repository, tag) == digest
    for reference in pushed:
        engine_client.images.remove(reference)


def test_publish_needs_a_promoted_image(engine_client, cpu_image):
    manifest = load_manifest(REPO / "pins.yaml")
    with pytest.raises(UserError, match="does not exist"):
        publish.content_tag(engine_client, manifest.repository, "npu-a3")
