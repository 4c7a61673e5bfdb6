"""Resolve a Request with uv for one target platform, and turn the result into a LockFile.

uv runs twice on the same inputs: once writing annotated requirements (who needs what: the
tier of each transitive package), once writing pylock.toml, constrained to the first run's
versions (the one artifact per package that fits the target, with its sha256). The
committed lock is handed to the first run as its existing output, so uv keeps every locked
version it can ("preferences") and a bump moves only what it must.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import asdict
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.tags import compatible_tags, cpython_tags
from packaging.utils import canonicalize_name, parse_wheel_filename

from ..errors import UserError
from ..manifest.model import PLATFORM_ARCH
from . import artifacts, metadata
from .lockfile import Artifact, Entry, LockFile
from .request import TEST_TIER, Root

PROJECT = "lock-input"


def uv_version() -> str:
    result = subprocess.run([sys.executable, "-m", "uv", "--version"], capture_output=True, text=True)
    if result.returncode:
        raise UserError("uv is not installed: run `make venv` (requirements-dev.txt pins it)")
    return result.stdout.split()[1]


class Resolver:
    """uv, pointed at the pinned indexes (or their mirrors), trusting the profile's CA."""

    def __init__(self, profile, cache: Path, manifest=None):
        self.profile = profile
        self.cache = cache
        self.manifest = manifest
        self.context = profile.ssl_context()
        self.version = uv_version()

    def resolve(self, request, previous: LockFile | None, fresh=False, sibling: LockFile | None = None) -> LockFile:
        """previous: this lock as committed (its versions are kept where they still fit, unless fresh);
        sibling: for a lock made for the first time, the lock of the same line's image whose versions it
        should share (lock/family.py)."""
        mirrors = self.profile.mirrors(request.indexes)
        inside = {build.component: artifacts.requirements_inside(build, self.cache, self.context)
                  for build in request.source_builds if build.requires_from}
        roots = list(request.roots)
        for build in request.source_builds:
            roots += [Root(line, build.component, build.tier) for line in inside.get(build.component, ())]
        roots = [r for r in roots if applies(r.requirement, request)
                 and canonicalize_name(parse_requirement(r.requirement).name) not in request.excludes]
        with tempfile.TemporaryDirectory(prefix="lock-") as tmp:
            work = Path(tmp)
            _write_inputs(work, request, roots, mirrors)
            annotated = self._uv(work, request, mirrors, "requirements.txt", None if fresh else previous or sibling)
            (work / "constraints.txt").write_text((work / "constraints.txt").read_text() + _pins(annotated))
            pylock = self._uv(work, request, mirrors, "pylock.toml", None, offline=True)
        graph = _graph(annotated)
        tiers = _tiers(request, roots, graph)
        entries = [self._entry(request, package, graph, tiers, mirrors) for package in tomllib.loads(pylock)["packages"]]
        return LockFile(image=request.image, platform=request.platform, python=request.python,
                        uv_platform=request.uv_platform, inputs=request.fingerprint(self.version),
                        resolver=self.version, packages=sorted(entries, key=lambda e: e.name),
                        externals=[self._external(x, request, mirrors, previous) for x in request.externals],
                        source_builds=[{**asdict(b), "requires": inside.get(b.component, [])}
                                       for b in request.source_builds],
                        archives=[self._archive(a, previous) for a in request.archives])

    def _archive(self, archive, previous) -> dict:
        """The archive with its sha256 and the sha256 of each wheel inside, where it downloads. Where it
        does not answer, what an earlier lock recorded of the same URL stays; else it is listed as
        pinned (an unpinned one stays external: the build downloads it unverified). Other bytes than
        pinned are an error."""
        item = {**asdict(archive), "files": []}
        try:
            path = artifacts.fetch_archive(archive.url, archive.sha256, self.cache, self.context)
        except artifacts.Unreachable as exc:
            print(f"lock: {archive.component}: {exc.message}", file=sys.stderr)
            return _recorded_before(item, previous)
        item["files"] = artifacts.archive_wheels(path, archive.wheels, f"components.{archive.component}")
        item["sha256"] = artifacts.sha256_file(path)
        item["external"] = ""
        return item

    def _external(self, external, request, mirrors, previous) -> dict:
        """An index external with the file pip picks for the target and its sha256, where its index (or
        mirror) answers; else what an earlier lock recorded of the same pin; else no sha256, and the build
        refuses it unless --allow-unverified names it. A git external is pinned by its commit."""
        item = asdict(external)
        if external.commit:
            return item
        index = next(name for name, url in request.indexes.items() if url == external.origin)
        with tempfile.TemporaryDirectory(prefix="external-") as tmp:
            try:
                wheel = artifacts.download_wheel(external.dist, external.version, mirrors.get(index) or external.origin,
                                                 python=request.python, uv_platform=request.uv_platform,
                                                 ca_bundle=self.profile.ca_bundle, dest=Path(tmp), retries=1)
            except artifacts.Unreachable as exc:
                print(f"lock: {external.component}: {exc.message}", file=sys.stderr)
                return _external_recorded_before(item, previous)
            sha256 = artifacts.sha256_file(wheel)
            artifacts.store_verified(wheel, sha256, self.cache)
        return {**item, "file": wheel.name, "sha256": sha256}

    def _uv(self, work, request, mirrors, fmt, previous, offline=False) -> str:
        """offline: the run that only writes the pinned result as pylock.toml reads the index pages and
        metadata the first run has just put in uv's cache, instead of revalidating each of them (a round
        trip per package: half a lock's time)."""
        output = work / ("pylock.toml" if fmt == "pylock.toml" else "requirements.txt")
        if output.exists():
            output.unlink()
        if previous is not None:
            output.write_text(previous.preferences())
        default_index = _location(mirrors.get("pypi") or request.indexes["pypi"])[0]
        cmd = [sys.executable, "-m", "uv", "pip", "compile", "pyproject.toml", "--quiet", "--no-header",
               "--config-file", "uv.toml", "--python-version", request.python, "--python-platform",
               request.uv_platform, "--default-index", default_index, "--constraints", "constraints.txt",
               "--overrides", "overrides.txt", "--excludes", "excludes.txt",
               "--format", fmt, "-o", output.name] + (["--offline"] if offline else [])
        env = dict(os.environ, UV_NO_PROGRESS="1")
        if self.profile.ca_bundle:
            env["SSL_CERT_FILE"] = self.profile.ca_bundle
        result = subprocess.run(cmd, cwd=work, capture_output=True, text=True, env=env)
        if result.returncode:
            raise conflict(result.stderr, request, self.manifest)
        return output.read_text()

    def _entry(self, request, package, graph, tiers, mirrors) -> Entry:
        name = canonicalize_name(package["name"])
        artifact = best_artifact(request, package)
        if mirrors.get(request.sources.get(name, "pypi")):
            artifact = Artifact(artifact.kind, artifact.name, "", artifact.size, artifact.sha256)
        requires = self._requires(request, name, artifact, mirrors) if name in request.stack else None
        return Entry(name=name, version=package["version"], index=_canonical_index(package, request, mirrors),
                     artifact=artifact, tier=tiers.get(name, ""), via=sorted(graph.get(name, set()) - {PROJECT}),
                     requires=requires)

    def _requires(self, request, name, artifact, mirrors) -> list:
        for entry in request.dependency_metadata:
            if entry["name"] == name:
                return list(entry["requires-dist"])
        if artifact.kind != "wheel":
            return []
        index = request.sources.get(name, "pypi")
        location = next(artifacts.locations(name, artifact, request.indexes[index], mirrors.get(index), self.context), "")
        if not location:
            raise UserError(f"no location to read {artifact.name}'s metadata from")
        return metadata.wheel_requires(location, artifact.size, artifact.sha256, self.cache)


