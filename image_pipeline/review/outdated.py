"""`build.py outdated`: pins with a newer release where they really come from.

A PyPI or url pin is looked up on the index it is locked from (its `index`, default pypi, or that
index's mirror in the network profile), never on PyPI for a pin PyPI does not carry: triton-ascend
3.2.2 comes from Ascend's index, where PyPI's newest is 3.2.0. An index that does not answer is
said to be "not reachable from here". What is newer is told apart: a release with a wheel for every
platform the pin is installed on, a release without one (an sdist-only post release would be built
from source), a pre-release. A pin newer than anything the index lists is never "up to date".
Git pins on a tag are compared with the repository's tags; branches and images are left to Renovate.
"""

from __future__ import annotations

import html.parser
import json
import re
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from packaging.utils import InvalidSdistFilename, InvalidWheelFilename, canonicalize_name, parse_sdist_filename
from packaging.utils import parse_wheel_filename
from packaging.version import InvalidVersion, Version

from .. import tables
from ..manifest.model import PLATFORM_ARCH

TIMEOUT_S = 20
SIMPLE_JSON = "application/vnd.pypi.simple.v1+json"


@dataclass
class Row:
    component: str
    source: str
    pinned: str
    newest: str
    note: str = ""


@dataclass(frozen=True)
class Release:
    version: Version
    wheel_arches: frozenset  # machine names a wheel fits ("any": every one)
    sdist: bool

    def fits(self, platform: str) -> bool:
        return bool(self.wheel_arches & {"any", PLATFORM_ARCH[platform]})


class Unreachable(Exception):
    """The index or repository did not answer."""


def newest_release(versions):
    finals = [v for v in versions if not (v.is_prerelease or v.is_devrelease)]
    return max(finals) if finals else None


# ---------------------------------------------------------------- what an index lists

