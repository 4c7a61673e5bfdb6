"""`build.py doctor [IMAGE]`: what this host lacks to build or run an image, before a multi-GB build.

Each finding is one line, `ok`, `warn` or `FAIL`, and a FAIL says what to do. The host is read
through one root path (its /dev, /etc, /proc, /usr/local/Ascend, /var/run/docker.sock), so a test
runs the same checks against a fake host tree. What is not a file is asked of the real thing: the
Docker Engine over its socket, each input host over the network (an HTTP request; any answer,
even 404, means it answers).
"""

from __future__ import annotations

import http.client
import json
import platform as platform_module
import shutil
import socket
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from ..lock import lockfile
from ..manifest.model import PLATFORM_ARCH
from . import passthrough

TIMEOUT_S = 5
BUILDKIT_API = (1, 39)  # Docker 18.09: the first engine that builds with BuildKit
DRIVER_VERSION_FILE = "/usr/local/Ascend/driver/version.info"
# what the build keeps on disk, as a multiple of the lock's files: the wheelhouse, the build context's
# copy, the installed layers (wheels unpack to about twice their size); the base image comes on top
DISK_FACTOR = 4
QEMU_HANDLER = {"linux/arm64": "qemu-aarch64", "linux/amd64": "qemu-x86_64"}


@dataclass(frozen=True)
class Finding:
    level: str  # ok | warn | FAIL
    subject: str
    detail: str
    fix: str = ""

    def line(self) -> str:
        return f"{self.level:<4} {self.subject}: {self.detail}" + (f" -> {self.fix}" if self.fix else "")


@dataclass
class Host:
    """The host as doctor reads it. Tests hand in a fake tree as root and, where the real thing cannot
    be a file, a stand-in (named so in the test)."""
    root: Path = Path("/")
    machine: str = field(default_factory=platform_module.machine)
    disk_usage: Callable = shutil.disk_usage
    reach: Callable = None  # url -> None when it answers, else why not (default: answers())

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    @property
    def platform(self) -> str:
        return next((p for p, arch in PLATFORM_ARCH.items() if arch == self.machine), f"linux/{self.machine}")


def examine(host: Host, manifest, image, platform: str, profile, *, build_only=False) -> list:
    """Every finding for building and running `image` for `platform` on this host (build_only: a host
    that only builds, as CI's hosted build runners do, needs no device)."""
    found = engine(host)
    if platform != host.platform:
        found += emulation(host, platform)
    found += disk(host, manifest, image, platform)
    if image.device == "npu" and not build_only:
        found += devices(host, image) + driver(host, image) + hccn(host, image)
    found += inputs(host, manifest, image, platform, profile)
    return found


# ---------------------------------------------------------------- the engine

def engine(host: Host) -> list:
    sock = host.path("/var/run/docker.sock")
    if not sock.exists():
        return [Finding("FAIL", "Docker Engine", f"no socket at {sock}",
                        "as root, `python build.py engine` installs Debian's docker.io and starts dockerd")]
    try:
        version = json.loads(_unix_get(sock, "/version"))
        api = tuple(int(part) for part in str(version["ApiVersion"]).split(".")[:2])
    except (OSError, ValueError, KeyError, TypeError, http.client.HTTPException) as exc:
        return [Finding("FAIL", "Docker Engine", f"{sock} does not answer as an engine ({_brief(exc)})",
                        "start dockerd (as root: `python build.py engine`)")]
    engine_line = Finding("ok", "Docker Engine", f"{version.get('Version', '?')} answers (API {version['ApiVersion']})")
    if api < BUILDKIT_API:
        return [engine_line, Finding("FAIL", "BuildKit", f"API {version['ApiVersion']} predates BuildKit",
                                     "install Docker 18.09 or newer (Debian's docker.io)")]
    return [engine_line, Finding("ok", "BuildKit", "the engine builds with BuildKit (buildx, or DOCKER_BUILDKIT=1)")]


def _unix_get(sock: Path, path: str) -> str:
    connection = _UnixConnection(str(sock))
    try:
        connection.request("GET", path, headers={"Host": "docker"})
        response = connection.getresponse()
        if response.status != 200:
            raise ValueError(f"HTTP {response.status}")
        return response.read(1 << 20).decode()
    finally:
        connection.close()


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str):
        super().__init__("localhost", timeout=TIMEOUT_S)
        self.unix_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(TIMEOUT_S)
        self.sock.connect(self.unix_path)


# ---------------------------------------------------------------- the build

