"""Host-side pieces that need no engine: log waits, NPU passthrough (a mocked /dev tree stands in for an
Ascend host), the network profile, BuildKit progress, the in-image runner's timeouts and selection."""

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from image_pipeline import network
from image_pipeline.builder import engine
from image_pipeline.errors import UserError
from image_pipeline.host import passthrough
from image_pipeline.smoke import runner

from conftest import REPO, run_in_process


class FakeClock:
    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def time(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def test_log_wait_is_bounded_and_polls(tmp_path):
    clock = FakeClock()
    assert runner.wait_for_log(tmp_path / "LOG", 60, 10, sleep=clock.sleep, clock=clock.time) is False
    assert clock.sleeps == [10] * 6 and clock.now == 60


def test_log_wait_returns_once_the_log_has_content(tmp_path):
    log = tmp_path / "LOG"
    log.write_text("")
    threading.Timer(0.3, lambda: log.write_text("step 1\n")).start()
    started = time.monotonic()
    assert runner.wait_for_log(log, cap=10, poll=0.1)
    assert time.monotonic() - started < 5


def test_a_quiet_start_does_not_fail_a_suite_that_passed(tmp_path):
    """Judged by results.json, not by when the container first printed."""
    outcome = runner.SmokeRun("cpu", "ref", tmp_path, exit_code=0, quiet_start=True)
    (tmp_path / "results.json").write_text(json.dumps([{"name": "train", "status": "PASS"}]))
    runner.collect(outcome)
    assert outcome.passed and outcome.reason == ""


def test_a_container_that_exited_non_zero_fails_the_suite_whatever_its_results_say(tmp_path):
    """results.json written, every check PASS, but the suite process exited 1 (it died after writing them)."""
    (tmp_path / "results.json").write_text(json.dumps([{"name": "train", "status": "PASS"}]))
    outcome = runner.SmokeRun("cpu", "ref", tmp_path, exit_code=1)
    runner.collect(outcome)
    assert not outcome.passed and outcome.reason == "suite exited 1"
    killed = runner.SmokeRun("cpu", "ref", tmp_path, exit_code=137)
    runner.collect(killed)
    assert not killed.passed and killed.reason == "suite exited 137"


FAKE_DOCKER = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
print("#1 [internal] load build definition from Dockerfile", flush=True)
time.sleep(600)
"""

DRIVER = """
import sys
from pathlib import Path
sys.path.insert(0, {repo!r})
from image_pipeline import cli
from image_pipeline.builder import engine

engine.buildkit_command = lambda: ((sys.executable, {fake!r}, {pidfile!r}), {{}})

@cli.command("fake-build", "engine.build with a docker child that never ends")
def fake_build(invocation, args):
    engine.build(Path({context!r}), "t", platform="linux/amd64", buildargs={{}}, labels={{}}, plain=True)

sys.exit(cli.main(["fake-build"]))
"""


def _alive(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_to_the_python_process_alone_stops_the_docker_build_child(tmp_path, signum):
    """A CI cancel may signal build.py's Python process only, not its process group: the `docker build`
    child must not outlive it (a fake docker that never ends stands in for the real one)."""
    fake, pidfile, driver = tmp_path / "docker.py", tmp_path / "docker.pid", tmp_path / "driver.py"
    fake.write_text(FAKE_DOCKER)
    driver.write_text(DRIVER.format(repo=str(REPO), fake=str(fake), pidfile=str(pidfile), context=str(tmp_path)))
    # started as a foreground build.py is: a suite run as a background job inherits SIGINT ignored (POSIX),
    # and Python then installs no Ctrl-C handler at all
    process = subprocess.Popen([sys.executable, str(driver)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not (pidfile.exists() and pidfile.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(pidfile.read_text())
    try:
        os.kill(process.pid, signum)
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130 and "interrupted: no tag was moved" in err, (process.returncode, err)
        assert not _alive(child), "the docker build child outlived build.py"
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)


def test_not_run_checks_fail_the_suite(tmp_path):
    outcome = runner.SmokeRun("npu-a3", "ref", tmp_path, exit_code=1)
    (tmp_path / "results.json").write_text(json.dumps([{"name": "conformance.versions", "status": "PASS"},
                                                       {"name": "train", "status": "NOT RUN"}]))
    runner.collect(outcome)
    assert not outcome.passed and outcome.reason == "train NOT RUN"


def test_npu_passthrough_on_a_mocked_dev_tree(tmp_path):
    """No NPU exists here: a fake /dev and driver tree stands in for an Ascend host."""
    for node in ("dev/davinci0", "dev/davinci1", "dev/davinci10", "dev/davinci_manager", "dev/devmm_svm",
                 "dev/hisi_hdc", "usr/local/bin/npu-smi", "usr/local/Ascend/driver/lib64/libx.so",
                 "usr/local/Ascend/driver/topo/topology.json", "etc/ascend_install.info"):
        path = tmp_path / node
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    found = passthrough.detect_npu(str(tmp_path))
    assert found.present
    assert found.devices == ("/dev/davinci0", "/dev/davinci1", "/dev/davinci10", "/dev/davinci_manager",
                             "/dev/devmm_svm", "/dev/hisi_hdc")
    assert "/usr/local/Ascend/driver" in found.mounts  # the whole driver directory: HCCL reads its topology files
    assert "/usr/local/dcmi" not in found.mounts  # only what exists is mounted


def test_this_host_has_no_npu():
    assert not passthrough.detect_npu().present


def test_unknown_faults_and_checks_are_refused_on_the_host():
    with pytest.raises(UserError, match="unknown fault 'bogus'"):
        runner.validate("", ["bogus"])
    with pytest.raises(UserError, match="no check matches 'trian'"):
        runner.validate("trian", [])
    runner.validate("sync.mooncake,conformance", ["corrupt-byte"])


def test_smoke_environment_reaches_the_container(monkeypatch):
    monkeypatch.setenv("SMOKE_PERF_GATE", "1")
    monkeypatch.setenv("UNRELATED", "x")
    env = runner.passthrough_env({"EXTRA": "y"})
    assert env["SMOKE_PERF_GATE"] == "1" and env["EXTRA"] == "y" and "UNRELATED" not in env


def test_profile_from_host_pip_settings(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    profile = network.from_host(pip_config={
        "index-url": "https://bot:tok3n@pypi.corp/simple", "cert": str(ca), "find-links": str(wheels),
        "extra-index-url": "file:///opt/pypi/simple https://mirror.corp/simple", "trusted-host": "mirror.corp"})
    assert profile.index_url == "https://bot:tok3n@pypi.corp/simple" and profile.ca_bundle == str(ca)
    assert profile.secrets() == ["tok3n"]
    assert profile.mirrors(["pypi", "pytorch-cpu"]) == {"pypi": "https://bot:tok3n@pypi.corp/simple",
                                                         "pytorch-cpu": str(wheels)}
    explicit = network.from_host(pip_config={}, mirrors=["pytorch-cpu=https://m.corp/cpu"])
    assert explicit.mirrors(["pypi", "pytorch-cpu"]) == {"pytorch-cpu": "https://m.corp/cpu"}


@pytest.mark.parametrize("mirror,words", [("http://user:pw@mirror.corp/debian", "must not carry credentials"),
                                          ("ftp://mirror.corp/debian", "http(s) URL")])
def test_bad_apt_mirror(mirror, words):
    with pytest.raises(UserError) as failure:
        network.from_host(apt_mirror=mirror, pip_config={})
    assert words in str(failure.value)


PLAIN = """#1 [internal] load build definition from Dockerfile
#1 DONE 0.0s
#5 [1/3] FROM docker.io/library/some-base:some-tag-amd64
#5 DONE 0.0s
#6 [2/3] RUN apt-get update
#6 CACHED
#7 [3/3] RUN --mount=type=bind,source=tiers/2-torch,target=/tmp/tier python3 /tmp/install_tier.py
#7 0.512 Processing /tmp/tier/files/torch.whl
#7 12.3 install_tier: boom
#7 ERROR: executor failed running [/bin/sh -c python3 /tmp/install_tier.py]: exit code: 1
"""


def test_buildkit_progress_counts_steps_and_keeps_a_failing_steps_output():
    out = io.StringIO()
    progress = engine.Progress(plain=False, out=out)
    for line in PLAIN.splitlines():
        progress.feed(line)
    assert "[ 2/3] RUN apt-get update" in out.getvalue() and "cached" in out.getvalue()
    assert (progress.steps_run, progress.steps_cached) == (1, 1)
    step, tail, status = progress.failed
    assert step[0] == 3 and "install_tier.py" in step[2]
    assert tail[-1] == "install_tier: boom" and status.startswith("ERROR: executor failed")


def test_the_in_image_runner_kills_a_check_that_outlives_its_timeout(tmp_path):
    """The suite's own runner (smoke_tests/__main__.py) against a check that sleeps an hour."""
    pins = json.loads((REPO / "images/cpu/pins.json").read_text())
    (tmp_path / "pins.json").write_text(json.dumps(pins))
    env = dict(os.environ, SMOKE_TIMEOUT_SCALE="0.05", PYTHONPATH=str(REPO))
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "smoke_tests", "--pins", str(tmp_path / "pins.json"),
                             "--artifacts", str(tmp_path / "out"), "--only", "conformance.versions", "--fault", "hang"],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert time.monotonic() - started < 60
    assert result.returncode == 1, result.stdout + result.stderr
    (entry,) = json.loads((tmp_path / "out" / "results.json").read_text())
    assert entry["status"] == "FAIL" and entry["detail"].startswith("timed out after 3 s: killed")
    assert (tmp_path / "out" / "conformance.versions.log").exists()


