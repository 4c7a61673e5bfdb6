"""The Docker Engine: connect, start one where none runs, emulate other architectures, and
build with BuildKit (bind mounts keep wheels out of layers) with readable progress.

Builds go through a BuildKit-capable docker CLI: `docker buildx build --load` where buildx
exists, else a client whose classic `docker build` speaks BuildKit itself (Debian's docker.io
20.10 does; a newer client without buildx refuses). Everything else uses the docker SDK.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from ..errors import UserError
from ..manifest.model import PLATFORM_ARCH

DOCKERD_ARGS = ["--iptables=false", "--ip-masq=false", "--bridge=none"]
DOCKERD_LOG = Path("/var/log/verl-image-dockerd.log")
START_TIMEOUT_S = 60
HOW_TO_GET_ONE = ("no Docker Engine answers (DOCKER_HOST or /var/run/docker.sock): run `make engine` "
                  "(as root it installs Debian's docker.io and starts dockerd)")
BINFMT = Path("/proc/sys/fs/binfmt_misc")
QEMU_CONF = Path("/usr/lib/binfmt.d")
CHILD_STOP_S = 20  # how long an interrupted `docker build` gets to cancel before it is killed


def client(timeout: int = 600):
    """A docker SDK client whose daemon answered a ping, or a one-line UserError."""
    import docker

    try:
        api = docker.from_env(timeout=timeout)
        api.ping()
        return api
    except Exception:  # the SDK raises several types for "nobody there"
        raise UserError(HOW_TO_GET_ONE) from None


def answers() -> bool:
    try:
        client(timeout=5)
        return True
    except UserError:
        return False


def host_platform() -> str:
    machine = os.uname().machine
    for platform, arch in PLATFORM_ARCH.items():
        if arch == machine:
            return platform
    raise UserError(f"unsupported host architecture {machine}")


def ensure_engine(platforms=(), log=print) -> None:
    """No-op when a daemon answers; else install docker.io (Debian/Ubuntu, root) and start dockerd.
    Then make every asked-for platform runnable here (QEMU user emulation for foreign ones), and, as
    root with apt, install mmdebstrap for the bases no registry gives: here, before builds run side by
    side (CI builds the arm64 image beside make image), two of which would race for apt's lock."""
    if answers():
        log("engine: a Docker Engine already answers")
    else:
        _start_engine(log)
    for platform in platforms:
        ensure_emulation(platform, log)
    if os.geteuid() == 0 and shutil.which("apt-get"):
        ensure_mmdebstrap(log)


def ensure_mmdebstrap(log) -> None:
    """mmdebstrap makes the Debian bases no registry gives (builder/base.py)."""
    if not shutil.which("mmdebstrap"):
        apt_install(["mmdebstrap"], log)


def _start_engine(log) -> None:
    if os.geteuid() != 0:
        raise UserError("no Docker Engine answers and starting one needs root: run `sudo make engine` "
                        "or start dockerd yourself")
    if not shutil.which("dockerd"):
        apt_install(["docker.io", "docker-compose"], log)
    log(f"engine: starting dockerd {' '.join(DOCKERD_ARGS)} (log: {DOCKERD_LOG})")
    with open(DOCKERD_LOG, "ab") as out:
        subprocess.Popen(["dockerd", *DOCKERD_ARGS], stdout=out, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if answers():
            log("engine: dockerd answers")
            return
        time.sleep(0.5)
    tail = DOCKERD_LOG.read_text(errors="replace").strip().splitlines()[-1:] if DOCKERD_LOG.exists() else []
    raise UserError(f"dockerd did not answer within {START_TIMEOUT_S} s: {' '.join(tail) or 'no log'}")


def ensure_emulation(platform: str, log=print) -> None:
    """Foreign architectures run under QEMU user emulation, registered with binfmt_misc."""
    arch = PLATFORM_ARCH[platform]
    if platform == host_platform():
        return
    entry = BINFMT / f"qemu-{arch}"
    if entry.exists() and "enabled" in entry.read_text():
        return
    if os.geteuid() != 0:
        raise UserError(f"building {platform} here needs QEMU registered with binfmt_misc (qemu-{arch}): "
                        f"run `sudo make engine PLATFORM={platform}`")
    conf = QEMU_CONF / f"qemu-{arch}.conf"
    if not conf.exists():
        apt_install(["qemu-user-static"], log)
    if not (BINFMT / "register").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], check=True)
    if not entry.exists():
        (BINFMT / "register").write_text(conf.read_text().strip())
    log(f"engine: {platform} runs under QEMU ({entry}: {entry.read_text().splitlines()[0]})")


