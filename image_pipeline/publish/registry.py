"""The little of the OCI distribution API publishing needs: read and write manifests, copy blobs.

Credentials come only from the environment (REGISTRY_USER / REGISTRY_TOKEN) or the docker
client's config (~/.docker/config.json `auths`), never from a file of this repository.
Loopback registries are spoken to over plain HTTP, as the Docker Engine does.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from ..errors import UserError

INDEX_TYPE = "application/vnd.docker.distribution.manifest.list.v2+json"
IMAGE_MANIFEST_TYPES = ("application/vnd.oci.image.manifest.v1+json",  # one image's: its config and layers
                        "application/vnd.docker.distribution.manifest.v2+json")
MANIFEST_TYPES = ("application/vnd.oci.image.index.v1+json", INDEX_TYPE, *IMAGE_MANIFEST_TYPES)
TIMEOUT_S = 60


def split(reference: str) -> tuple:
    """registry/namespace/repo -> (host, repository path)."""
    host, _, path = reference.partition("/")
    return host, path


def _scheme(host: str) -> str:
    """Plain HTTP only to a literal loopback address (as the Docker Engine allows): 127.0.0.0/8, [::1],
    localhost. Anything else, `127.evil.example` included, is HTTPS."""
    return "http" if is_loopback(host) else "https"


def is_loopback(host: str) -> bool:
    if host.startswith("["):
        name = host[1:].partition("]")[0]
    else:
        name = host.rpartition(":")[0] if host.count(":") == 1 else host
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def credentials(host: str) -> tuple | None:
    if os.environ.get("REGISTRY_USER") and os.environ.get("REGISTRY_TOKEN"):
        return os.environ["REGISTRY_USER"], os.environ["REGISTRY_TOKEN"]
    config = Path(os.environ.get("DOCKER_CONFIG", Path.home() / ".docker")) / "config.json"
    if config.exists():
        auth = (json.loads(config.read_text()).get("auths") or {}).get(host, {}).get("auth")
        if auth:
            user, _, secret = base64.b64decode(auth).decode().partition(":")
            return user, secret
    return None


class _CredentialsStayWithTheRegistry(urllib.request.HTTPRedirectHandler):
    """Registries answer blob reads with a redirect to their storage service: the registry's credentials do
    not follow a redirect to another host."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        follow = super().redirect_request(req, fp, code, msg, headers, newurl)
        if follow is not None and urllib.parse.urlsplit(newurl).netloc != urllib.parse.urlsplit(req.full_url).netloc:
            follow.remove_header("Authorization")
        return follow


_OPENER = urllib.request.build_opener(_CredentialsStayWithTheRegistry)