def test_device_checks_of_an_npu_image_on_a_host_without_npus_are_not_run(tmp_path):
    pins = json.loads((REPO / "images/npu-a3/pins.json").read_text())
    (tmp_path / "pins.json").write_text(json.dumps(pins))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    result = subprocess.run([sys.executable, "-m", "smoke_tests", "--pins", str(tmp_path / "pins.json"),
                             "--artifacts", str(tmp_path / "out"), "--only", "train,sync,conformance.device"],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 1
    statuses = {r["name"]: r["status"] for r in json.loads((tmp_path / "out" / "results.json").read_text())}
    assert set(statuses.values()) == {"NOT RUN"} and "train" in statuses and "sync.mooncake" in statuses


def _pins_of(image):
    return json.loads((REPO / "images" / image / "pins.json").read_text())


def test_the_smoke_suite_runs_each_backends_checks_from_the_images_pins():
    """Unchanged suite, two stacks: the rollout backend in pins.json decides the backend checks and imports."""
    from smoke_tests.plan import alternatives, load_checks, required_imports, select

    checks = load_checks()
    vllm, sglang = _pins_of("npu-a3"), _pins_of("npu-sglang-a3")
    chosen = {name: select(checks, pins["device"], "", False, roles=pins["stack"])
              for name, pins in (("vllm", vllm), ("sglang", sglang))}
    names = {name: [c.name for c in checks] for name, checks in chosen.items()}
    # vllm-ascend's batch invariance and verl's collective engine (vLLM's process group, vllm-ascend's PyHccl)
    assert set(names["vllm"]) - set(names["sglang"]) == {"batch_invariance", "sync.collective",
                                                         "sync.collective.throughput"}
    assert {"sync.mooncake", "sync.mooncake.throughput"} <= set(names["sglang"])
    needed = {name: set(required_imports(chosen[name], pins["device"], pins["stack"]))
              for name, pins in (("vllm", vllm), ("sglang", sglang))}
    assert {"vllm.distributed.utils", "vllm_ascend", "torch_npu"} <= needed["vllm"]
    assert {"sglang.srt.distributed.utils", "sgl_kernel_npu", "deep_ep", "torch_npu"} <= needed["sglang"]
    assert not any(all(a.startswith("vllm") for a in alternatives(m)) for m in needed["sglang"]), needed["sglang"]
    assert "vllm.distributed.utils|sglang.srt.distributed.utils" in needed["sglang"]  # verl's Mooncake engine


def test_an_sglang_images_device_checks_are_not_run_without_npus(tmp_path):
    (tmp_path / "pins.json").write_text(json.dumps(_pins_of("npu-sglang-a3")))
    result = subprocess.run([sys.executable, "-m", "smoke_tests", "--pins", str(tmp_path / "pins.json"),
                             "--artifacts", str(tmp_path / "out"), "--only", "conformance.imports,sync"],
                            capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO)), cwd=tmp_path)
    assert result.returncode == 1
    statuses = {r["name"]: r["status"] for r in json.loads((tmp_path / "out" / "results.json").read_text())}
    assert set(statuses.values()) == {"NOT RUN"} and "conformance.imports" in statuses and "sync.mooncake" in statuses


