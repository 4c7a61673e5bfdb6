"""Fetch pinned files by sha256: locked wheels and sdists, `url` pins such as vllm's sdist, and
the wheels of index externals (the file pip picks for the target, from an index uv cannot reach).

Every file lands in a content-addressed cache (.cache/files/<sha256>/<name>) only after its
sha256 matched. A locked file is looked up on its index's mirror first (a directory, or a
simple index), then at the URL the lock recorded, then on its index itself.
"""

from __future__ import annotations

import hashlib
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

from ..errors import UserError

TIMEOUT_S = 120


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cached(cache: Path, sha256: str, name: str) -> Path:
    return cache / "files" / sha256 / name


def fetch_locked(entry, index_url: str, mirror: str | None, cache: Path, context=None) -> Path:
    """The locked artifact of an entry, from the cache or downloaded and verified."""
    artifact = entry.artifact
    target = cached(cache, artifact.sha256, artifact.name)
    if target.exists():
        return target
    tried = []
    for location in locations(entry.name, artifact, index_url, mirror, context):
        try:
            return _store(location, artifact.sha256, target, context)
        except (OSError, ValueError) as exc:
            tried.append(f"{location}: {exc}")
    raise UserError(f"cannot fetch {artifact.name} (sha256 {artifact.sha256[:12]}): "
                    + ("; ".join(tried[-2:]) or "no index lists it"))


class Unreachable(UserError):
    """The location did not answer, as opposed to answering with other bytes than pinned."""


def fetch_url(url: str, sha256: str, cache: Path, context=None) -> Path:
    target = cached(cache, sha256, url.rsplit("/", 1)[1])
    return target if target.exists() else _download(url, sha256, target, context)


def _download(url: str, sha256: str, target: Path, context) -> Path:
    try:
        return _store(url, sha256, target, context)
    except OSError as exc:
        raise Unreachable(f"download of {url} failed: {exc}") from None
    except ValueError as exc:
        raise UserError(f"download of {url} failed: {exc}") from None


def download_wheel(dist: str, version: str, index: str, *, python: str, uv_platform: str, ca_bundle: str,
                   dest: Path, retries: int = 5) -> Path:
    """The wheel pip picks for dist==version on the target (python, `<arch>-manylinux_2_<glibc>`), from a
    simple index or a directory of wheels; bytes as served (the caller checks or records their sha256)."""
    arch, glibc = uv_platform.split("-manylinux_2_")
    source = ["--find-links", index, "--no-index"] if not index.startswith(("http", "file:")) else ["--index-url", index]
    cmd = [sys.executable, "-m", "pip", "download", "--isolated", "--no-deps", "--only-binary=:all:", "--dest",
           str(dest), "--python-version", python, "--implementation", "cp", "--retries", str(retries), *source,
           *(f"--platform=manylinux_2_{m}_{arch}" for m in range(int(glibc), 16, -1)), f"{dist}=={version}"]
    if ca_bundle:
        cmd += ["--cert", ca_bundle]
    result = subprocess.run(cmd, capture_output=True, text=True)
    found = sorted(dest.glob("*.whl"))
    if result.returncode or not found:
        last = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise Unreachable(f"{dist}=={version} for {arch} is not available from {index}: {last}")
    return found[0]


def store_verified(path: Path, sha256: str, cache: Path) -> Path:
    """A file whose sha256 is known, into the content-addressed cache (where fetch_locked looks first)."""
    return _store(str(path), sha256, cached(cache, sha256, path.name), None)


def locations(name, artifact, index_url, mirror, context=None):
    """Where the artifact may be fetched from, best first (lazily: page lookups happen on demand)."""
    if mirror:
        if not mirror.startswith(("http://", "https://", "file://")):
            yield str(Path(mirror) / artifact.name)
        else:
            found = _from_project_page(mirror, name, artifact.name, context)
            if found:
                yield found
    if artifact.url:
        yield artifact.url
    found = _from_project_page(index_url, name, artifact.name, context)
    if found:
        yield found


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links += [value for key, value in attrs if key == "href"]


