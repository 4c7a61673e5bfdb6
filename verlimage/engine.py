"""The Docker Engine: connect, start one where none runs, build with readable progress."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .errors import UserError

DOCKERD_ARGS = ["--iptables=false", "--ip-masq=false", "--bridge=none"]
DOCKERD_LOG = Path("/var/log/verl-image-dockerd.log")
START_TIMEOUT_S = 60
HOW_TO_GET_ONE = ("no Docker Engine answers (DOCKER_HOST or /var/run/docker.sock): run `make engine` "
                  "(as root it installs Debian's docker.io and starts dockerd)")


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


def ensure_engine(log=print) -> None:
    """No-op when a daemon answers; else install docker.io (Debian/Ubuntu, root) and start dockerd."""
    if answers():
        log("engine: a Docker Engine already answers")
        return
    if os.geteuid() != 0:
        raise UserError("no Docker Engine answers and starting one needs root: run `sudo make engine` "
                        "or start dockerd yourself")
    if not shutil.which("dockerd"):
        _apt_install(["docker.io", "docker-compose", "debootstrap"], log)
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


def _apt_install(packages, log) -> None:
    if not shutil.which("apt-get"):
        raise UserError("no Docker Engine and no apt-get to install one: install Docker Engine yourself")
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


class Progress:
    """Turns the engine's build stream into step lines: `[ 7/31] RUN ... cached | 12.4s`.

    pretty: one line per step, the step's output only when it fails.
    plain:  every output line, prefixed with the elapsed time (CI logs).
    """

    STEP = re.compile(r"^Step (\d+)/(\d+) : (.*)$")

    def __init__(self, plain: bool, out=sys.stdout):
        self.plain = plain
        self.out = out
        self.started = time.monotonic()
        self.step_started = self.started
        self.current = None
        self.cached = False
        self.tail: list = []
        self.steps_run = 0
        self.steps_cached = 0

    def feed(self, chunk: dict) -> None:
        if "error" in chunk:
            raise BuildFailed(chunk["error"].strip(), self.current, self.tail)
        for line in chunk.get("stream", "").splitlines():
            self._line(line.rstrip())

    def _line(self, line: str) -> None:
        match = self.STEP.match(line)
        if match:
            self._finish_step()
            self.current = (int(match.group(1)), int(match.group(2)), match.group(3))
            self.step_started, self.cached, self.tail = time.monotonic(), False, []
            if self.plain:
                self._print(f"[{self._elapsed()}] {line}")
            return
        if line.strip() == "---> Using cache":
            self.cached = True
        if line.strip():
            self.tail = (self.tail + [line])[-60:]
            if self.plain:
                self._print(f"[{self._elapsed()}]   {line}")

    def _finish_step(self) -> None:
        if not self.current:
            return
        number, total, instruction = self.current
        took = time.monotonic() - self.step_started
        self.steps_cached += self.cached
        self.steps_run += not self.cached
        if not self.plain:
            status = "cached" if self.cached else f"{took:6.1f}s"
            self._print(f"[{number:>2}/{total}] {instruction[:90]:<90} {status}")

    def finish(self) -> None:
        self._finish_step()
        self.current = None
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


def build(api, context_dir: Path, tag: str, buildargs: dict, labels: dict, plain: bool, cache_from=()) -> str:
    """Build (legacy builder, host network) and return the image id; print progress.

    cache_from: local images (e.g. pulled from the registry) whose layers may be reused."""
    progress = Progress(plain)
    stream = api.api.build(path=str(context_dir), tag=tag, buildargs=buildargs, labels=labels,
                           network_mode="host", rm=True, forcerm=True, decode=True, pull=False,
                           cache_from=list(cache_from) or None)
    try:
        for chunk in stream:
            progress.feed(chunk)
    except BuildFailed as failure:
        sys.stdout.write("".join(f"    {line}\n" for line in failure.tail[-40:]))
        raise
    progress.finish()
    built = image_id(api, tag)
    if not built:
        raise UserError(f"docker build reported success but {tag} does not exist")
    return built