class Registry:
    def __init__(self, host: str):
        self.host = host
        self.base = f"{_scheme(host)}://{host}"
        self.token = None
        self.challenge = None  # the challenge the token answered: a push asks for another scope than a pull

    def _request(self, method: str, path: str, data=None, headers=None, missing_ok=False, retry=True):
        """A response, None for a 404 when missing_ok. Data that is a stream is never sent twice: a request
        carrying one must follow one (on the same repository and scope) that already logged in."""
        headers = dict(headers or {})
        if self.token:
            headers["Authorization"] = self.token
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            return _OPENER.open(request, timeout=TIMEOUT_S)
        except urllib.error.HTTPError as exc:
            challenge = exc.headers.get("WWW-Authenticate", "")
            replayable = data is None or isinstance(data, bytes)
            if exc.code == 401 and retry and replayable and challenge != self.challenge and self._login(challenge):
                return self._request(method, path, data, headers, missing_ok, retry=False)
            if exc.code == 404 and missing_ok:
                return None
            raise UserError(f"{method} {self.base}{path}: HTTP {exc.code} {exc.reason}") from None
        except OSError as exc:
            raise UserError(f"{method} {self.base}{path}: {exc}") from None

    def _login(self, challenge: str) -> bool:
        creds = credentials(self.host)
        self.challenge = challenge
        if challenge.lower().startswith("basic") and creds:
            self.token = "Basic " + base64.b64encode(f"{creds[0]}:{creds[1]}".encode()).decode()
            return True
        if not challenge.lower().startswith("bearer"):
            return False
        params = dict(re.findall(r'(\w+)="([^"]*)"', challenge))
        realm = urllib.parse.urlsplit(params.get("realm", ""))
        allowed = realm.scheme == "https" or (realm.scheme == "http" and is_loopback(realm.netloc))
        if not (allowed and realm.netloc) or realm.query or realm.fragment:
            raise UserError(f"{self.base} names the token service {params.get('realm', '')[:200]!r}: credentials go "
                            f"only to an https URL (plain http only on loopback)")
        query = urllib.parse.urlencode({k: v for k, v in params.items() if k in ("service", "scope")})
        request = urllib.request.Request(f"{realm.geturl()}?{query}")
        if creds:
            request.add_header("Authorization", "Basic " + base64.b64encode(f"{creds[0]}:{creds[1]}".encode()).decode())
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                token = json.load(response)
        except (OSError, ValueError) as exc:
            raise UserError(f"the token service of {self.base} ({realm.geturl()}): {exc}") from None
        token = token.get("token") or token.get("access_token") if isinstance(token, dict) else None
        if not isinstance(token, str) or not token.isprintable():
            raise UserError(f"the token service of {self.base} ({realm.geturl()}) answered no token")
        self.token = "Bearer " + token
        return True

    def manifest(self, repository: str, reference: str) -> tuple:
        """(media type, raw bytes, digest) of a manifest by tag or digest."""
        with self._request("GET", f"/v2/{repository}/manifests/{reference}",
                           headers={"Accept": ", ".join(MANIFEST_TYPES)}) as response:
            return (response.headers["Content-Type"].split(";")[0], response.read(),
                    response.headers.get("Docker-Content-Digest"))

    def blob(self, repository: str, digest: str) -> bytes:
        with self.open_blob(repository, digest) as response:
            return response.read()

    def image_config(self, repository: str, reference: str) -> tuple:
        """(config digest, config JSON) of a single-platform image manifest: the digest is the image id."""
        config = json.loads(self.manifest(repository, reference)[1])["config"]["digest"]
        return config, json.loads(self.blob(repository, config))

    def digest(self, repository: str, reference: str) -> str | None:
        """The digest a tag names, None where the registry has no such manifest (404); any other failure
        is an error, not an absent tag."""
        response = self._request("HEAD", f"/v2/{repository}/manifests/{reference}", missing_ok=True,
                                 headers={"Accept": ", ".join(MANIFEST_TYPES)})
        if response is None:
            return None
        with response:
            return response.headers.get("Docker-Content-Digest")

    def has_blob(self, repository: str, digest: str) -> bool:
        response = self._request("HEAD", f"/v2/{repository}/blobs/{digest}", missing_ok=True)
        if response is None:
            return False
        response.close()
        return True

    def open_blob(self, repository: str, digest: str):
        """The response streaming a blob (the caller reads, checks and closes it)."""
        return self._request("GET", f"/v2/{repository}/blobs/{digest}")

    def upload_blob(self, repository: str, digest: str, size: int, chunks) -> None:
        """Upload a blob from an iterable of byte chunks, committed (PUT ?digest=) only after the bytes sent
        were counted and hashed here to be exactly `size` bytes of `digest`; else the upload is cancelled."""
        with self._request("POST", f"/v2/{repository}/blobs/uploads/", data=b"") as response:
            location = self._same_origin(response.headers.get("Location", ""))
        hashed, sent = hashlib.sha256(), 0

        def counted():
            nonlocal sent
            for chunk in chunks:
                hashed.update(chunk)
                sent += len(chunk)
                if sent > size:
                    raise UserError(f"blob {digest} is longer than its {size} bytes: not uploaded")
                yield chunk

        with self._request("PATCH", location, data=counted(), headers={
                "Content-Type": "application/octet-stream", "Content-Length": str(size)}) as response:
            location = self._same_origin(response.headers.get("Location", "") or location)
        if sent != size or f"sha256:{hashed.hexdigest()}" != digest:
            self._cancel(location)
            raise UserError(f"blob {digest}: {sent} bytes read hash to sha256:{hashed.hexdigest()}: not uploaded")
        separator = "&" if "?" in location else "?"
        query = urllib.parse.urlencode({"digest": digest})
        self._request("PUT", f"{location}{separator}{query}", data=b"",
                      headers={"Content-Type": "application/octet-stream"}).close()

    def _cancel(self, location: str) -> None:
        try:
            self._request("DELETE", location, missing_ok=True)
        except UserError:
            pass  # an upload never committed expires in the registry; the reason to report is the caller's

    def _same_origin(self, location: str) -> str:
        """The path of an upload location, which must be on this registry: an upload is never sent (with
        this registry's credentials) wherever a response points."""
        parsed = urllib.parse.urlsplit(urllib.parse.urljoin(self.base + "/", location))
        if not location or f"{parsed.scheme}://{parsed.netloc}" != self.base or not parsed.path.startswith("/v2/"):
            raise UserError(f"{self.base} answered an upload with location {location[:200]!r}, not a path of its own")
        return parsed.path + (f"?{parsed.query}" if parsed.query else "")

    def put_manifest(self, repository: str, reference: str, media_type: str, body: bytes) -> str:
        with self._request("PUT", f"/v2/{repository}/manifests/{reference}", data=body,
                           headers={"Content-Type": media_type}) as response:
            return response.headers.get("Docker-Content-Digest")