def apt_install(packages, log) -> None:
    if not shutil.which("apt-get"):
        raise UserError(f"cannot install {' '.join(packages)} without apt-get: install them yourself")
    log(f"engine: apt-get install {' '.join(packages)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", *packages]):
        result = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if result.returncode:
            last = (result.stderr.strip().splitlines() or ["failed"])[-1]
            raise UserError(f"{' '.join(cmd[:2])} failed: {last}")


def image_id(api, reference: str) -> str | None:
    import docker

    try:
        return api.images.get(reference).id
    except docker.errors.ImageNotFound:
        return None


def architecture(api, reference: str) -> str:
    return api.images.get(reference).attrs.get("Architecture", "")


def _docker_clients() -> list:
    seen, found = set(), []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(directory) / "docker"
        if candidate.is_file() and os.access(candidate, os.X_OK) and candidate.resolve() not in seen:
            seen.add(candidate.resolve())
            found.append(str(candidate))
    return found


@functools.lru_cache(maxsize=1)
def buildkit_command() -> tuple:
    """(argv prefix, extra env) of a docker CLI that builds with BuildKit into the local store."""
    clients = _docker_clients()
    for docker in clients:
        if subprocess.run([docker, "buildx", "version"], capture_output=True).returncode == 0:
            return (docker, "buildx", "build", "--load"), {}
    env = {"DOCKER_BUILDKIT": "1"}
    refusals = []
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "Dockerfile").write_text("FROM scratch\nLABEL org.verl.image.probe=buildkit\n")
        for docker in clients:
            result = subprocess.run([docker, "build", "-q", tmp], capture_output=True, text=True,
                                    env={**os.environ, **env})
            if result.returncode == 0:
                subprocess.run([docker, "rmi", result.stdout.strip()], capture_output=True)
                return (docker, "build"), env
            refusals.append(f"{docker}: {_first_error_line(result.stderr + result.stdout)}")
    # A client with BuildKit built in fails the probe too when the engine cannot build at all (its storage
    # broken under it): the reason each client gave tells the two apart.
    raise UserError("no docker CLI here builds with BuildKit: install the buildx plugin, or use a docker "
                    "client that has BuildKit built in (Debian's docker.io; `make engine` installs it)"
                    + (f"; the probe build said: {'; '.join(refusals)}" if refusals else ": no docker on PATH"))


def _first_error_line(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower() or "failed" in line.lower()]
    return (errors or lines or ["exited non-zero, saying nothing"])[0][:300]


class Progress:
    """Turns BuildKit's plain progress into step lines: `[ 7/31] RUN ... cached | 12.4s`.

    pretty: one line per finished step, a failing step's output when it fails.
    plain:  every output line, prefixed with the elapsed time (CI logs).
    """

    STEP = re.compile(r"^#(\d+) \[(?:[\w.-]+ )?\s*(\d+)/(\d+)\] (.*)$")
    STATUS = re.compile(r"^#(\d+) (DONE [\d.]+s|CACHED|ERROR.*)$")
    OUTPUT = re.compile(r"^#(\d+) [\d.]+ (.*)$")

    def __init__(self, plain: bool, out=sys.stdout):
        self.plain, self.out = plain, out
        self.started = time.monotonic()
        self.steps: dict = {}  # vertex -> (number, total, instruction)
        self.output: dict = {}  # vertex -> last lines
        self.steps_run = self.steps_cached = 0
        self.failed = None

    def feed(self, line: str) -> None:
        line = line.rstrip("\n")
        if self.plain:
            self._print(f"[{self._elapsed()}] {line}")
        if match := self.STEP.match(line):
            self.steps[match.group(1)] = (int(match.group(2)), int(match.group(3)), match.group(4))
        elif match := self.STATUS.match(line):
            self._status(match.group(1), match.group(2))
        elif match := self.OUTPUT.match(line):
            self.output[match.group(1)] = (self.output.get(match.group(1), []) + [match.group(2)])[-60:]

    def _status(self, vertex: str, status: str) -> None:
        step = self.steps.get(vertex)
        if step is None:
            return
        if status.startswith("ERROR"):
            self.failed = (step, self.output.get(vertex, []), status)
            return
        cached = status == "CACHED"
        self.steps_cached += cached
        self.steps_run += not cached
        if not self.plain:
            shown = "cached" if cached else f"{float(status.split()[1][:-1]):6.1f}s"
            self._print(f"[{step[0]:>2}/{step[1]}] {step[2][:90]:<90} {shown}")

    def finish(self) -> None:
        self._print(f"build: {self.steps_run} steps run, {self.steps_cached} cached, {self._elapsed()} total")

    def _elapsed(self) -> str:
        return f"{time.monotonic() - self.started:7.1f}s"

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)