def _from_project_page(index_url: str, project: str, filename: str, context) -> str:
    """The URL of `filename` on a PEP 503/691 simple index's page for `project`, or ""."""
    page = f"{index_url.rstrip('/')}/{canonicalize_name(project)}/"
    try:
        if page.startswith("file://"):
            path = Path(urllib.parse.urlsplit(page).path)
            text = (path / "index.html").read_text() if (path / "index.html").exists() else ""
            links = _links(text)
        else:
            request = urllib.request.Request(page, headers={
                "Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1"})
            with urllib.request.urlopen(request, timeout=TIMEOUT_S, context=context) as response:
                body = response.read().decode()
                kind = response.headers.get("Content-Type", "")
            links = ([f["url"] for f in json.loads(body)["files"]] if "json" in kind else _links(body))
    except (OSError, ValueError, KeyError):
        return ""
    for link in links:
        absolute = urllib.parse.urljoin(page, link).split("#", 1)[0]
        if urllib.parse.unquote(absolute.rsplit("/", 1)[1]) == filename:
            return absolute
    return ""


def _links(text: str) -> list:
    parser = _Links()
    parser.feed(text)
    return parser.links


def _store(location: str, sha256: str, target: Path, context) -> Path:
    """Download (or copy) to target, atomically; with a sha256, only bytes that match it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + f".{os.getpid()}.part")
    try:
        if location.startswith(("http://", "https://")):
            with urllib.request.urlopen(location, timeout=TIMEOUT_S, context=context) as response, \
                    open(partial, "wb") as out:
                shutil.copyfileobj(response, out, 1 << 20)
        else:
            shutil.copyfile(urllib.parse.unquote(location.removeprefix("file://")), partial)
        found = sha256_file(partial)
        if sha256 and found != sha256:
            raise ValueError(f"sha256 {found}, expected {sha256}")
        os.replace(partial, target)
        return target
    finally:
        if partial.exists():
            partial.unlink()


def requirements_inside(build, cache: Path, context=None) -> list:
    """The requirement lines of `requires_from` inside a pinned sdist (comments stripped)."""
    archive = fetch_url(build.url, build.sha256, cache, context)
    with tarfile.open(archive) as tar:
        member = next((m for m in tar.getmembers() if m.name.split("/", 1)[-1] == build.requires_from), None)
        if member is None:
            raise UserError(f"{archive.name} has no {build.requires_from}", key=f"components.{build.component}")
        text = tar.extractfile(member).read().decode()
    lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("-")]


def fetch_archive(url: str, sha256: str, cache: Path, context=None) -> Path:
    """An archive by its pinned sha256, or (none pinned yet) as the URL serves it, cached by URL."""
    if sha256:
        return fetch_url(url, sha256, cache, context)
    target = cache / "archives" / hashlib.sha256(url.encode()).hexdigest()[:16] / url.rsplit("/", 1)[1]
    return target if target.exists() else _download(url, "", target, context)


def archive_wheels(archive: Path, wheels, where: str) -> list:
    """[{name, sha256}] of the wheels in a zip, one per distribution `wheels` lists and no other."""
    found = {}
    try:
        with zipfile.ZipFile(archive) as bundle:
            for member in bundle.infolist():
                name = member.filename.rsplit("/", 1)[-1]
                if not name.endswith(".whl"):
                    continue
                try:
                    dist = canonicalize_name(parse_wheel_filename(name)[0])
                except InvalidWheelFilename:
                    raise UserError(f"{archive.name} holds {name!r}, not a valid wheel name", key=where) from None
                if dist in found:
                    raise UserError(f"{archive.name} holds two wheels of {dist}", key=where)
                found[dist] = {"name": name, "sha256": hashlib.sha256(bundle.read(member)).hexdigest()}
    except zipfile.BadZipFile:
        raise UserError(f"{archive.name} is not a zip archive", key=where) from None
    wanted = [canonicalize_name(w) for w in wheels]
    if set(found) != set(wanted):
        raise UserError(f"{archive.name} holds wheels of {', '.join(sorted(found)) or 'nothing'}; pins.yaml lists "
                        f"{', '.join(wanted)}", key=where)
    return [found[dist] for dist in wanted]
