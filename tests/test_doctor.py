"""`build.py doctor` against fake host trees, and `build.py run`'s line against the smoke runner's.

No Ascend host exists here: each host is a directory tree with the files an Ascend host has
(/dev/davinci*, the driver's version.info, /etc/hccn.conf, ...). The Docker Engine, where a test needs
one that answers, is ENGINE_STAND_IN: an HTTP server on a unix socket in the tree, answering /version
as the engine does. Everything else is real: the checks, pins.yaml, the locks, loopback HTTP."""

import http.server
import json
import shlex
import socketserver
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from image_pipeline import network
from image_pipeline.host import doctor, passthrough
from image_pipeline.smoke import runner

from conftest import manifest, run_build

M = manifest()
A2 = M.images["npu-a2"]  # has Mooncake: hccn.conf matters
RELEASE = next(img for img in M.images.values() if img.device == "npu" and "mooncake" not in img.stack)
PROFILE = network.NetProfile()


def _tree(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def ascend_host(root: Path, image=A2, driver=None, drop=()) -> Path:
    """A whole node of the image's runner, its driver at the version pins.yaml asks for (or `driver`)."""
    files = {f"dev/davinci{i}": "" for i in range(image.runner.npus)}
    files.update({d.lstrip("/"): "" for d in passthrough.NPU_DEVICES})
    files.update({"usr/local/Ascend/driver/lib64/libdrv.so": "", "usr/local/dcmi/dcmi": "",
                  "usr/local/bin/npu-smi": "", "etc/ascend_install.info": "", "etc/hccn.conf": "address_0=\n",
                  doctor.DRIVER_VERSION_FILE.lstrip("/"):
                      f"Version={driver or (image.base.get('driver') or {}).get('version', '1.0.0')}\n"})
    for rel in drop:
        files.pop(rel)
    return _tree(root, files)


def _levels(found, subject) -> list:
    return [f.level for f in found if f.subject == subject]


# ---------------------------------------------------------------- the device, the driver, hccn.conf

def test_a_whole_ascend_node_at_the_pinned_driver_passes_every_device_check(tmp_path):
    host = doctor.Host(root=ascend_host(tmp_path))
    found = doctor.devices(host, A2) + doctor.driver(host, A2) + doctor.hccn(host, A2)
    assert [f.level for f in found] == ["ok"] * len(found), [f.line() for f in found]
    assert {"NPU devices", "driver version", "hccn.conf"} <= {f.subject for f in found}


def test_a_host_without_npus_fails_naming_the_device_nodes(tmp_path):
    found = doctor.devices(doctor.Host(root=tmp_path), A2)
    assert _levels(found, "NPU devices") == ["FAIL"] and "/dev/davinci" in found[0].detail and found[0].fix


def test_a_missing_control_device_fails(tmp_path):
    manager = passthrough.NPU_DEVICES[0]
    found = doctor.devices(doctor.Host(root=ascend_host(tmp_path, drop=[manager.lstrip("/")])), A2)
    assert [f for f in found if f.level == "FAIL" and manager in f.detail]


def test_fewer_npus_than_a_node_warns(tmp_path):
    root = ascend_host(tmp_path)
    (root / f"dev/davinci{A2.runner.npus - 1}").unlink()
    assert _levels(doctor.devices(doctor.Host(root=root), A2), "NPU devices") == ["warn"]


def test_a_driver_older_than_the_cann_base_needs_fails_naming_both_and_the_source(tmp_path):
    wanted = A2.base.get("driver")
    older = f"{int(wanted['version'].split('.')[0]) - 1}.0.0"
    found = doctor.driver(doctor.Host(root=ascend_host(tmp_path, driver=older)), A2)
    [version] = [f for f in found if f.subject == "driver version"]
    assert version.level == "FAIL" and older in version.detail and wanted["version"] in version.detail
    assert wanted["source"] in version.detail


def test_ascend_release_order_puts_an_rc_before_its_release():
    key = doctor._release_key
    wanted = A2.base.get("driver")["version"]
    major, minor = wanted.split(".")[:2]
    assert key(f"{major}.{minor}.rc1") < key(f"{major}.{minor}.rc2") < key(f"{major}.{minor}.0")
    assert key(f"{int(major) - 1}.{minor}.0") < key(f"{major}.{minor}.rc1")


def test_a_base_without_a_declared_driver_is_named_not_compared(tmp_path):
    undeclared = next(img for img in M.images.values() if img.device == "npu" and not img.base.get("driver"))
    found = doctor.driver(doctor.Host(root=ascend_host(tmp_path, image=undeclared)), undeclared)
    assert _levels(found, "driver version") == ["warn"]


def test_a_missing_driver_path_the_container_mounts_fails(tmp_path):
    found = doctor.driver(doctor.Host(root=ascend_host(tmp_path, drop=["usr/local/bin/npu-smi"])), A2)
    assert [f for f in found if f.level == "FAIL" and "/usr/local/bin/npu-smi" in f.detail]


def test_hccn_conf_is_required_where_mooncake_is_installed_only(tmp_path):
    root = ascend_host(tmp_path, drop=["etc/hccn.conf"])
    assert _levels(doctor.hccn(doctor.Host(root=root), A2), "hccn.conf") == ["FAIL"]
    assert doctor.hccn(doctor.Host(root=root), RELEASE) == []


def test_a_build_only_host_is_not_asked_for_devices(tmp_path):
    host = doctor.Host(root=tmp_path, reach=lambda url: None)
    subjects = {f.subject for f in doctor.examine(host, M, A2, host.platform, PROFILE, build_only=True)}
    assert not subjects & {"NPU devices", "driver version", "hccn.conf"}
    subjects = {f.subject for f in doctor.examine(host, M, A2, host.platform, PROFILE)}
    assert {"NPU devices", "driver version", "hccn.conf"} <= subjects


# ---------------------------------------------------------------- the engine, the disk, emulation

class _EngineStandIn(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    """ENGINE_STAND_IN: answers GET /version on a unix socket as the Docker Engine does."""
    daemon_threads = True


def _engine(root: Path, api: str):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"Version": "stand-in", "ApiVersion": api}).encode()
            self.send_response(200 if self.path == "/version" else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

        def address_string(self):
            return "unix"
    sock = root / "var/run/docker.sock"
    sock.parent.mkdir(parents=True, exist_ok=True)
    server = _EngineStandIn(str(sock), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.parametrize("api, buildkit", [("1.41", "ok"), (".".join(map(str, doctor.BUILDKIT_API[:1] + (doctor.BUILDKIT_API[1] - 1,))), "FAIL")])
def test_an_engine_that_answers_is_ok_and_an_old_one_lacks_buildkit(tmp_path, api, buildkit):
    server = _engine(tmp_path, api)
    try:
        found = doctor.engine(doctor.Host(root=tmp_path))
    finally:
        server.shutdown()
        server.server_close()
    assert _levels(found, "Docker Engine") == ["ok"] and _levels(found, "BuildKit") == [buildkit]


def test_no_engine_socket_and_a_socket_that_is_no_engine_fail(tmp_path):
    assert _levels(doctor.engine(doctor.Host(root=tmp_path)), "Docker Engine") == ["FAIL"]
    sock = tmp_path / "var/run/docker.sock"
    sock.parent.mkdir(parents=True)
    sock.write_text("")  # a file, not a listening socket
    found = doctor.engine(doctor.Host(root=tmp_path))
    assert _levels(found, "Docker Engine") == ["FAIL"] and "does not answer" in found[0].detail


def test_too_little_disk_fails_with_what_to_free(tmp_path):
    FULL_DISK_STAND_IN = lambda path: SimpleNamespace(free=1)  # noqa: E731  (no full disk to test on)
    found = doctor.disk(doctor.Host(root=tmp_path, disk_usage=FULL_DISK_STAND_IN), M, A2, A2.platforms[0])
    assert found[0].level == "FAIL" and "free" in found[0].fix
    assert doctor.disk(doctor.Host(root=tmp_path), M, A2, A2.platforms[0])[0].subject == "disk"


def test_another_platform_needs_its_qemu_handler(tmp_path):
    host = doctor.Host(root=tmp_path, machine="x86_64")
    assert _levels(doctor.emulation(host, "linux/arm64"), "emulation") == ["FAIL"]
    _tree(tmp_path, {f"proc/sys/fs/binfmt_misc/{doctor.QEMU_HANDLER['linux/arm64']}": "enabled\ninterpreter x\n"})
    assert _levels(doctor.emulation(host, "linux/arm64"), "emulation") == ["ok"]
    host_only = {f.subject for f in doctor.examine(doctor.Host(root=tmp_path, machine="x86_64", reach=lambda u: None),
                                                   M, M.images["cpu"], "linux/amd64", PROFILE)}
    assert "emulation" not in host_only


# ---------------------------------------------------------------- where the inputs come from

def test_the_input_hosts_are_where_the_pins_and_the_lock_say_the_build_downloads(tmp_path):
    platform = A2.platforms[0]
    hosts = doctor.input_hosts(M, A2, platform, PROFILE)
    base_registry = A2.base.get("image").split("/")[0]
    assert f"base {A2.base.name}" in hosts[f"https://{base_registry}"]
    git = next(c for c in A2.components if c.source == "git")
    assert any(f"git {git.name}" in what for what in hosts.values())
    assert any(what == ["index pypi"] or "index pypi" in what for what in hosts.values())


class _Quiet(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self):
        self.send_response(404)  # any answer counts
        self.end_headers()

    def log_message(self, *args):
        pass


def test_answers_is_any_http_answer_and_names_why_not(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        assert doctor.answers(f"http://127.0.0.1:{port}") is None
    finally:
        server.shutdown()
        server.server_close()
    assert doctor.answers(f"http://127.0.0.1:{port}")  # closed now: a reason
    assert "loopback" in doctor.answers("http://example.org")


def test_an_input_that_does_not_answer_fails_with_how_to_do_without_it(tmp_path):
    host = doctor.Host(root=tmp_path, reach=lambda url: None if "pypi" in url else "refused")
    found = doctor.inputs(host, M, A2, A2.platforms[0], PROFILE)
    failed = [f for f in found if f.level == "FAIL"]
    assert failed and all(f.fix for f in failed) and any("--load" in f.fix for f in failed)


def test_doctor_exits_one_with_one_line_per_finding_on_a_host_with_nothing(tmp_path):
    result = run_build("doctor", "npu-a2", "--host-root", str(tmp_path), "--build-only")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("doctor npu-a2") and all(l.split(" ", 1)[0] in ("ok", "warn", "FAIL") for l in lines[:-1])
    assert run_build("doctor", "npu-a2", "--host-root", str(tmp_path / "none")).returncode == 2


# ---------------------------------------------------------------- run: the smoke runner's devices and mounts

class _Recorded(Exception):
    pass


def _runner_options(npu, tmp_path, monkeypatch) -> dict:
    """What runner.run hands the engine, recorded by a stand-in client that starts nothing."""
    seen = {}

    def record(reference, command, **kwargs):
        seen.update(kwargs)
        raise _Recorded
    ENGINE_STAND_IN = SimpleNamespace(containers=SimpleNamespace(run=record),
                                      images=SimpleNamespace(get=lambda reference: SimpleNamespace(labels={})))
    monkeypatch.setattr(runner, "detect_npu", lambda: npu)
    with pytest.raises(_Recorded):
        runner.run(ENGINE_STAND_IN, "npu-a2", "ref", artifacts=tmp_path, echo=False)
    volumes = {k: v for k, v in seen["volumes"].items() if v["bind"] != "/artifacts"}
    return {"devices": sorted(d.split(":")[0] for d in seen["devices"]), "shm": seen["shm_size"],
            "volumes": sorted(f"{k}:{v['bind']}:{v['mode']}" for k, v in volumes.items())}


def test_run_print_passes_exactly_the_devices_mounts_and_shm_the_smoke_runner_uses(tmp_path, monkeypatch):
    printed = run_build("run", "npu-a2", "--print", "--", "python", "-c", "import verl")
    assert printed.returncode == 0, printed.stderr
    words = shlex.split(printed.stdout.replace("\\\n", " "))
    line = {"devices": sorted(w.split("=", 1)[1] for w in words if w.startswith("--device=")),
            "shm": next(w.split("=", 1)[1] for w in words if w.startswith("--shm-size=")),
            "volumes": sorted(w.split("=", 1)[1] for w in words if w.startswith("--volume="))}
    assert line == _runner_options(passthrough.node(A2.runner.npus), tmp_path, monkeypatch)
    assert len(line["devices"]) == A2.runner.npus + len(passthrough.NPU_DEVICES)
    assert words[-3:] == ["python", "-c", "import verl"]


def test_run_refuses_an_npu_image_without_npus_and_an_option_for_a_reference():
    refused = run_build("run", "npu-a2", "--", "true")
    assert refused.returncode == 1 and "doctor npu-a2" in refused.stderr
    assert run_build("run", "cpu", "--tag=-v", "--print").returncode == 2
    assert run_build("validate", "--", "x").returncode == 2


@pytest.mark.docker
def test_run_runs_a_command_in_the_promoted_cpu_image_and_passes_its_exit_code(cpu_image):
    verl = M.default_image.role("verl").version
    result = run_build("run", "cpu", "--", "python", "-c", "import sys, verl; print(verl.__version__); sys.exit(3)")
    assert result.returncode == 3 and result.stdout.strip().splitlines()[-1] == verl, result.stderr
    assert run_build("run", "cpu", "--tag", f"{M.repository}:no-such-tag", "--", "true").returncode == 2