def _pinned_installation(pins, platform):
    """dist -> version as an image built right would have it (an archive's wheels at any version)."""
    installed = {}
    for comps in pins["stack"].values():
        for comp in comps:
            if platform in comp.get("platforms", [platform]):
                installed.update({d: "0" for d in comp.get("wheels", [])})
                if "dist" in comp:
                    installed[comp["dist"]] = comp.get("version") or "0"
    return installed


@pytest.mark.parametrize("image", ["npu-a3", "npu-sglang-a3"])
def test_version_checks_take_an_archive_by_its_wheels(monkeypatch, image):
    """verify.py (in the build) and conformance.versions (in the smoke suite) on the same pins.json."""
    sys.path.insert(0, str(REPO / "installer"))
    import verify
    from smoke_tests import conformance

    pins = _pins_of(image)
    platform = verify.this_platform()
    installed = _pinned_installation(pins, platform)
    monkeypatch.setattr(conformance.md, "version", lambda dist: installed[dist] if dist in installed
                        else (_ for _ in ()).throw(conformance.md.PackageNotFoundError(dist)))
    monkeypatch.setattr(conformance.sys, "version_info", tuple(int(p) for p in pins["python"].split(".")) + (0,))
    context = type("Ctx", (), {"pins": pins, "faults": ()})()
    assert verify.check_versions(pins, installed) == []
    assert conformance.versions(context).status == "PASS"
    wheels = [d for comps in pins["stack"].values() for c in comps for d in c.get("wheels", [])]
    missing = (wheels or list(installed))[0]
    del installed[missing]
    assert [p for p in verify.check_versions(pins, installed) if missing in p]
    assert conformance.versions(context).status == "FAIL"


