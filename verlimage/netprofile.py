"""The network profile a build is handed: pip indexes, CA bundle, apt mirror.

Taken from the host (pip's own resolved configuration, the apt sources) unless a
flag says otherwise. What reaches the build context is only ``netprofile/`` for
the *build* stage (pip.conf + CA bundle); the final image never copies it, and the
only build-arg is the apt mirror, which must not carry credentials.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from .errors import UserError

CONTAINER_CA = "/tmp/netprofile/ca.crt"
DEFAULT_CA_BUNDLES = ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt")


@dataclass
class NetProfile:
    index_url: str = ""
    extra_index_urls: list = field(default_factory=list)
    trusted_hosts: list = field(default_factory=list)
    ca_bundle: str = ""
    apt_mirror: str = ""

    def secrets(self) -> list:
        """Credential strings in the profile (user:password@ parts), for leak checks."""
        found = []
        for url in [self.index_url, *self.extra_index_urls]:
            parts = urlsplit(url)
            if parts.password:
                found.append(parts.password)
            elif parts.username:
                found.append(parts.username)
        return found

    def container_pip_conf(self) -> str:
        """pip.conf for the build stage: only indexes a container can reach (no file://)."""
        lines = ["[global]"]
        if _reachable(self.index_url):
            lines.append(f"index-url = {self.index_url}")
        extras = [u for u in self.extra_index_urls if _reachable(u)]
        if extras:
            lines.append("extra-index-url = " + " ".join(extras))
        if self.trusted_hosts:
            lines.append("trusted-host = " + " ".join(self.trusted_hosts))
        if self.ca_bundle:
            lines.append(f"cert = {CONTAINER_CA}")
        return "\n".join(lines) + "\n"

    def write_context(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "pip.conf").write_text(self.container_pip_conf())
        target = directory / "ca.crt"
        if self.ca_bundle:
            shutil.copyfile(self.ca_bundle, target)
        else:
            target.write_text("")

    def buildargs(self) -> dict:
        return {"APT_MIRROR": self.apt_mirror} if self.apt_mirror else {}


def _reachable(url: str) -> bool:
    return bool(url) and url.startswith(("http://", "https://"))


def from_host(*, index_url=None, extra_index_urls=None, ca_bundle=None, apt_mirror=None,
              pip_config=None) -> NetProfile:
    """The host's settings, each overridable by the matching flag."""
    config = pip_config if pip_config is not None else host_pip_config()
    profile = NetProfile(
        index_url=index_url if index_url is not None else config.get("index-url", ""),
        extra_index_urls=list(extra_index_urls) if extra_index_urls is not None
        else config.get("extra-index-url", "").split(),
        trusted_hosts=config.get("trusted-host", "").split(),
        ca_bundle=ca_bundle if ca_bundle is not None else _host_ca(config),
        apt_mirror=apt_mirror if apt_mirror is not None else "",
    )
    _validate(profile)
    return profile


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