def _recorded_before(item: dict, previous) -> dict:
    """An archive's entry as a previous lock verified it (same URL, same pin), if one did."""
    for old in (previous.archives if previous else []):
        if old["url"] == item["url"] and old.get("sha256") and item["sha256"] in ("", old["sha256"]):
            return {**item, "sha256": old["sha256"], "files": old["files"], "external": ""}
    return item


def _external_recorded_before(item: dict, previous) -> dict:
    """An index external's file and sha256 as a previous lock recorded them for the same pin, if one did."""
    pin = ("component", "dist", "version", "origin")
    for old in (previous.externals if previous else []):
        if old.get("sha256") and all(old[key] == item[key] for key in pin):
            return {**item, "file": old["file"], "sha256": old["sha256"]}
    return item


@functools.lru_cache(maxsize=None)
def _environment(platform: str, python: str) -> dict:
    env = default_environment()
    env.update({"platform_machine": PLATFORM_ARCH[platform], "sys_platform": "linux",
                "platform_system": "Linux", "os_name": "posix", "python_version": python,
                "python_full_version": python + ".0", "implementation_name": "cpython",
                "platform_python_implementation": "CPython"})
    return env


@functools.lru_cache(maxsize=None)
def parse_requirement(line: str) -> Requirement:
    """Parsed once per distinct line: the drift gate reads the same lines for every image and platform."""
    return Requirement(line)