def test_only_naming_a_check_that_does_not_apply_to_the_image_is_refused():
    from smoke_tests.plan import load_checks, select

    sglang = _pins_of("npu-sglang-a3")
    with pytest.raises(ValueError, match="'batch_invariance' does not apply"):
        select(load_checks(), sglang["device"], "batch_invariance", False, roles=sglang["stack"])
    assert [c.name for c in select(load_checks(), sglang["device"], "sync.mooncake", False, roles=sglang["stack"])] \
        == ["sync.mooncake", "sync.mooncake.throughput"]


def test_the_readme_describes_ctx_as_the_code_defines_it():
    """The smoke-check recipe names each field of CheckInput with its type, and no field it does not have."""
    import dataclasses
    import re

    from smoke_tests import conformance
    from smoke_tests.outcome import CheckInput

    readme = (REPO / "README.md").read_text()
    described = dict(re.findall(r"`ctx\.(\w+)` \(`(\w+)`\)", readme))
    assert described == {f.name: f.type for f in dataclasses.fields(CheckInput)}
    for cited in re.findall(r"`conformance\.(\w+)`", readme):
        assert cited == "mycheck" or callable(getattr(conformance, cited, None)), cited


def test_the_triton_launcher_check_builds_an_extension_and_fails_without_a_compiler():
    """conformance.triton_launcher runs here as in an NPU image: this host's compiler and Python headers
    stand in for the image's; the no-compiler fault hides the compiler, as an image without one."""
    from smoke_tests import conformance
    from smoke_tests.outcome import CheckInput

    built = conformance.triton_launcher(CheckInput(pins={}))
    assert built.status == "PASS", built.detail
    hidden = conformance.triton_launcher(CheckInput(pins={}, faults=("no-compiler",)))
    assert hidden.status == "FAIL" and "no C compiler" in hidden.detail