def emulation(host: Host, platform: str) -> list:
    handler = QEMU_HANDLER.get(platform, "")
    entry = host.path(f"/proc/sys/fs/binfmt_misc/{handler}")
    if entry.is_file() and entry.read_text().splitlines()[:1] == ["enabled"]:
        return [Finding("ok", "emulation", f"{platform} runs under QEMU ({handler} registered)")]
    return [Finding("FAIL", "emulation", f"{platform} is not this host's ({host.platform}) and no {handler} "
                    "handler is registered", "as root, `make image PLATFORM=" + platform + "` installs "
                    "qemu-user-static and registers it (or: apt-get install qemu-user-static binfmt-support)")]


def disk(host: Host, manifest, image, platform: str) -> list:
    lock = lockfile.read(lockfile.path_for(manifest.path.parent, image.name, platform))
    files = sum(e.artifact.size or 0 for e in lock.packages) if lock else 0
    need = files * DISK_FACTOR
    where = next(p for p in (host.path("/var/lib/docker"), host.root) if p.exists())
    free = host.disk_usage(where).free
    detail = (f"{_gb(free)} free at {where}; the build needs about {_gb(need)} ({DISK_FACTOR}x the lock's "
              f"{_gb(files)} of files) plus the base image")
    if free < need:
        return [Finding("FAIL", "disk", detail, f"free {_gb(need - free)} or more at {where}")]
    return [Finding("ok", "disk", detail)]


# ---------------------------------------------------------------- the device (NPU images)

def devices(host: Host, image) -> list:
    npu = passthrough.detect_npu(str(host.root))
    numbered = [d for d in npu.devices if d[-1].isdigit()]
    if not numbered:
        return [Finding("FAIL", "NPU devices", "no /dev/davinci[0-9]*: no Ascend NPU, or its driver is not loaded",
                        "run on an Ascend host with the HDK driver installed (`npu-smi info` lists the NPUs)")]
    want = image.runner.npus if image.runner else 0
    count = f"{len(numbered)} NPUs" + (f" (a node of {image.runner.name} has {want})" if want else "")
    found = [Finding("ok" if not want or len(numbered) >= want else "warn", "NPU devices", count)]
    for control in passthrough.NPU_DEVICES:
        if control not in npu.devices:
            found.append(Finding("FAIL", "NPU devices", f"{control} is missing",
                                 "reinstall or reload the HDK driver (it creates the davinci control devices)"))
    return found


def driver(host: Host, image) -> list:
    found = []
    for mount in passthrough.NPU_MOUNTS:
        if mount != passthrough.HCCN_CONF and not host.path(mount).exists():
            found.append(Finding("FAIL", "driver files", f"{mount} is missing (the container mounts it)",
                                 "install the Ascend HDK driver and its tools (npu-smi, dcmi)"))
    wanted = image.base.get("driver")
    version = _driver_version(host.path(DRIVER_VERSION_FILE))
    if version is None:
        found.append(Finding("FAIL", "driver version", f"cannot read Version= in {DRIVER_VERSION_FILE}",
                             "install the Ascend HDK driver"))
    elif not wanted:
        found.append(Finding("warn", "driver version", f"{version} installed; pins.yaml declares no driver for "
                                                       f"{image.base.name}, so it is not compared"))
    elif _release_key(version) < _release_key(wanted["version"]):
        found.append(Finding("FAIL", "driver version", f"{version} installed; CANN {image.cann_version} needs "
                             f"{wanted['version']} or newer ({wanted['source']})",
                             f"upgrade the HDK driver to {wanted['version']} or newer"))
    else:
        found.append(Finding("ok", "driver version", f"{version} (CANN {image.cann_version} needs "
                                                     f"{wanted['version']} or newer)"))
    return found


def _driver_version(path: Path):
    if not path.is_file():
        return None
    for line in path.read_text(errors="replace").splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip().lower() == "version" and value.strip():
            return value.strip()
    return None


def _release_key(version: str) -> tuple:
    """Ascend's versions order as 25.5.0 < 26.0.rc1 < 26.0.rc2 < 26.0.0: an rc precedes its release."""
    key = []
    for part in version.split("."):
        if part.isdigit():
            key.append((1, int(part)))
        elif part.lower().startswith("rc") and part[2:].isdigit():
            key.append((0, int(part[2:])))
        else:
            key.append((0, 0))
    return tuple(key)


