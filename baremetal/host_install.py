#!/usr/bin/env python3
"""Install an image's stack on this host, without a container: what images/<name>/install.<os>-<arch>.sh runs.

    python3 host_install.py --repo ROOT --venv DIR --cache DIR [--wheelhouse DIR] [--system-python] < LAYOUT

LAYOUT (JSON on stdin, rendered into the script from pins.yaml) lists the image's parts, each one run of
install_tier.py exactly as one image layer is (tiers/<n>-<tier>/{deps,pins}); ROOT's committed lock and
pins.json complete it into the plan (image_pipeline/render/host_plan.py: the versions, files, hashes,
commits and patches), which is also read as it is (format 1) from a test. In order:
  1. every file, archive and source tree of every part is fetched (from --wheelhouse, or downloaded
     into --cache) and checked against the lock; one that is not the pinned one stops the install
     here, named, before the environment is touched. A file the lock holds no sha256 for is refused
     before anything downloads unless --allow-unverified names its component; it is then taken as
     served and listed with its sha256
  2. the venv is created unless DIR is one already; each part whose marker does not record this plan
     is installed by install_tier.py (a second run skips them all; a failed run resumes at its part)
  3. the image's patches (payload/bin/apply_patches.py), payload/ and smoke_tests/ and pins.json
     under DIR/verl-image/ (the image's /opt/verl-image), DIR/bin/activate-verl: the image's ENV
  4. installer/verify.py: the installed stack is the pinned one
Standard library only: it runs on the host's python before anything is installed.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import html.parser
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

TIMEOUT_S = 120
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc")


class InstallError(Exception):
    """One line that says what is wrong and what to do."""


# ---------------------------------------------------------------- small helpers

def say(message: str) -> None:
    print(f"host_install: {message}", flush=True)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def write_if_changed(path: Path, text: str) -> bool:
    """Replace a file atomically when its text differs; True when it did."""
    if path.exists() and path.read_text() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.part")
    partial.write_text(text)
    os.replace(partial, path)
    return True


def sync(source: Path, target: Path) -> bool:
    """Make target a copy of source (a file or a tree, caches aside); True when it was not one."""
    if source.is_file():
        return write_if_changed(target, source.read_text())
    if tree_bytes(source) == tree_bytes(target):
        return False
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, ignore=IGNORED)
    return True


def digest_of(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def tree_bytes(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts} if root.exists() else {}


# ---------------------------------------------------------------- 1. fetch and check

class Fetcher:
    """Where each pinned file comes from: the wheelhouse directory, or its URL or index (into the cache)."""

    def __init__(self, plan: dict, repo: Path, cache: Path, wheelhouse: Path | None, allowed=frozenset()):
        self.plan, self.repo, self.cache, self.wheelhouse = plan, repo, cache, wheelhouse
        self.allowed = set(allowed)  # --allow-unverified: components taken as served
        self.taken_unverified = []  # (component, file, sha256) of each file installed as served
        self.remake = (f"remake it: python build.py wheelhouse {plan['image']} --platform {plan['platform']} "
                       f"--out {wheelhouse}")

    def file(self, name: str, sha256: str, url: str = "", index: str = "", project: str = "") -> Path:
        if self.wheelhouse:
            path = self.wheelhouse / "files" / name
            if not path.is_file():
                raise InstallError(f"{path} is missing: the wheelhouse was made for another lock; {self.remake}")
            found = sha256_file(path)
            if found != sha256:
                raise InstallError(f"{path} has sha256 {found}, the lock pins {sha256}: the file is damaged or not "
                                   f"the locked one; nothing was installed; {self.remake}")
            return path
        target = self.cache / "files" / sha256 / name
        if target.is_file():
            return target
        location = url or page_link(index, project, name)
        if not location:
            raise InstallError(f"{name} is not on {index} ({project}): download it where that index answers, or use "
                               f"--wheelhouse")
        return download(location, sha256, target)

    def external(self, fetch: dict) -> Path:
        """An index external: the wheel of dist==version for this host (the lock pins no sha256 for it)."""
        dist, version = fetch["dist"], fetch["version"]
        if self.wheelhouse:
            stem = f"{canonical(dist).replace('-', '_')}-{version}-"
            arch = os.uname().machine
            found = [p for p in sorted((self.wheelhouse / "files").glob("*.whl"))
                     if p.name.lower().startswith(stem.lower()) and (arch in p.name or p.name.endswith("-any.whl"))]
            if len(found) != 1:
                raise InstallError(f"the wheelhouse holds {len(found)} wheels of {dist} {version} for {arch}, not one; "
                                   f"{self.remake}")
            return found[0]
        target = self.cache / "externals" / f"{dist}-{version}-{fetch['platform'].replace('/', '-')}"
        found = sorted(target.glob("*.whl")) if target.exists() else []
        if not found:
            pip(["download", "--no-deps", "--only-binary=:all:", "--index-url", fetch["index"], "--dest", str(target),
                 f"{dist}=={version}"], f"downloading {dist}=={version} from {fetch['index']}")
            found = sorted(target.glob("*.whl"))
        if len(found) != 1:
            raise InstallError(f"{fetch['index']} gave {len(found)} wheels of {dist}=={version}, not one")
        return found[0]

    def tree(self, component: str, fetch: dict) -> Path:
        """A git source at its pinned commit, proven by payload/bin/fetch_source.py as the image's is:
        against its repository, or offline against the wheelhouse's copy of it."""
        target = self.cache / "src" / f"{component}-{fetch['commit']}"
        origin = str(self.wheelhouse / "src" / f"{component}-{fetch['commit']}") if self.wheelhouse else fetch["git"]
        marker = target / ".verified"
        if marker.exists() and marker.read_text().strip() == f"{fetch['commit']} {origin}":
            return target
        if not shutil.which("git"):
            raise InstallError(f"{component} is a git source and git is not installed: install git")
        shutil.rmtree(target, ignore_errors=True)
        ref = ["--tag", fetch["tag"]] if fetch.get("tag") else ["--branch", fetch["branch"]]
        script = self.repo / "payload" / "bin" / "fetch_source.py"
        result = subprocess.run([sys.executable, str(script), "--repo", origin, *ref, "--commit", fetch["commit"],
                                 "--dest", str(target)], capture_output=True, text=True)
        if result.returncode:
            raise InstallError((result.stderr.strip().splitlines() or [f"fetching {component} failed"])[-1])
        say((result.stdout.strip().splitlines() or [f"{component} at {fetch['commit']}"])[-1])
        marker.write_text(f"{fetch['commit']} {origin}\n")
        return target

    def archive(self, component: str, fetch: dict) -> list:
        """The wheels of a pinned archive (a zip of wheels), each the one the lock recorded where it did."""
        name = fetch["archive"].rsplit("/", 1)[1]
        if fetch["sha256"]:
            zipped = self.file(name, fetch["sha256"], fetch["archive"])
        else:  # the lock could not download it: taken as served, its sha256 shown (as the image's build does)
            zipped = (self.wheelhouse / "files" / name) if self.wheelhouse else download(
                fetch["archive"], "", self.cache / "archives" / digest_of(fetch["archive"])[:16] / name)
            if not zipped.is_file():
                raise InstallError(f"{zipped} is missing; {self.remake}")
            self.taken_unverified.append((component, name, sha256_file(zipped)))
        pinned = {f["name"]: f["sha256"] for f in fetch.get("files", [])}
        target = self.cache / "archives" / "wheels" / sha256_file(zipped)
        wheels = []
        with zipfile.ZipFile(zipped) as bundle:
            members = {m.filename.rsplit("/", 1)[-1]: m for m in bundle.infolist() if m.filename.endswith(".whl")}
            for dist in fetch["wheels"]:
                found = [n for n in members if canonical(n.split("-", 1)[0]) == canonical(dist)]
                if len(found) != 1:
                    raise InstallError(f"{name} holds {len(found)} wheels of {dist}, not one: pins.yaml lists "
                                       f"{', '.join(fetch['wheels'])}")
                path = target / found[0]
                target.mkdir(parents=True, exist_ok=True)
                path.write_bytes(bundle.read(members[found[0]]))
                if found[0] in pinned and sha256_file(path) != pinned[found[0]]:
                    raise InstallError(f"{found[0]} in {name} is not the wheel the lock recorded (sha256 "
                                       f"{pinned[found[0]]})")
                wheels.append(path)
        return wheels


