"""Host-side downloads an image installs offline, for one platform, driven by its lock.

Locked wheels and sdists are fetched by sha256 (an arm64 wheelhouse on an x86 host too);
pinned sdists (`url` pins) likewise. Externals are what the lock could not resolve: an index
external is downloaded pinned from its index (or mirror) for the target platform, a git
external is checked out at its pinned commit, proven to be on its ref. Credentials stay on
the host: nothing here reaches the build context but files.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError
from ..files import link_or_copy
from ..lock import artifacts, declared, lockfile
from ..manifest.model import PLATFORM_ARCH
from ..paths import PAYLOAD

WORKERS = 8


@dataclass
class Wheelhouse:
    """Where each file of a lock is on this host (all verified)."""
    files: dict = field(default_factory=dict)  # package name -> Path
    source_builds: dict = field(default_factory=dict)  # component -> Path of its pinned sdist
    externals: dict = field(default_factory=dict)  # component -> Path (a wheel, or a source tree)
    archives: dict = field(default_factory=dict)  # component -> [Path] of the wheels in its archive


def fetch(manifest, image, platform: str, root: Path, profile, cache: Path, log=print) -> Wheelhouse:
    image = image.on(platform)
    lock = lockfile.read(lockfile.path_for(root, image.name, platform))
    if lock is None:
        raise UserError(f"{image.name} has no lock for {platform}: run `python build.py lock`")
    names = {index.url: name for name, index in manifest.indexes.items()}
    mirrors = profile.mirrors(manifest.indexes)
    context = profile.ssl_context()
    house = Wheelhouse()
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        jobs = {entry.name: pool.submit(artifacts.fetch_locked, entry, entry.index, mirrors.get(names.get(entry.index)),
                                        cache, context) for entry in lock.packages}
        builds = {b["component"]: pool.submit(artifacts.fetch_url, b["url"], b["sha256"], cache, context)
                  for b in lock.source_builds}
        house.files = {name: job.result() for name, job in jobs.items()}
        house.source_builds = {name: job.result() for name, job in builds.items()}
    for item in lock.externals:
        house.externals[item["component"]] = _external(manifest, image, platform, item, mirrors, profile, cache)
    for item in lock.archives:
        house.archives[item["component"]] = unpack_archive(item, cache, context, log)
    total = sum(p.stat().st_size for p in house.files.values())
    log(f"wheelhouse {image.name} {platform}: {len(house.files)} locked files ({total / 1e6:,.0f} MB), "
        f"{len(house.source_builds)} pinned sdists, {len(house.externals)} externals, {len(house.archives)} archives")
    return house


def _external(manifest, image, platform, item, mirrors, profile, cache) -> Path:
    comp = manifest.components[item["component"]]
    if comp.source == "git":
        tree = checkout(comp, cache)
        check_declared(manifest, comp, tree)
        return tree
    index = comp.index_for(platform)
    return download_pinned(item["dist"], item["version"], mirrors.get(index) or manifest.indexes[index].url,
                           image, platform, profile, cache)


def unpack_archive(item, cache: Path, context, log=print) -> list:
    """The wheels of a locked archive, each proven to be the file the lock recorded. An archive
    the lock could not download (external) is taken as its URL serves it, and its sha256 shown."""
    where = f"components.{item['component']}"
    archive = artifacts.fetch_archive(item["url"], item.get("sha256", ""), cache, context)
    found = artifacts.archive_wheels(archive, item["wheels"], where)
    sha256 = item.get("sha256") or artifacts.sha256_file(archive)  # a locked one was checked by the fetch
    if not item.get("sha256"):
        log(f"wheelhouse: {item['component']} is external ({item['external']}): downloaded unverified, sha256 {sha256}")
    elif item.get("files") and found != item["files"]:
        raise UserError(f"{archive.name}: its wheels differ from the lock's ({', '.join(f['name'] for f in found)})",
                        key=where)
    target = cache / "archives" / "wheels" / sha256
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive) as bundle:
        members = {m.filename.rsplit("/", 1)[-1]: m for m in bundle.infolist()}
        for wheel in found:
            path = target / wheel["name"]
            if not path.exists() or artifacts.sha256_file(path) != wheel["sha256"]:
                partial = path.with_name(f"{path.name}.{os.getpid()}.part")
                partial.write_bytes(bundle.read(members[wheel["name"]]))
                os.replace(partial, path)
    return [target / wheel["name"] for wheel in found]


def download_pinned(dist, version, index, image, platform, profile, cache) -> Path:
    """The wheel of dist==version for the image's python and platform, from an index or directory."""
    dest = cache / "externals" / f"{dist}-{version}-{platform.replace('/', '-')}-py{image.python}"
    found = sorted(dest.glob("*.whl")) if dest.exists() else []
    if found:
        return found[0]
    arch = PLATFORM_ARCH[platform]
    glibc = int(image.base.get("glibc").split("_")[1])
    source = ["--find-links", index, "--no-index"] if not index.startswith(("http", "file:")) else ["--index-url", index]
    cmd = [sys.executable, "-m", "pip", "download", "--isolated", "--no-deps", "--only-binary=:all:", "--dest",
           str(dest), "--python-version", image.python, "--implementation", "cp", *source,
           *(f"--platform=manylinux_2_{m}_{arch}" for m in range(glibc, 16, -1)),
           f"{dist}=={version}"]
    if profile.ca_bundle:
        cmd += ["--cert", profile.ca_bundle]
    result = subprocess.run(cmd, capture_output=True, text=True)
    found = sorted(dest.glob("*.whl"))
    if result.returncode or not found:
        last = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise UserError(f"external {dist}=={version} for {platform} is not available from {index}: {last}",
                        key=f"{dist}")
    return found[0]


