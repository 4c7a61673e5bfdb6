"""The network profile: where downloads go, what they trust, and the mirrors of pinned indexes.

Taken from the host (pip's resolved configuration) unless a flag says otherwise. Only the
lock and the host-side downloads use it: a Docker build installs from bind-mounted, hash-checked
files and never downloads a Python package, so it gets nothing of the profile but the apt
mirror, as a build-arg that is refused if it carries credentials.

Mirrors replace a pinned index (pins.yaml `indexes`) with a location that serves the same
files: a URL (a PEP 503 simple index) or a directory (a flat index, like pip's find-links).
By default pip's `index-url` (when it is http(s)) mirrors `pypi`, and pip's `find-links`
directories mirror every other index: on these machines /opt/wheels stands in for the
PyTorch CPU index.
"""

from __future__ import annotations

import re
import ssl
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from .errors import UserError

DEFAULT_CA_BUNDLES = ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt")


@dataclass
class NetProfile:
    index_url: str = ""
    extra_index_urls: list = field(default_factory=list)
    find_links: list = field(default_factory=list)
    ca_bundle: str = ""
    apt_mirror: str = ""
    explicit_mirrors: dict = field(default_factory=dict)  # index name -> location (--mirror NAME=URL)

    def mirrors(self, index_names) -> dict:
        """index name -> mirror location, for the pinned indexes."""
        out = {}
        for name in index_names:
            if name in self.explicit_mirrors:
                out[name] = self.explicit_mirrors[name]
            elif name == "pypi" and self.index_url.startswith(("http://", "https://")):
                out[name] = self.index_url
            elif name != "pypi" and self.find_links:
                out[name] = self.find_links[0]
        return out

    def secrets(self) -> list:
        """Credential strings in the profile (user:password@ parts), for leak checks."""
        found = []
        for url in [self.index_url, *self.extra_index_urls, *self.explicit_mirrors.values()]:
            parts = urlsplit(url)
            if parts.password:
                found.append(parts.password)
            elif parts.username:
                found.append(parts.username)
        return found

    def buildargs(self) -> dict:
        return {"APT_MIRROR": self.apt_mirror} if self.apt_mirror else {}

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.ca_bundle or None)


def _remote(url: str) -> bool:
    return bool(url) and url.startswith(("http://", "https://"))


def from_host(*, index_url=None, extra_index_urls=None, ca_bundle=None, apt_mirror=None, mirrors=(),
              pip_config=None) -> NetProfile:
    """The host's settings, each overridable by the matching flag."""
    config = pip_config if pip_config is not None else host_pip_config()
    profile = NetProfile(
        index_url=index_url if index_url is not None else config.get("index-url", ""),
        extra_index_urls=list(extra_index_urls) if extra_index_urls is not None
        else config.get("extra-index-url", "").split(),
        find_links=[p for p in config.get("find-links", "").split() if Path(p).is_dir()],
        ca_bundle=ca_bundle if ca_bundle is not None else _host_ca(config),
        apt_mirror=apt_mirror or "",
        explicit_mirrors=dict(_mirror_pair(m) for m in mirrors),
    )
    _validate(profile)
    return profile


def _mirror_pair(text: str) -> tuple:
    name, sep, location = text.partition("=")
    if not (sep and name and location):
        raise UserError(f"expected INDEX=URL-or-directory, got {text!r}", key="--mirror")
    return name, location


def host_pip_config() -> dict:
    """pip's resolved settings (files and PIP_* variables), as `pip config list` prints them."""
    result = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True)
    settings: dict = {}
    for line in result.stdout.splitlines():
        match = re.fullmatch(r"[^.]*\.([\w-]+)='(.*)'", line.strip())
        if match:
            settings[match.group(1)] = match.group(2)  # later (env) entries win, as in pip
    return settings


def _host_ca(config: dict) -> str:
    for candidate in (config.get("cert"), *DEFAULT_CA_BUNDLES):
        if candidate and Path(candidate).is_file():
            return candidate
    return ""


def _validate(profile: NetProfile) -> None:
    if profile.ca_bundle and not Path(profile.ca_bundle).is_file():
        raise UserError(f"CA bundle {profile.ca_bundle} does not exist", key="--ca-bundle")
    if profile.apt_mirror:
        parts = urlsplit(profile.apt_mirror)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise UserError(f"apt mirror must be an http(s) URL, got {profile.apt_mirror!r}", key="--apt-mirror")
        if parts.username or parts.password:
            raise UserError("apt mirror must not carry credentials (it is a build-arg, visible in the image "
                            "history); use an unauthenticated mirror", key="--apt-mirror")