def test_the_pip_index_check_reads_pips_configuration_and_fails_without_it(tmp_path, monkeypatch):
    """conformance.pip_index with this host's pip: a config file naming the pinned index passes, the
    no-pip-index fault (every config file ignored) fails, a config naming another index fails."""
    import platform

    from smoke_tests import conformance
    from smoke_tests.outcome import CheckInput

    arch = {"x86_64": "amd64", "aarch64": "arm64"}[platform.machine()]
    pins = json.loads((REPO / "images/cpu/pins.json").read_text())
    wanted = next(iter(pins["pip_extra_index"].values()))
    pins = {**pins, "pip_extra_index": {f"linux/{arch}": wanted}}
    config = tmp_path / "pip.conf"
    monkeypatch.setenv("PIP_CONFIG_FILE", str(config))
    config.write_text(f"[global]\nextra-index-url = {wanted}\n")
    assert conformance.pip_index(CheckInput(pins=pins)).status == "PASS"
    assert conformance.pip_index(CheckInput(pins=pins, faults=("no-pip-index",))).status == "FAIL"
    config.write_text("[global]\nextra-index-url = https://example.org/simple\n")
    assert conformance.pip_index(CheckInput(pins=pins)).status == "FAIL"


def test_a_local_promotion_leaves_exactly_the_device_stages_measurements_to_ci():
    """`build.py image` waits for every check of the image but those checks.json marks `promotion: false`;
    CI's device stage (stage_checks), `build.py smoke` and a named --only still run them."""
    from image_pipeline.smoke import stage_checks
    from smoke_tests.plan import load_checks, select

    checks, cpu = load_checks(), _pins_of("cpu")
    whole = [c.name for c in select(checks, cpu["device"], "", False, roles=cpu["stack"])]
    promotion = [c.name for c in select(checks, cpu["device"], "", False, roles=cpu["stack"], promotion=True)]
    left = [name for name in whole if name not in promotion]
    assert left == ["sync.collective.throughput", "sync.mooncake.throughput", "batch_invariance.cpu"]
    assert promotion == [name for name in whole if name not in left]  # nothing else left out, order kept
    device_stage = stage_checks.checks_of(manifest_of_repo().default_image, "device")
    assert set(left) <= set(device_stage)
    named = select(checks, cpu["device"], "sync.mooncake.throughput", False, roles=cpu["stack"], promotion=True)
    assert [c.name for c in named] == ["sync.mooncake.throughput"]