def check_declared(manifest, comp, tree: Path) -> None:
    """A tree installed from a pyproject (sglang's NPU one) must declare nothing its pin's `requires` misses."""
    if not comp.install or comp.get("requires") is None:
        return
    found = declared.problems(comp, tree)
    if found:
        raise manifest.error(comp.keypath + ("requires",), f"{declared.pyproject_of(comp)} at {comp.get('commit')[:12]} "
                             + "; ".join(found[:3]) + (f" (and {len(found) - 3} more)" if len(found) > 3 else ""))


def checkout(comp, cache: Path) -> Path:
    """A git source at its pinned commit (proven to be what its tag or branch says), cached."""
    dest = cache / "src" / f"{comp.name}-{comp.get('commit')}"
    if (dest / ".verified").exists():
        return dest
    script = Path(__file__).resolve().parents[2] / PAYLOAD / "bin" / "fetch_source.py"
    ref = ["--tag", comp.get("tag")] if comp.get("tag") else ["--branch", comp.get("branch")]
    if dest.exists():
        subprocess.run(["rm", "-rf", str(dest)], check=True)
    result = subprocess.run([sys.executable, str(script), "--repo", comp.get("repo"), *ref, "--commit",
                             comp.get("commit"), "--dest", str(dest)], capture_output=True, text=True)
    if result.returncode:
        raise UserError((result.stderr.strip().splitlines() or ["fetch failed"])[-1], key=f"components.{comp.name}")
    (dest / ".verified").write_text(comp.get("commit") + "\n")
    return dest


def export(manifest, image, platform: str, root: Path, house: Wheelhouse, cache: Path, profile, out: Path,
           log=print) -> Path:
    """The directory a host install reads with --wheelhouse (images/<name>/install.<platform>.sh): every
    file of the lock, pinned sdist, external wheel and archive under files/ by name, each git source at
    its pinned commit under src/<component>-<commit>/ as a repository fetch_source.py can prove it from
    again, offline. Several images and platforms may share one directory."""
    lock = lockfile.read(lockfile.path_for(root, image.name, platform))
    (out / "files").mkdir(parents=True, exist_ok=True)
    paths = [*house.files.values(), *house.source_builds.values()]
    paths += [path for path in house.externals.values() if path.is_file()]
    paths += [artifacts.fetch_archive(item["url"], item.get("sha256", ""), cache, profile.ssl_context())
              for item in lock.archives]
    for path in paths:
        link_or_copy(path, out / "files" / path.name)
    trees = [(manifest.components[name], tree) for name, tree in house.externals.items() if tree.is_dir()]
    for comp, tree in trees:
        _export_tree(comp, tree, out / "src" / f"{comp.name}-{comp.get('commit')}")
    log(f"wheelhouse {out}: {len(paths)} files and {len(trees)} source trees for {image.name} {platform}")
    return out


def _export_tree(comp, tree: Path, target: Path) -> None:
    """A copy of a checked-out source whose ref a fresh fetch can ask for: fetch_source.py fetches a branch
    from refs/heads/, which a checkout only has as refs/remotes/origin/ (the head it was proven against)."""
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + f".{os.getpid()}.part")
    subprocess.run(["cp", "-a", str(tree), str(partial)], check=True)
    (partial / ".verified").unlink(missing_ok=True)
    git = ["git", "-C", str(partial)]
    if comp.get("branch"):
        branch = comp.get("branch")
        subprocess.run([*git, "update-ref", f"refs/heads/{branch}", f"refs/remotes/origin/{branch}"], check=True)
    # a partial clone serves a partial fetch of the pinned commit's own objects, never GitHub's
    subprocess.run([*git, "config", "uploadpack.allowFilter", "true"], check=True)
    os.replace(partial, target)


def test_tools(manifest, image, platform: str, root: Path, profile, cache: Path) -> Path:
    """The locked test tools of an image (the lock's test-tools tier), as a directory to mount for
    `build.py verl-tests`: files/ and a hash-pinned requirements.txt. Never in the image."""
    image = image.on(platform)
    from ..lock.request import TEST_TIER

    lock = lockfile.read(lockfile.path_for(root, image.name, platform))
    entries = [e for e in lock.packages if e.tier == TEST_TIER]
    if not entries:
        raise UserError(f"the lock of {image.name} for {platform} has no test tools (pins.yaml: test_tools)")
    target = cache / "test-tools" / image.name / platform.replace("/", "-")
    (target / "files").mkdir(parents=True, exist_ok=True)
    names = {index.url: name for name, index in manifest.indexes.items()}
    mirrors = profile.mirrors(manifest.indexes)
    lines = []
    for entry in entries:
        path = artifacts.fetch_locked(entry, entry.index, mirrors.get(names.get(entry.index)), cache,
                                      profile.ssl_context())
        link_or_copy(path, target / "files" / path.name)
        lines.append(f"{entry.name}=={entry.version} --hash=sha256:{entry.artifact.sha256}\n")
    (target / "requirements.txt").write_text("".join(sorted(lines)))
    return target