def download(url: str, sha256: str, target: Path) -> Path:
    """Download to target through a partial file; with a sha256, only bytes that match it land."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.part")
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response, open(partial, "wb") as out:
            shutil.copyfileobj(response, out, 1 << 20)
        found = sha256_file(partial)
        if sha256 and found != sha256:
            raise InstallError(f"{url} served sha256 {found}, the lock pins {sha256}: nothing was installed")
        os.replace(partial, target)
        return target
    except OSError as exc:
        raise InstallError(f"download of {url} failed ({exc}): check the network, or use --wheelhouse") from None
    finally:
        if partial.exists():
            partial.unlink()


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links += [value for key, value in attrs if key == "href"]


def page_link(index: str, project: str, filename: str) -> str:
    """The URL of `filename` on a simple index's page for `project` (a file the lock has no URL for)."""
    page = f"{index.rstrip('/')}/{canonical(project)}/"
    try:
        with urllib.request.urlopen(page, timeout=TIMEOUT_S) as response:
            parser = _Links()
            parser.feed(response.read().decode())
    except OSError:
        return ""
    for link in parser.links:
        absolute = urllib.parse.urljoin(page, link).split("#", 1)[0]
        if urllib.parse.unquote(absolute.rsplit("/", 1)[1]) == filename:
            return absolute
    return ""