def test_only_build_py_images_own_run_is_a_promotion_run(tmp_path, monkeypatch):
    """The suite's --promotion reaches the container from `build.py image`'s smoke run, not from `build.py
    smoke`'s or a CI stage's (a stand-in engine records the command; pipeline.run hands over the runner)."""
    from types import SimpleNamespace

    from image_pipeline.builder import pipeline
    from image_pipeline.cli import engine_commands

    commands = []

    def record(reference, command, **kwargs):
        commands.append(command)
        raise _Recorded
    stand_in = SimpleNamespace(containers=SimpleNamespace(run=record),
                               images=SimpleNamespace(get=lambda reference: SimpleNamespace(labels={}, id="sha256:" + "0" * 64)))
    monkeypatch.setattr(engine, "client", lambda: stand_in)
    monkeypatch.setattr(runner, "detect_npu", lambda: passthrough.NpuPassthrough((), ()))
    monkeypatch.setattr(engine_commands, "ARTIFACTS", str(tmp_path))
    monkeypatch.setattr(pipeline, "run", lambda *args, smoke_runner, **kwargs: smoke_runner("ref"))
    with pytest.raises(_Recorded):
        run_in_process("image", "cpu", root=REPO)
    with pytest.raises(_Recorded):
        run_in_process("smoke", "cpu", "--tag", "ref", root=REPO)
    args = SimpleNamespace(only="", fault=(), log_wait=1.0, log_poll=0.1)
    with pytest.raises(_Recorded):
        engine_commands._runner(stand_in, manifest_of_repo().default_image, args, None, stage="device")("ref")
    assert ["--promotion" in command for command in commands] == [True, False, False]


class _Recorded(Exception):
    pass


def manifest_of_repo():
    from image_pipeline.manifest import load_manifest

    return load_manifest(REPO / "pins.yaml")


def _checks(*names_and_concurrency):
    from smoke_tests.plan import Check

    return [Check(name=name, run="m:f", needs_device=False, timeout_s=1, proves="", concurrent=concurrent)
            for name, concurrent in names_and_concurrency]


def test_consecutive_concurrent_checks_form_one_group_and_every_other_check_runs_alone():
    from smoke_tests.__main__ import side_by_side

    checks = _checks(("a", True), ("b", True), ("train", False), ("c", True), ("sync", False), ("d", False))
    assert [[c.name for c in group] for group in side_by_side(checks)] == [["a", "b"], ["train"], ["c"], ["sync"], ["d"]]


def test_the_checks_of_a_group_run_at_the_same_time_and_the_next_check_only_after_all_of_them():
    """Each check of the group waits at a barrier for the other: run one at a time, the first would
    break it (its timeout) and the group's results would say so."""
    from smoke_tests.__main__ import run_all

    barrier, events = threading.Barrier(2, timeout=10), []

    def run(check, beside_others):
        events.append(("start", check.name, beside_others))
        if check.name != "alone":
            barrier.wait()
        events.append(("end", check.name))
        return check.name

    checks = _checks(("imports", True), ("defaults", True), ("alone", False))
    assert run_all(checks, run, workers=2) == ["imports", "defaults", "alone"]
    assert {e for e in events[:2]} == {("start", "imports", True), ("start", "defaults", True)}
    assert events[-2:] == [("start", "alone", False), ("end", "alone")]


def test_the_suite_marks_concurrent_only_the_checks_that_import_and_read():
    """Training and the syncs bind ports and run two ranks each: they must run alone."""
    from smoke_tests.plan import load_checks

    concurrent = {c.name for c in load_checks() if c.concurrent}
    assert concurrent and all(name.startswith("conformance.") for name in concurrent)


def test_a_check_running_beside_others_tags_each_line_it_prints_with_its_name(tmp_path):
    """The suite's own runner in this venv: verl_defaults crashes here (no verl), printing a traceback;
    beside conformance.versions each line says whose it is, alone it is indented as before."""
    pins = json.loads((REPO / "images/cpu/pins.json").read_text())
    (tmp_path / "pins.json").write_text(json.dumps(pins))
    env = dict(os.environ, PYTHONPATH=str(REPO))

    def printed(only):
        result = subprocess.run([sys.executable, "-m", "smoke_tests", "--pins", str(tmp_path / "pins.json"),
                                 "--artifacts", str(tmp_path / only), "--only", only],
                                capture_output=True, text=True, env=env, cwd=tmp_path)
        assert result.returncode == 1, result.stdout + result.stderr
        return [line for line in result.stdout.splitlines() if "Traceback" in line]

    assert printed("conformance.versions,conformance.verl_defaults") == [
        "    conformance.verl_defaults| Traceback (most recent call last):"]
    assert printed("conformance.verl_defaults") == ["    Traceback (most recent call last):"]
