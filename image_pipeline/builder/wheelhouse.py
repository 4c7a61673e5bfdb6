"""Host-side downloads an image installs offline, for one platform, driven by its lock.

Locked wheels and sdists are fetched by sha256 (an arm64 wheelhouse on an x86 host too);
pinned sdists (`url` pins) likewise. Externals are what the lock could not resolve: an index
external is fetched by the sha256 `build.py lock` recorded where its index answered, a git
external is checked out at its pinned commit, proven to be on its ref. A file the lock holds
no sha256 for (an index external or an archive whose source did not answer the lock) is
refused unless --allow-unverified names its component; then it is taken as served and its
sha256 reported (Unverified), for the content hash, the image's labels and its pins.json.
Credentials stay on the host: nothing here reaches the build context but files.
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
from ..lock.request import uv_platform
from ..paths import PAYLOAD

WORKERS = 8


@dataclass
class Wheelhouse:
    """Where each file of a lock is on this host (all verified against the lock, but `unverified`)."""
    files: dict = field(default_factory=dict)  # package name -> Path
    source_builds: dict = field(default_factory=dict)  # component -> Path of its pinned sdist
    externals: dict = field(default_factory=dict)  # component -> Path (a wheel, or a source tree)
    archives: dict = field(default_factory=dict)  # component -> [Path] of the wheels in its archive
    unverified: list = field(default_factory=list)  # of Unverified: files the lock had no sha256 for


@dataclass(frozen=True)
class Unverified:
    """A file installed as served because the lock holds no sha256 for it (--allow-unverified)."""
    component: str
    file: str
    sha256: str

    def as_dict(self) -> dict:
        return {"component": self.component, "file": self.file, "sha256": self.sha256}


def read_lock(root: Path, image, platform: str):
    lock = lockfile.read(lockfile.path_for(root, image.name, platform))
    if lock is None:
        raise UserError(f"{image.name} has no lock for {platform}: run `python build.py lock`")
    return lock


def check_allowed(manifest, lock, allowed) -> list:
    """The lock's unverified components, each named by --allow-unverified, or a refusal naming them."""
    unknown = sorted(set(allowed) - set(manifest.components))
    if unknown:
        raise UserError(f"{', '.join(unknown)}: no such component in pins.yaml", key="--allow-unverified")
    refused = [name for name in lockfile.unverified_components(lock) if name not in allowed]
    if refused:
        raise UserError(f"the lock of {lock.image} for {lock.platform} holds no sha256 for {', '.join(refused)} (its "
                        f"index did not answer `build.py lock`): refusing to install unverified files; re-lock where "
                        f"it answers, or pass --allow-unverified NAME to take each as served (the image's labels and "
                        f"pins.json then list it)", key="--allow-unverified")
    return lockfile.unverified_components(lock)


def fetch_unverified(manifest, image, platform: str, root: Path, profile, cache: Path, allowed=(),
                     log=print) -> list:
    """The files of `platform`'s lock installed unverified ([Unverified]), refused unless allowed; fetched
    into the cache here so their bytes can enter the content hash before anything is built."""
    image = image.on(platform)
    lock = read_lock(root, image, platform)
    names = check_allowed(manifest, lock, allowed)
    mirrors = profile.mirrors(manifest.indexes)
    found = []
    for item in lock.externals:
        if item["component"] in names:
            path = _external(manifest, image, platform, item, mirrors, profile, cache)
            found.append(Unverified(item["component"], path.name, artifacts.sha256_file(path)))
    for item in lock.archives:
        if item["component"] in names:
            archive = artifacts.fetch_archive(item["url"], "", cache, profile.ssl_context())
            found.append(Unverified(item["component"], archive.name, artifacts.sha256_file(archive)))
    for file in found:
        log(f"wheelhouse: {file.component} UNVERIFIED (--allow-unverified): {file.file} sha256 {file.sha256}")
    return found


def fetch(manifest, image, platform: str, root: Path, profile, cache: Path, log=print, allowed=()) -> Wheelhouse:
    image = image.on(platform)
    lock = read_lock(root, image, platform)
    house = Wheelhouse(unverified=fetch_unverified(manifest, image, platform, root, profile, cache, allowed, log))
    names = {index.url: name for name, index in manifest.indexes.items()}
    mirrors = profile.mirrors(manifest.indexes)
    context = profile.ssl_context()
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
    if item.get("sha256"):
        locked = lockfile.Entry(item["dist"], item["version"], item["origin"],
                                lockfile.Artifact("wheel", item["file"], "", None, item["sha256"]), item["tier"], [])
        return artifacts.fetch_locked(locked, item["origin"], mirrors.get(index), cache, profile.ssl_context())
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
    """An unverified external (no sha256 in the lock): the wheel of dist==version for the image's python
    and platform, as its index serves it; downloaded once per pin, its sha256 reported by the caller."""
    dest = cache / "externals" / f"{dist}-{version}-{platform.replace('/', '-')}-py{image.python}"
    found = sorted(dest.glob("*.whl")) if dest.exists() else []
    if found:
        return found[0]
    try:
        return artifacts.download_wheel(dist, version, index, python=image.python,
                                        uv_platform=uv_platform(image, platform), ca_bundle=profile.ca_bundle, dest=dest)
    except artifacts.Unreachable as exc:
        raise UserError(f"external {exc.message}", key=dist) from None


def check_declared(manifest, comp, tree: Path) -> None:
    """A tree installed from a pyproject (sglang's NPU one) must declare nothing its pin's `requires` misses.
    A tree put on the import path is never installed, so nothing it declares is either (as upstream's PYTHONPATH)."""
    if not comp.install or comp.import_path or comp.get("requires") is None:
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
