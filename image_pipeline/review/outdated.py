"""`build.py outdated`: pins with a newer release on their source."""

from __future__ import annotations

import json
import re
import subprocess
import urllib.request
from dataclasses import dataclass

from packaging.version import InvalidVersion, Version

from .. import tables

PYPI_SIMPLE = "https://pypi.org/simple/{name}/"
TIMEOUT_S = 20


@dataclass
class Row:
    component: str
    source: str
    pinned: str
    newest: str
    note: str = ""


def newest_release(versions):
    finals = [v for v in versions if not (v.is_prerelease or v.is_devrelease)]
    return max(finals) if finals else None


def pypi_versions(name: str) -> list:
    request = urllib.request.Request(PYPI_SIMPLE.format(name=name),
                                     headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
        data = json.load(response)
    return [_parse(v) for v in data.get("versions", []) if _parse(v)]


def git_tag_versions(repo: str) -> list:
    result = subprocess.run(["git", "ls-remote", "--tags", "--refs", repo], capture_output=True, text=True,
                            timeout=TIMEOUT_S)
    if result.returncode:
        raise OSError((result.stderr.strip().splitlines() or ["git ls-remote failed"])[-1])
    tags = [line.rsplit("refs/tags/", 1)[1] for line in result.stdout.splitlines() if "refs/tags/" in line]
    return [v for v in (_parse(re.sub(r"^v", "", t)) for t in tags) if v]


def _parse(text: str):
    try:
        return Version(text)
    except InvalidVersion:
        return None


def check(manifest, fetch_pypi=pypi_versions, fetch_git=git_tag_versions) -> list:
    rows = []
    for comp in manifest.components.values():
        if comp.source in ("pypi", "url"):
            rows.append(_row(comp, lambda comp=comp: fetch_pypi(comp.dist)))
        elif comp.source == "git" and comp.get("tag") and comp.release:
            rows.append(_row(comp, lambda comp=comp: fetch_git(comp.get("repo"))))
        else:
            rows.append(Row(comp.name, comp.source, comp.summary, "-", "not checked (branch or image: Renovate)"))
    return rows


def _row(comp, fetch) -> Row:
    try:
        newest = newest_release(fetch())
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        return Row(comp.name, comp.source, comp.summary, "?", f"unreachable: {str(exc)[:60]}")
    pinned = comp.release
    if newest is None or pinned is None:
        return Row(comp.name, comp.source, comp.summary, "?", "no releases found")
    note = "newer release" if newest > pinned else "up to date"
    return Row(comp.name, comp.source, comp.summary, str(newest), note)


def table(rows) -> str:
    return tables.text(("component", "source", "pinned", "newest", ""),
                       [(r.component, r.source, r.pinned, r.newest, r.note) for r in rows])