def applies(line: str, request, extras=()) -> bool:
    """Does a requirement line apply on the request's platform (for these extras)?"""
    requirement = parse_requirement(line)
    if requirement.marker is None:
        return True
    env = _environment(request.platform, request.python)
    return any(requirement.marker.evaluate({**env, "extra": extra}) for extra in (*extras, ""))


def _location(location: str) -> tuple:
    """(url, flat): a directory is a flat index, a URL a simple index."""
    if location.startswith(("http://", "https://", "file://")):
        return location, False
    return location, True


def _write_inputs(work: Path, request, roots, mirrors) -> None:
    lines = ["[project]", f'name = "{PROJECT}"', 'version = "0"', f'requires-python = "=={request.python}.*"',
             "dependencies = " + json.dumps(sorted({r.requirement for r in roots})), "", "[tool.uv.sources]"]
    lines += [f'{dist} = {{ index = "{index}" }}' for dist, index in sorted(request.sources.items())]
    for name in sorted(set(request.sources.values())):
        url, flat = _location(mirrors.get(name) or request.indexes[name])
        lines += ["", "[[tool.uv.index]]", f'name = "{name}"', f'url = "{url}"', "explicit = true"]
        lines += ['format = "flat"'] if flat else []
    (work / "pyproject.toml").write_text("\n".join(lines) + "\n")
    config = [_dependency_metadata(entry) for entry in request.dependency_metadata] + ["[pip]"]
    (work / "uv.toml").write_text("\n".join(config) + "\n")
    (work / "constraints.txt").write_text("".join(f"{c}\n" for c in request.constraints))
    (work / "overrides.txt").write_text("".join(f"{o}\n" for o in request.overrides))
    (work / "excludes.txt").write_text("".join(f"{e}\n" for e in request.excludes))


def _dependency_metadata(entry) -> str:
    return (f'[[dependency-metadata]]\nname = "{entry["name"]}"\nversion = "{entry["version"]}"\n'
            f'requires-dist = {json.dumps(entry["requires-dist"])}\n')


def _pins(annotated: str) -> str:
    return "".join(re.sub(r"\[[^\]]*\]", "", line) + "\n" for line in annotated.splitlines()
                   if re.match(r"^[A-Za-z0-9]", line))


def conflict(stderr: str, request, manifest) -> UserError:
    """uv's explanation, cut to the line that names both requirements, pointing at pins.yaml."""
    text = " ".join(stderr.split())
    lines = [line.strip().removeprefix("╰─▶").strip() for line in stderr.splitlines()
             if line.strip() and "×" not in line]
    summary = next((line for line in lines if "depends on" in line or "Because" in line),
                   lines[-1] if lines else "uv could not resolve the stack")
    where = f"{request.image} on {request.platform}"
    match = re.search(r"(\S+?)==(\S+) depends on (\S+?)((?:==|>=|<=|!=|~=|<|>)[^\s,]+)", text)
    if match and manifest is not None:
        dist = canonicalize_name(match.group(3))
        pinned = request.stack.get(dist)
        line = pin_line(manifest, pinned[0]) if pinned else ""
        if line:
            return UserError(f"{match.group(1)} {match.group(2)} requires {match.group(3)}{match.group(4)}; "
                             f"{line} pins {match.group(3)} {pinned[2]} ({where})")
    culprit = _pin_named(text, request, manifest)
    summary = summary.replace(f"{PROJECT} depends on", "the image's pins require").replace(PROJECT, "the pins")
    if culprit is None:
        return UserError(f"the stack of {where} does not resolve: {summary}")
    key = "version" if culprit.version else ("tag" if culprit.get("tag") else "branch")
    return UserError(f"the stack of {where} does not resolve: {summary} (uv said: {text})", file=manifest.doc.name,
                     line=manifest.line(culprit.keypath + (key,)), key=f"components.{culprit.name}.{key}")