def pip(args: list, what: str) -> None:
    result = subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True, text=True)
    if result.returncode:
        raise InstallError(f"{what} failed: {(result.stderr.strip().splitlines() or ['pip failed'])[-1]} "
                           f"(pip of {sys.executable}: install python3-pip, or use --wheelhouse)")


def unverified(plan: dict) -> list:
    """The components whose file the lock holds no sha256 for (an index external, an archive whose URL did
    not answer `build.py lock`)."""
    return sorted({item["component"] for part in plan["parts"] for item in part["sources"]["items"]
                   if item["kind"] in ("index", "wheels") and not item["fetch"].get("sha256")})


def refuse_unverified(plan: dict, allowed: set) -> None:
    """As the image build: a file no lock could hash is refused before anything downloads, unless named."""
    found = unverified(plan)
    refused = [name for name in found if name not in allowed]
    if refused:
        flags = " ".join(f"--allow-unverified {name}" for name in refused)
        raise InstallError(f"the lock holds no sha256 for the files of {', '.join(refused)} (their index did not "
                           f"answer `build.py lock`): nothing was downloaded or installed; pass {flags} to install "
                           f"them as served, each listed with the sha256 it had")
    stray = sorted(allowed - set(found))
    if stray:
        raise InstallError(f"--allow-unverified {stray[0]}: {plan['image']} has no unverified file of that name "
                           f"(unverified here: {', '.join(found) or 'none'})")


def stage(plan: dict, fetcher: Fetcher, stage_dir: Path) -> dict:
    """Fetch and check everything, then lay each part out as install_tier.py reads it; {slug: dir}."""
    for part in plan["parts"]:
        for item in part["sources"]["items"]:
            if item["kind"] == "built":
                raise InstallError(f"{item['component']} is compiled in a CMake builder stage of the image; a host "
                                   f"install cannot build it: use the image")
    refuse_unverified(plan, fetcher.allowed)
    shutil.rmtree(stage_dir, ignore_errors=True)
    out = {}
    for part in plan["parts"]:
        directory = stage_dir / part["slug"]
        (directory / "files").mkdir(parents=True)
        for file in part["files"]:
            _link(fetcher.file(file["name"], file["sha256"], file["url"], file["index"], file["project"]),
                  directory / "files" / file["name"])
        items = [_stage_item(item, fetcher, directory) for item in part["sources"]["items"]]
        (directory / "requirements.txt").write_text("".join(line + "\n" for line in part["requirements"]))
        sources = {**part["sources"], "items": items}
        (directory / "sources.json").write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")
        out[part["slug"]] = directory
    return out


def _stage_item(item: dict, fetcher: Fetcher, directory: Path) -> dict:
    fetch = item["fetch"]
    item = {key: value for key, value in item.items() if key != "fetch"}
    if item["kind"] == "sdist":
        _link(fetcher.file(fetch["file"], fetch["sha256"], fetch["url"]), directory / "files" / item["file"])
    elif item["kind"] == "wheels":
        wheels = fetcher.archive(item["component"], fetch)
        for wheel in wheels:
            _link(wheel, directory / "files" / wheel.name)
        item["files"] = [wheel.name for wheel in wheels]
    elif item["kind"] == "git":
        (directory / "src").mkdir(exist_ok=True)
        (directory / "src" / item["component"]).symlink_to(fetcher.tree(item["component"], fetch).resolve())
    else:
        wheel = fetcher.external(fetch)
        found = sha256_file(wheel)
        if fetch["sha256"] and found != fetch["sha256"]:
            raise InstallError(f"{wheel} has sha256 {found}, the lock pins {fetch['sha256']}: not the locked file; "
                               f"nothing was installed")
        if not fetch["sha256"]:  # allowed by --allow-unverified (refuse_unverified): taken as served
            fetcher.taken_unverified.append((item["component"], wheel.name, found))
        _link(wheel, directory / "files" / wheel.name)
        item.update(file=wheel.name, sha256=found)
    return item