def hccn(host: Host, image) -> list:
    if "mooncake" not in image.stack:
        return []
    if host.path(passthrough.HCCN_CONF).is_file():
        return [Finding("ok", "hccn.conf", f"{passthrough.HCCN_CONF} exists (mounted for Mooncake's ascend_direct)")]
    return [Finding("FAIL", "hccn.conf", f"no {passthrough.HCCN_CONF}: Mooncake's ascend_direct transport reads the "
                    "NPUs' RoCE addresses from it (Mooncake#502)",
                    "configure the NPU network with hccn_tool, which writes /etc/hccn.conf")]


# ---------------------------------------------------------------- where the inputs come from

def input_hosts(manifest, image, platform: str, profile) -> dict:
    """{https://host: [what comes from it]} for every place the build of image on platform downloads from."""
    out: dict = {}

    def add(url: str, what: str):
        parts = urlsplit(url)
        if parts.scheme in ("http", "https") and parts.hostname:
            out.setdefault(f"{parts.scheme}://{parts.netloc}", []).append(what)

    mirrors = profile.mirrors(manifest.indexes)
    lock = lockfile.read(lockfile.path_for(manifest.path.parent, image.name, platform))
    used = {e.index for e in lock.packages} if lock else set()
    for index in manifest.indexes.values():
        if index.url in used:
            add(mirrors.get(index.name, index.url), f"index {index.name}" + (" (mirror)" if index.name in mirrors else ""))
    by_url = {index.url: index.name for index in manifest.indexes.values()}
    for external in (lock.externals if lock else ()):
        name = by_url.get(external["origin"])
        add(mirrors.get(name, external["origin"]), f"external {external['component']}")
    files = {urlsplit(e.artifact.url).netloc for e in (lock.packages if lock else ())}
    for netloc in sorted(files):
        add(f"https://{netloc}", "locked files")
    for item in [*(lock.source_builds if lock else ()), *(lock.archives if lock else ())]:
        add(item.get("url", ""), f"{item['component']}")
    for comp in image.components:
        if comp.source == "git":
            add(comp.get("repo"), f"git {comp.name}")
    add(_registry_url(image.base), f"base {image.base.name}")
    return {host: sorted(set(what)) for host, what in out.items()}


def _registry_url(base) -> str:
    reference = base.get("image") or ""
    first = reference.split("/", 1)[0]
    if "." not in first and ":" not in first and first != "localhost":
        return "https://registry-1.docker.io"  # docker.io's short names
    return f"https://{'registry-1.docker.io' if first == 'docker.io' else first}"


def inputs(host: Host, manifest, image, platform: str, profile) -> list:
    hosts = input_hosts(manifest, image, platform, profile)
    reach = host.reach or (lambda url: answers(url, profile.ssl_context()))
    with ThreadPoolExecutor(max_workers=8) as pool:
        verdicts = dict(zip(hosts, pool.map(reach, hosts)))
    found = []
    for url, what in hosts.items():
        why = verdicts[url]
        if why is None:
            found.append(Finding("ok", "input", f"{url} answers ({', '.join(what)})"))
        else:
            found.append(Finding("FAIL", "input", f"{url} does not answer ({why}): {', '.join(what)}", _mirror_fix(what)))
    return found


def _mirror_fix(what: list) -> str:
    """How to do without a host, for each kind of input that comes from it."""
    fixes = {"index": "--mirror INDEX=URL-or-directory", "external": "--mirror INDEX=URL-or-directory",
             "locked": "--index-url of a PyPI mirror", "git": "a local clone as the pin's repo (file://)",
             "base": "`build.py base IMAGE --load FILE` (the base docker-saved elsewhere)"}
    kinds = sorted({fixes.get(item.split(" ", 1)[0], "a mirror") for item in what})
    return f"open the way to it, or use {' / '.join(kinds)}"


def answers(url: str, context=None) -> str | None:
    """None when url's host gives any HTTP answer within TIMEOUT_S, else why not. Plain HTTP only to
    literal loopback, as everywhere here."""
    parts = urlsplit(url)
    if parts.scheme == "http" and parts.hostname not in ("127.0.0.1", "::1", "localhost"):
        return "plain HTTP is refused except to loopback"
    request = urllib.request.Request(url + "/", method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S, context=context if parts.scheme == "https" else None):
            return None
    except urllib.error.HTTPError:
        return None  # it answered, with an error status: the host is reachable
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        return _brief(exc)


def _brief(exc: BaseException) -> str:
    reason = getattr(exc, "reason", None) or exc
    return str(reason).splitlines()[0][:120] if str(reason) else type(exc).__name__


def _gb(size: int) -> str:
    return f"{size / 1e9:.1f} GB"