def _pin_named(text: str, request, manifest):
    """The component of the image whose pin uv's explanation names first (`lock-input depends on X==1`
    before any other mention), or None."""
    if manifest is None or request.image not in manifest.images:
        return None
    image = manifest.images[request.image].on(request.platform)
    by_dist = {canonicalize_name(c.dist): c for c in [*image.components, *image.constraints]}
    named = re.findall(rf"{PROJECT} depends on ([A-Za-z0-9][A-Za-z0-9._-]*)", text) + re.findall(
        r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:==|>=|<=|!=|~=|<|>)", text)
    return next((by_dist[canonicalize_name(n)] for n in named if canonicalize_name(n) in by_dist), None)


def pin_line(manifest, component: str) -> str:
    comp = manifest.components[component]
    key = "version" if comp.version else ("tag" if comp.get("tag") else "branch")
    return f"{manifest.doc.name}:{manifest.line(comp.keypath + (key,))}"


def _graph(annotated: str) -> dict:
    """package -> set of what needs it (package names, or PROJECT for a root)."""
    graph, current = {}, None
    for line in annotated.splitlines():
        pin = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==", line)
        if pin:
            current = canonicalize_name(pin.group(1))
            graph.setdefault(current, set())
            continue
        via = re.match(r"^\s+#\s+(?:via\s+)?([A-Za-z0-9][A-Za-z0-9._-]*)", line)
        if current and via and via.group(1) != "via":
            graph[current].add(canonicalize_name(via.group(1)))
    return graph


def _tiers(request, roots, graph) -> dict:
    """package -> tier: the stack's own pins keep their tier; any other package goes to the
    lowest tier whose roots need it."""
    position = {tier: i for i, tier in enumerate(request.tier_order)}
    tier = {}
    for root in roots:
        name = canonicalize_name(parse_requirement(root.requirement).name)
        if name not in tier or position[root.tier] < position[tier[name]]:
            tier[name] = root.tier
    for dist, (_, stack_tier, _) in request.stack.items():
        tier[dist] = stack_tier
    # the stack's pins and the test tools keep their tier, whoever else requires them
    fixed = set(request.stack) | {name for name, t in tier.items() if t == TEST_TIER}
    changed = True
    while changed:
        changed = False
        for package, parents in graph.items():
            if package in fixed:
                continue
            for parent in parents & tier.keys():
                if package not in tier or position[tier[parent]] < position[tier[package]]:
                    tier[package] = tier[parent]
                    changed = True
    return tier


def _canonical_index(package, request, mirrors) -> str:
    """The pinned index a package came from (a mirror's URL is never written to a lock)."""
    name = canonicalize_name(package["name"])
    return request.indexes[request.sources.get(name, "pypi")]


def supported_tags(request) -> list:
    arch = PLATFORM_ARCH[request.platform]
    glibc = int(request.uv_platform.rsplit("_", 1)[1])
    legacy = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}
    platforms = []
    for minor in range(glibc, 4, -1):
        platforms.append(f"manylinux_2_{minor}_{arch}")
        if minor in legacy:
            platforms.append(f"{legacy[minor]}_{arch}")
    platforms.append(f"linux_{arch}")
    version = tuple(int(p) for p in request.python.split("."))
    return list(cpython_tags(version, platforms=platforms)) + list(compatible_tags(version, platforms=platforms))


def best_artifact(request, package) -> Artifact:
    """The wheel pip would pick for the target, or the sdist when no wheel fits."""
    wheels = package.get("wheels") or []
    rank = {tag: i for i, tag in enumerate(supported_tags(request))}

    def score(wheel):
        return min((rank[t] for t in parse_wheel_filename(_filename(wheel))[3] if t in rank), default=len(rank))
    fitting = [w for w in wheels if score(w) < len(rank)]
    if fitting:
        return _artifact(min(fitting, key=score), "wheel")
    if package.get("sdist"):
        return _artifact(package["sdist"], "sdist")
    raise UserError(f"{package['name']} {package['version']} has no artifact for {request.platform}")


def _filename(file) -> str:
    return file.get("name") or urllib_unquote(file["url"].rsplit("/", 1)[1])


def urllib_unquote(text: str) -> str:
    from urllib.parse import unquote

    return unquote(text)


def _artifact(file, kind) -> Artifact:
    url = file.get("url") or ""
    size = file.get("size")
    if size is None and url.startswith("file://"):
        local = Path(urllib_unquote(url.removeprefix("file://")))
        size = local.stat().st_size if local.exists() else None
    return Artifact(kind=kind, name=_filename(file), url=url if url.startswith("https://") else "",
                    size=size, sha256=file["hashes"]["sha256"])
