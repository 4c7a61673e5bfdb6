"""The registry client's token login and its redirects, fast, against a stand-in for a token-authenticating registry (quay's and
SWR's token services do not exist here; Debian's docker-registry speaks no bearer tokens without one): a pull
token does not let a push through, so a push's challenge (another scope) logs in once more; a challenge that
repeats fails instead of looping; credentials go to no token service but an https one (http on loopback)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from image_pipeline.errors import UserError
from image_pipeline.publish.registry import Registry

DIGEST = "sha256:" + "1" * 64
MANIFEST_TYPE = "application/vnd.docker.distribution.manifest.v2+json"


class TokenRegistryStandIn(BaseHTTPRequestHandler):
    """Manifests need a token of the pull scope, writes one of push; /token hands out what is asked for."""
    realm = storage = ""
    logins = []

    def log_message(self, *args):
        pass

    def _challenge(self, scope):
        self.send_response(401)
        self.send_header("WWW-Authenticate", f'Bearer realm="{self.realm}",service="stand-in",scope="{scope}"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _authorized(self, needed):
        token = self.headers.get("Authorization", "")
        return token == "Bearer push-token" or (needed == "pull" and token == "Bearer pull-token")

    def do_GET(self):
        if self.path.startswith("/v2/r/blobs/"):
            if not self._authorized("pull"):
                return self._challenge("repository:r:pull")
            self.send_response(307)
            self.send_header("Location", f"{self.storage}/blob")
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if self.path.startswith("/token?"):
            self.logins.append(self.path)
            body = json.dumps({"token": "push-token" if "push" in self.path else "pull-token"}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def do_HEAD(self):
        if not self._authorized("pull"):
            return self._challenge("repository:r:pull")
        self.send_response(200)
        self.send_header("Docker-Content-Digest", DIGEST)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_PUT(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path.endswith("/denied"):
            return self._challenge("repository:r:pull,push,delete")
        if not self._authorized("push"):
            return self._challenge("repository:r:pull,push")
        self.send_response(201)
        self.send_header("Docker-Content-Digest", DIGEST)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture
def stand_in():
    server = ThreadingHTTPServer(("127.0.0.1", 0), TokenRegistryStandIn)
    address = f"127.0.0.1:{server.server_address[1]}"
    TokenRegistryStandIn.realm, TokenRegistryStandIn.logins = f"http://{address}/token", []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield address
    server.shutdown()


def test_a_push_after_a_pull_logs_in_again_for_its_scope(stand_in):
    registry = Registry(stand_in)
    assert registry.digest("r", "t") == DIGEST
    assert registry.put_manifest("r", "t", MANIFEST_TYPE, b"{}") == DIGEST
    scopes = [path.split("scope=")[1] for path in TokenRegistryStandIn.logins]
    assert scopes == ["repository%3Ar%3Apull", "repository%3Ar%3Apull%2Cpush"]


def test_a_challenge_that_comes_back_fails_instead_of_logging_in_forever(stand_in):
    registry = Registry(stand_in)
    with pytest.raises(UserError, match="HTTP 401"):
        registry.put_manifest("r", "denied", MANIFEST_TYPE, b"{}")
    assert len(TokenRegistryStandIn.logins) == 1


@pytest.mark.parametrize("realm", ["http://auth.example/token", "ftp://127.0.0.1/token", "/token",
                                   "https://auth.example/token?scope=x"])
def test_credentials_go_to_no_token_service_but_an_https_one(stand_in, realm):
    TokenRegistryStandIn.realm = realm
    with pytest.raises(UserError, match="credentials go only to an https URL"):
        Registry(stand_in).digest("r", "t")
    assert TokenRegistryStandIn.logins == []


class StorageStandIn(BaseHTTPRequestHandler):
    """Where a registry redirects a blob read (S3, a CDN): records what it was sent."""
    seen = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.seen.append(self.headers.get("Authorization"))
        self.send_response(200)
        self.send_header("Content-Length", "4")
        self.end_headers()
        self.wfile.write(b"blob")


def test_the_registrys_token_does_not_follow_a_blob_read_to_its_storage(stand_in):
    storage = ThreadingHTTPServer(("127.0.0.1", 0), StorageStandIn)
    threading.Thread(target=storage.serve_forever, daemon=True).start()
    TokenRegistryStandIn.storage, StorageStandIn.seen = f"http://127.0.0.1:{storage.server_address[1]}", []
    try:
        with Registry(stand_in).open_blob("r", DIGEST) as response:
            assert response.read() == b"blob"
    finally:
        storage.shutdown()
    assert TokenRegistryStandIn.logins and StorageStandIn.seen == [None]