class BuildFailed(UserError):
    def __init__(self, error: str, step, tail):
        where = f"step {step[0]}/{step[1]} ({step[2][:80]})" if step else "before the first step"
        super().__init__(f"docker build failed at {where}: {error}")
        self.tail = tail


@contextlib.contextmanager
def stopped_on_interrupt(process: subprocess.Popen):
    """The child does not outlive an interrupted caller: a Ctrl-C, or a CI cancel that signals only
    this Python process and not its process group, would otherwise leave `docker build` running
    after Python exits. It gets SIGTERM (docker cancels the build), then SIGKILL."""
    try:
        yield process
    except BaseException:
        process.terminate()
        try:
            process.wait(CHILD_STOP_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        raise


def build(context_dir: Path, tag: str, *, platform: str, buildargs: dict, labels: dict, plain: bool,
          cache_from=(), dockerfile: str = "Dockerfile", no_cache=False) -> str:
    """Build with BuildKit (host network) and return the image id; print progress.

    The image carries BuildKit's inline cache metadata, so that a pushed image can serve another
    machine's build as --cache-from: its unchanged layers are then reused, not rebuilt and re-shipped."""
    prefix, env = buildkit_command()
    iidfile = context_dir.parent / f".{context_dir.name}.iid"
    cmd = [*prefix, "--progress", "plain", "--network", "host", "--platform", platform, "-t", tag,
           "-f", str(context_dir / dockerfile), "--iidfile", str(iidfile), "--build-arg", "BUILDKIT_INLINE_CACHE=1"]
    if no_cache:
        cmd.append("--no-cache")
    for key, value in sorted(buildargs.items()):
        cmd += ["--build-arg", f"{key}={value}"]
    for key, value in sorted(labels.items()):
        cmd += ["--label", f"{key}={value}"]
    for ref in cache_from:
        cmd += ["--cache-from", ref]
    progress = Progress(plain)
    with stopped_on_interrupt(subprocess.Popen([*cmd, str(context_dir)], stdout=subprocess.PIPE,
                                               stderr=subprocess.STDOUT, text=True, errors="replace",
                                               env={**os.environ, **env})) as process:
        for line in process.stdout:
            progress.feed(line)
        process.wait()
    if process.returncode:
        step, tail, status = progress.failed or (None, [], "")
        if not plain:
            sys.stdout.write("".join(f"    {line}\n" for line in tail[-40:]))
        raise BuildFailed(status.removeprefix("ERROR: ").strip() or f"exit code {process.returncode}", step, tail)
    progress.finish()
    return iidfile.read_text().strip()


def read_file(api, image_id: str, path: str) -> bytes:
    """One file of the image, through a container that is created, never started, and removed."""
    container = api.containers.create(image_id, entrypoint=["/bin/true"], command=[], network_disabled=True)
    try:
        stream, _ = container.get_archive(path)
        with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
            return tar.extractfile(tar.next()).read()
    finally:
        container.remove(force=True)


def raw_config(api, image_id: str) -> bytes:
    """The image's config as the engine stored it (its id is the sha256 of these bytes). The API has no
    call for it short of `docker save` of every layer, so it is read from the engine's image store, which
    is on this host for every engine build.py starts."""
    info = api.info()
    path = (Path(info["DockerRootDir"]) / "image" / info["Driver"] / "imagedb" / "content" / "sha256"
            / image_id.removeprefix("sha256:"))
    try:
        return path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read the config of {image_id} from the engine's image store ({exc.strerror}: "
                        f"{path}): reproducible image ids need the engine on this host, and root") from None