def index_releases(index_url: str, dist: str, context=None) -> dict:
    """{Version: Release} of dist on a simple index (PEP 691 JSON or PEP 503 HTML) or a flat directory."""
    if not index_url.startswith(("http://", "https://")):
        files = [p.name for p in Path(index_url).iterdir() if p.is_file()] if Path(index_url).is_dir() else []
        return releases_of(name for name in files if _project_of(name) == canonicalize_name(dist))
    url = f"{index_url.rstrip('/')}/{canonicalize_name(dist)}/"
    request = urllib.request.Request(url, headers={"Accept": f"{SIMPLE_JSON}, text/html;q=0.1"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S, context=context if url.startswith("https") else None) \
                as response:
            body = response.read(32 << 20)
            kind = response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return {}
        raise Unreachable(f"HTTP {exc.code} from {url}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise Unreachable(str(getattr(exc, "reason", exc))[:80]) from None
    if SIMPLE_JSON in kind:
        names = [f["filename"] for f in json.loads(body).get("files", []) if not f.get("yanked")]
    else:
        names = [urlsplit(urljoin(url, href)).path.rsplit("/", 1)[-1] for href in _hrefs(body.decode(errors="replace"))]
    return releases_of(names)


def releases_of(file_names) -> dict:
    found: dict = {}
    for name in file_names:
        parsed = _parse_file(name)
        if parsed is None:
            continue
        version, arches, sdist = parsed
        version = Version(version.public)  # 2.10.0+cpu is the 2.10.0 release of the PyTorch CPU index
        old = found.get(version, Release(version, frozenset(), False))
        found[version] = Release(version, old.wheel_arches | arches, old.sdist or sdist)
    return found


def _parse_file(name: str):
    try:
        if name.endswith(".whl"):
            _, version, _, tags = parse_wheel_filename(name)
            return version, frozenset(_arch(tag.platform) for tag in tags), False
        if name.endswith((".tar.gz", ".zip")):
            return parse_sdist_filename(name)[1], frozenset(), True
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None
    return None


def _project_of(name: str) -> str:
    try:
        if name.endswith(".whl"):
            return parse_wheel_filename(name)[0]
        return parse_sdist_filename(name)[0] if name.endswith((".tar.gz", ".zip")) else ""
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return ""


def _arch(platform_tag: str) -> str:
    if platform_tag == "any":
        return "any"
    return next((arch for arch in ("x86_64", "aarch64") if platform_tag.endswith(arch)), platform_tag)


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs += [value for key, value in attrs if key == "href" and value]


def _hrefs(text: str) -> list:
    parser = _Links()
    parser.feed(text)
    return parser.hrefs


def git_tag_versions(repo: str) -> list:
    result = subprocess.run(["git", "ls-remote", "--tags", "--refs", repo], capture_output=True, text=True,
                            timeout=TIMEOUT_S)
    if result.returncode:
        raise Unreachable((result.stderr.strip().splitlines() or ["git ls-remote failed"])[-1][:80])
    tags = [line.rsplit("refs/tags/", 1)[1] for line in result.stdout.splitlines() if "refs/tags/" in line]
    return [v for v in (_parse(re.sub(r"^v", "", t)) for t in tags) if v]


def _parse(text: str):
    try:
        return Version(text)
    except InvalidVersion:
        return None


# ---------------------------------------------------------------- the verdicts

def check(manifest, profile, fetch_git=git_tag_versions) -> list:
    mirrors = profile.mirrors(manifest.indexes)
    context = profile.ssl_context()
    rows = []
    for comp in manifest.components.values():
        if comp.source in ("pypi", "url"):
            groups = _indexes_of(manifest, comp)
            verdicts = []
            for index, platforms in groups.items():
                location = mirrors.get(index, manifest.indexes[index].url)
                where = f"{index} via {location}" if index in mirrors else location
                verdicts.append((index, platforms, _index_verdict(
                    comp, where, platforms, lambda loc=location, comp=comp: index_releases(loc, comp.dist, context))))
            rows.append(_combined(comp, verdicts))
        elif comp.source == "git" and comp.get("tag") and comp.release:
            rows.append(_git_row(comp, lambda comp=comp: fetch_git(comp.get("repo"))))
        else:
            rows.append(Row(comp.name, comp.source, comp.summary, "-", "not checked (branch or image: Renovate)"))
    return rows


def _indexes_of(manifest, comp) -> dict:
    """{index name: [platforms]}: where the pin is locked from for each platform it is installed on."""
    platforms = sorted({p for name in manifest.users_of(comp.name) for p in manifest.images[name].platforms_of(comp)})
    builds = comp.spec.get("builds") or {}
    out: dict = {}
    for platform in platforms or ["linux/amd64"]:
        index = (builds.get(platform) or {}).get("index") or comp.get("index") or "pypi"
        out.setdefault(index, []).append(platform)
    return out


def _index_verdict(comp, location: str, platforms: list, fetch) -> tuple:
    try:
        releases = fetch()
    except Unreachable as exc:
        return "?", f"not reachable from here ({location}: {exc})"
    newest, note = _verdict(comp.release, releases, platforms, comp.source == "url")
    return newest, note if newest != "?" else f"{note} ({location})"


def _combined(comp, verdicts: list) -> Row:
    """One row: the verdict, or per index when the platforms come from more than one."""
    if len(verdicts) == 1:
        return Row(comp.name, comp.source, comp.summary, *verdicts[0][2])
    newest = next((v[2][0] for v in verdicts if v[2][0] != "?"), "?")
    note = "; ".join(f"{', '.join(platforms)} from {index}: {verdict[1]}" for index, platforms, verdict in verdicts)
    return Row(comp.name, comp.source, comp.summary, newest, note)


def _verdict(pinned, releases: dict, platforms: list, sdist_pin: bool) -> tuple:
    """(newest, note) of a pin against what its index lists."""
    if not releases or pinned is None:
        return "?", "no release of it on its index"
    final = newest_release(releases)
    newest_any = max(releases)
    if final is not None and final > pinned:
        missing = [] if sdist_pin else [p for p in platforms if not releases[final].fits(p)]
        if missing:
            return str(final), f"newer release without a wheel for {', '.join(missing)}"
        return str(final), "newer release"
    if newest_any > pinned:
        return str(newest_any), "newer pre-release"
    if pinned not in releases:
        return str(newest_any), "pinned release not on its index (newer than its newest)"
    return str(newest_any), "up to date"


def _git_row(comp, fetch) -> Row:
    try:
        versions = fetch()
    except (Unreachable, OSError, subprocess.TimeoutExpired) as exc:
        return Row(comp.name, comp.source, comp.summary, "?", f"not reachable from here ({str(exc)[:60]})")
    newest = newest_release(versions)
    if newest is None or comp.release is None:
        return Row(comp.name, comp.source, comp.summary, "?", "no release tags found")
    return Row(comp.name, comp.source, comp.summary, str(newest), "newer release" if newest > comp.release else "up to date")


def table(rows) -> str:
    return tables.text(("component", "source", "pinned", "newest", ""),
                       [(r.component, r.source, r.pinned, r.newest, r.note) for r in rows])