def _link(source: Path, target: Path) -> None:
    if not target.exists():
        target.symlink_to(source.resolve())


# ---------------------------------------------------------------- 2-4. the environment

class Environment:
    """The venv (or given environment) and what this install keeps in it."""

    def __init__(self, plan: dict, venv: Path):
        self.plan, self.venv = plan, venv
        self.home = venv / "verl-image"  # the image's /opt/verl-image
        self.state = self.home / "state"
        self.python = venv / "bin" / "python"

    def ensure(self, allow_system: bool) -> bool:
        if self.python.exists():
            is_env = (self.venv / "pyvenv.cfg").exists() or (self.venv / "conda-meta").is_dir()
            if not is_env and not allow_system:
                raise InstallError(f"{self.venv} is no venv or conda environment (no pyvenv.cfg or conda-meta): "
                                   f"installing there changes that python for everyone; pass --system-python if "
                                   f"that is what you want, or a new --venv directory")
            return False
        if self.venv.exists() and any(self.venv.iterdir()):
            raise InstallError(f"{self.venv} exists, is not empty and has no bin/python: pass another --venv")
        flags = ["--system-site-packages"] if self.plan["system_site_packages"] else []
        result = subprocess.run([sys.executable, "-m", "venv", *flags, str(self.venv)], capture_output=True, text=True)
        if result.returncode:
            raise InstallError(f"python -m venv {self.venv} failed: {(result.stderr.strip().splitlines() or ['?'])[-1]}"
                               f" (install python{self.plan['python']}-venv)")
        say(f"created the venv {self.venv}" + (" (with the system site-packages, as the image's)" if flags else ""))
        return True

    def env(self) -> dict:
        """The environment installs run in: this one, the base's set_env scripts sourced (as the image's
        base ENV holds them) and the image's ENV (as its RUN steps get it)."""
        sourced = "".join(f"source {s} >/dev/null 2>&1 || exit 3; " for s in self.plan["env_scripts"])
        result = subprocess.run(["bash", "-c", f"{sourced}env -0"], capture_output=True)
        if result.returncode:
            raise InstallError(f"sourcing {' '.join(self.plan['env_scripts'])} failed: install the CANN release the "
                               f"image pins")
        env = dict(item.decode().split("=", 1) for item in result.stdout.split(b"\0") if b"=" in item)
        for key, value in self.plan["env"]:
            env[key] = re.sub(r"\$(\w+)|\$\{(\w+)\}", lambda m: env.get(m.group(1) or m.group(2), ""),
                              self.host_value(value))
        env["VERL_IMAGE_VENV"] = str(self.venv)  # install_tier.py and verify.py: this venv, not /opt/venv
        return env

    def host_value(self, value: str) -> str:
        return value.replace(self.plan["image_venv"], str(self.venv))

    def marker(self, slug: str) -> Path:
        return self.state / (slug.replace("/", "-") + ".json")

    def installed(self, part: dict) -> bool:
        marker = self.marker(part["slug"])
        return marker.exists() and json.loads(marker.read_text()).get("plan") == digest_of(part)

    def record(self, part: dict) -> None:
        write_if_changed(self.marker(part["slug"]), json.dumps({"slug": part["slug"], "plan": digest_of(part)}) + "\n")

    def site_packages(self) -> Path:
        out = subprocess.run([str(self.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
        return Path(out)

    def activation(self) -> str:
        lines = [f"# Written by baremetal/host_install.py: the ENV of image {self.plan['image']} "
                 f"({self.plan['platform']}) for this host.",
                 f"#   source {self.venv}/bin/activate-verl   (then: python -m smoke_tests --pins "
                 f"{self.home}/pins.json)"]
        for script in self.plan["env_scripts"]:
            lines.append(f"source {script}")
        for key, value in self.plan["env"]:
            escaped = re.sub(r'(["\\`])', r"\\\1", self.host_value(value))
            lines.append(f'export {key}="{escaped}"')
        return "\n".join(lines) + "\n"


def install(plan: dict, repo: Path, venv: Path, cache: Path, wheelhouse: Path | None, allow_system: bool,
            allow_unverified=()) -> int:
    changes = []
    environment = Environment(plan, venv)
    stage_dir = cache / "stage" / f"{plan['image']}-{plan['platform'].replace('/', '-')}-{digest_of(str(venv))[:12]}"
    fetcher = Fetcher(plan, repo, cache, wheelhouse, allow_unverified)
    staged = stage(plan, fetcher, stage_dir)
    origin = "wheelhouse " + str(wheelhouse) if wheelhouse else "downloaded"
    if fetcher.taken_unverified:
        say(f"every file of {len(staged)} parts is the locked one ({origin}), but {len(fetcher.taken_unverified)} "
            f"taken as served (--allow-unverified):")
        for component, name, sha256 in fetcher.taken_unverified:
            say(f"  unverified: {component}: {name} sha256 {sha256}")
    else:
        say(f"every file of {len(staged)} parts is the locked one ({origin})")
    if environment.ensure(allow_system):
        changes.append("created the venv")
    env = environment.env()
    skipped = 0
    for part in plan["parts"]:
        if environment.installed(part):
            skipped += 1
            continue
        say(f"installing {part['slug']} ({len(part['requirements'])} locked, "
            f"{len(part['sources']['items'])} from source)")
        result = subprocess.run([sys.executable, str(repo / "installer" / "install_tier.py"), str(staged[part["slug"]])],
                                env=env)
        if result.returncode:
            raise InstallError(f"installing {part['slug']} failed (above); the parts before it stay installed: fix "
                               f"the cause and run the script again, it resumes at {part['slug']}")
        environment.record(part)
        changes.append(f"installed {part['slug']}")
    if skipped:
        say(f"{skipped} of {len(plan['parts'])} parts were installed already, from this same plan: skipped")
    changes += finish(plan, repo, environment, env, stage_dir)
    verify(repo, environment, env)
    shutil.rmtree(stage_dir)
    extra = extras(plan, environment)
    if extra:
        say(f"note: {len(extra)} distributions in {venv} are not in the image: {', '.join(extra[:10])}")
    if changes:
        say("changed: " + "; ".join(changes))
    else:
        say(f"nothing changed: {venv} already holds {plan['image']} ({plan['platform']}) as pinned")
    say(f"done. A new shell gets the image's environment with\n    source {venv}/bin/activate-verl\n"
        f"and the image's smoke suite runs there with\n    python -m smoke_tests --pins {environment.home}/pins.json "
        f"--artifacts ./smoke-artifacts")
    return 0


def finish(plan: dict, repo: Path, environment: Environment, env: dict, stage_dir: Path) -> list:
    """Patches, our own files and the activation file; what changed."""
    changes = []
    patches = stage_dir / "patches"
    patches.mkdir()
    for patch in plan["patches"]:
        shutil.copyfile(repo / "patches" / patch["diff"], patches / patch["diff"])
    (patches / "patches.json").write_text(json.dumps(plan["patches"], indent=1, sort_keys=True) + "\n")
    markers = environment.venv / "verl-image-patches"
    before = tree_bytes(markers)
    result = subprocess.run([str(environment.python), str(repo / "payload" / "bin" / "apply_patches.py"), str(patches)],
                            env=env)
    if result.returncode:
        raise InstallError("a patch did not apply (above): the installed file is not the one the patch was made for")
    if tree_bytes(markers) != before:
        changes.append("applied patches")
    copies = [(entry, environment.home / entry.name) for entry in sorted((repo / "payload").iterdir())
              if entry.name != "__pycache__"] + [(repo / "smoke_tests", environment.home / "smoke_tests")]
    for source, target in copies:  # the image's COPY payload/ /opt/verl-image/ and COPY smoke_tests/
        if sync(source, target):
            changes.append(f"copied {source.relative_to(repo)}")
    pins = json.dumps(plan["pins"], indent=2, sort_keys=True) + "\n"
    record = json.dumps({"image": plan["image"], "platform": plan["platform"], "lock_inputs": plan["lock_inputs"]},
                        indent=1, sort_keys=True) + "\n"
    pth = f"{environment.home / 'python'}\n{environment.home}\n"
    for path, text in ((environment.home / "pins.json", pins), (environment.home / "export.json", record),
                       (environment.site_packages() / "verl_image.pth", pth),
                       (environment.venv / "bin" / "activate-verl", environment.activation())):
        if write_if_changed(path, text):
            changes.append(f"wrote {path.name}")
    return changes + pip_config(plan, environment)


def pip_config(plan: dict, environment: Environment) -> list:
    """The environment's pip.conf names the index the image's torch came from, as the image's venv does,
    so a later `pip install` keeps that build (+cpu) instead of pulling another. A pip.conf that is not
    ours, or a python that is no venv or conda environment, is left alone, with a line saying what to add."""
    url = (plan["pins"].get("pip_extra_index") or {}).get(plan["platform"], "")
    if not url:
        return []
    path, text = environment.venv / "pip.conf", f"[global]\nextra-index-url = {url}\n"
    found = path.read_text() if path.exists() else None
    is_env = (environment.venv / "pyvenv.cfg").exists() or (environment.venv / "conda-meta").is_dir()
    if is_env and found in (None, text):
        return ["wrote pip.conf"] if write_if_changed(path, text) else []
    if found is None or url not in found.split():
        say(f"{path} is not this installer's to write: add `extra-index-url = {url}` under [global] in your pip "
            f"configuration, or a later pip install may replace torch's build")
    return []


def verify(repo: Path, environment: Environment, env: dict) -> None:
    result = subprocess.run([sys.executable, str(repo / "installer" / "verify.py"), str(environment.home / "pins.json")],
                            env=env)
    if result.returncode:
        raise InstallError("the installed stack is not the pinned one (above)")


def extras(plan: dict, environment: Environment) -> list:
    """Distributions in the environment that the image does not install (only reported: it may be the user's)."""
    out = subprocess.run([str(environment.python), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
                         capture_output=True, text=True, check=True).stdout
    wanted = {canonical(line.split("==", 1)[0]) for part in plan["parts"] for line in part["requirements"]}
    wanted |= {canonical(i["dist"]) for part in plan["parts"] for i in part["sources"]["items"]}
    wanted |= {canonical(w) for part in plan["parts"] for i in part["sources"]["items"]
               for w in i.get("fetch", {}).get("wheels", [])}
    wanted |= {"pip", "setuptools"}  # what `python -m venv` puts there, in the image too
    return sorted(p["name"] for p in json.loads(out) if canonical(p["name"]) not in wanted)


def read_plan(text: str, repo: Path) -> dict:
    """The plan on stdin: an install script's layout (format 2), completed from repo's lock and pins.json."""
    try:
        given = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstallError(f"the layout on stdin is not JSON ({exc}): run the install script, not this file") from None
    form = given.get("format") if isinstance(given, dict) else None
    if form == 1:
        return given
    if form != 2:
        raise InstallError(f"the layout is format {form!r}, this installer reads format 2: run the script from the "
                           f"checkout it was rendered in")
    host_plan = load_host_plan()
    try:
        return host_plan.complete(given, repo)
    except host_plan.PlanError as exc:
        raise InstallError(str(exc)) from None
    except (KeyError, TypeError, AttributeError) as exc:  # a layout edited by hand: the drift gate refuses it too
        raise InstallError(f"the layout on stdin is not one this installer reads ({type(exc).__name__}: {exc}): "
                           f"re-render the script (`python build.py render`)") from None


def load_host_plan():
    """This checkout's image_pipeline/render/host_plan.py, by its path: the package's imports need what the
    host lacks."""
    path = Path(__file__).resolve().parent.parent / "image_pipeline" / "render" / "host_plan.py"
    if not path.is_file():
        raise InstallError(f"{path} is missing: run the script from a checkout of the repository")
    spec = importlib.util.spec_from_file_location("verl_image_host_plan", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, required=True, help="the checkout holding installer/, payload/, patches/")
    parser.add_argument("--venv", type=Path, required=True)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--wheelhouse", type=Path)
    parser.add_argument("--system-python", action="store_true")
    parser.add_argument("--allow-unverified", action="append", default=[], metavar="NAME",
                        help="install component NAME although the lock holds no sha256 for its file (repeatable)")
    args = parser.parse_args(argv)
    try:
        plan = read_plan(sys.stdin.read(), args.repo.resolve())
    except InstallError as exc:
        print(f"host_install: {exc}", file=sys.stderr)
        return 2
    venv = args.venv.expanduser().absolute()
    args.cache.mkdir(parents=True, exist_ok=True)
    with open(args.cache / f".lock-{digest_of(str(venv))[:12]}", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            print(f"host_install: another install into {venv} is running", file=sys.stderr)
            return 1
        try:
            return install(plan, args.repo.resolve(), venv, args.cache.resolve(),
                           args.wheelhouse.resolve() if args.wheelhouse else None, args.system_python,
                           set(args.allow_unverified))
        except InstallError as exc:
            print(f"host_install: {exc}", file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main())
