"""The cpu image's install script on a host that is no image: a fresh container made from the bare
bootstrapped Debian base (not from the image), this checkout mounted read-only, the wheelhouse
`build.py wheelhouse --out` fills. The environment it makes must hold what the image holds, file for
file, run the smoke suite the same way, and survive an interruption, a second run and a damaged wheelhouse.
"""

import contextlib
import io
import json
import tarfile
import time
from pathlib import Path

import pytest

from image_pipeline import network
from image_pipeline.builder import base, engine, wheelhouse
from image_pipeline.render import install_script

from conftest import REPO, manifest

pytestmark = pytest.mark.docker
M = manifest()
IMAGE = M.default_image
PLATFORM = engine.host_platform()
SCRIPT = f"/repo/images/{IMAGE.name}/{install_script.script_name(PLATFORM)}"
VENV = "/opt/venv"  # the image's own path, so that the files pip writes (script shebangs) can be compared byte for byte
SITE = f"{VENV}/lib/python{IMAGE.python}/site-packages"
# every file of the environment with its time and size: a run that rewrites one changes this
SNAPSHOT = f"find {VENV} -xdev -type f -not -path '*/__pycache__/*' -printf '%p %T@ %s %m\\n' | sort | sha256sum"


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheelhouse")
    fetched = wheelhouse.fetch(M, IMAGE, PLATFORM, REPO, network.from_host(), REPO / ".cache")
    return wheelhouse.export(M, IMAGE, PLATFORM, REPO, fetched, REPO / ".cache", network.from_host(), out)


def _exec(container, command: str, detach=False, merge_stderr=True, environment=None):
    """The command's exit code and output. The output goes through a file read back over the archive API:
    an attached stream, an exec's or a container's log, can lose its tail (seen here: 9 MB of JSON cut short)."""
    if detach:
        container.exec_run(["bash", "-c", command], detach=True, environment=environment)
        return 0, ""
    errors = "2>&1" if merge_stderr else "2>/tmp/exec.err"
    code, _ = container.exec_run(["bash", "-c", f"( {command} ) > /tmp/exec.out {errors}"], environment=environment)
    return code, _read_file(container, "/tmp/exec.out")


def _read_file(container, path: str) -> str:
    stream, _ = container.get_archive(path)
    with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as archive:
        member = archive.getmembers()[0]
        return archive.extractfile(member).read().decode(errors="replace")


@pytest.fixture(scope="module")
def host(engine_client, cpu_image, house, tmp_path_factory):
    """The container, after the script was killed once its second tier was in and then run to the end."""
    scratch = tmp_path_factory.mktemp("scratch")
    container = engine_client.containers.run(
        base.local_reference(IMAGE.base, PLATFORM), ["sleep", "infinity"], detach=True, network_mode="host",
        platform=PLATFORM, volumes={str(REPO): {"bind": "/repo", "mode": "ro"}, str(house): {"bind": "/wh", "mode": "ro"},
                                    str(scratch): {"bind": "/scratch", "mode": "ro"}})
    try:
        run = f"{SCRIPT} --venv {VENV} --wheelhouse /wh --system-packages"
        _exec(container, f"setsid bash -c 'echo $$ > /tmp/install.pid; exec {run}' > /tmp/first.log 2>&1", detach=True)
        marker = f"{VENV}/verl-image/state/2-torch-pins.json"
        deadline = time.monotonic() + 1800
        while _exec(container, f"test -e {marker}")[0] != 0:
            running = _exec(container, "kill -0 $(cat /tmp/install.pid)")[0] == 0
            assert running and time.monotonic() < deadline, (
                _exec(container, "tail -20 /tmp/first.log; ls /wh/files | wc -l")[1])
            time.sleep(2)
        _exec(container, "kill -KILL -- -$(cat /tmp/install.pid)")
        code, resumed = _exec(container, f"{SCRIPT} --venv {VENV} --wheelhouse /wh")
        assert code == 0, resumed[-3000:]
        yield container, resumed, scratch
    finally:
        container.remove(force=True)


@contextlib.contextmanager
def _running(engine_client, image: str):
    """A container of the image to _exec in: a short-lived container's log can come back empty or cut short."""
    container = engine_client.containers.run(image, ["sleep", "infinity"], detach=True, network_mode="none",
                                             volumes={str(REPO / "tests"): {"bind": "/repo/tests", "mode": "ro"}})
    try:
        yield container
    finally:
        container.remove(force=True)


def _records(container) -> dict:
    code, out = _exec(container, f"python3 /repo/tests/installed_records.py {SITE}", merge_stderr=False)
    assert code == 0, _read_file(container, "/tmp/exec.err")
    return json.loads(out)


def _without_origin(dist: dict) -> dict:
    """direct_url.json names the file pip installed from (the image: its bind mount, here: the staged
    wheelhouse): that file, and RECORD's line for it, are compared apart."""
    keep = {k: v for k, v in dist["record"].items() if not k.endswith("/direct_url.json")}
    disk = {k: v for k, v in dist["disk"].items() if not k.endswith(("/direct_url.json", ".dist-info/RECORD"))}
    return {"version": dist["version"], "record": keep, "disk": disk}


def test_a_resumed_install_holds_the_images_distributions_file_for_file(engine_client, cpu_image, host):
    container, resumed = host[:2]
    assert "parts were installed already, from this same plan: skipped" in resumed
    assert "installing 1-tools" not in resumed and "installing 2-torch" not in resumed
    with _running(engine_client, cpu_image.tags.final) as in_image:
        image = _records(in_image)
    here = _records(container)
    assert sorted(here) == sorted(image) and len(image) > 100
    for dist in image:
        assert _without_origin(here[dist]) == _without_origin(image[dist]), dist
    patch = next(p for p in IMAGE.patches)
    path = patch.file
    owner = next(d for d in image if path in image[d]["record"])
    assert image[owner]["disk"][path] != image[owner]["record"][path]  # the patched file differs from its wheel's
    assert here[owner]["disk"][path] == image[owner]["disk"][path]  # and the host's is the image's, patched


def test_the_only_file_that_differs_names_where_pip_installed_from(engine_client, cpu_image, host):
    container = host[0]
    command = f"cat {SITE}/*.dist-info/direct_url.json"
    with _running(engine_client, cpu_image.tags.final) as in_image:
        image = _exec(in_image, command)[1]
    here = _exec(container, command)[1]
    (a,), (b,) = [json.loads(line) for line in image.splitlines()], [json.loads(line) for line in here.splitlines()]
    assert a["url"].rsplit("/", 1)[1] == b["url"].rsplit("/", 1)[1] and a["archive_info"] == b["archive_info"]


def test_a_new_shell_gets_the_environment_a_container_gets(engine_client, cpu_image, host):
    container = host[0]
    code, out = _exec(container, f"env -i bash -c 'source {VENV}/bin/activate-verl && env -0'")
    assert code == 0, out
    here = dict(item.split("=", 1) for item in out.split("\0") if "=" in item)
    image = dict(item.split("=", 1) for item in engine_client.images.get(cpu_image.tags.final).attrs["Config"]["Env"])
    assert {k: v for k, v in here.items() if k in image and k != "PATH"} == {k: v for k, v in image.items() if k != "PATH"}
    assert here["PATH"].split(":")[0] == image["PATH"].split(":")[0] == f"{VENV}/bin"


def test_the_smoke_suite_passes_in_the_exported_environment(host):
    container = host[0]
    # the timeouts kill hangs; on a shared 2-core machine they are stretched as under emulation
    code, out = _exec(container, f"cd /tmp && source {VENV}/bin/activate-verl && python -m smoke_tests "
                                 f"--pins {VENV}/verl-image/pins.json --artifacts /tmp/smoke",
                      environment={"SMOKE_TIMEOUT_SCALE": "4"})
    assert code == 0, out[-4000:]
    results = json.loads(_exec(container, "cat /tmp/smoke/results.json")[1])
    statuses = {r["name"]: r["status"] for r in results}
    image_only = {c["name"] for c in json.loads((REPO / "smoke_tests/checks.json").read_text())["checks"]
                  if c.get("where") == ["image"]}
    assert image_only and all(statuses[name] == "NOT RUN" for name in image_only)  # never PASS
    assert {s for n, s in statuses.items() if n not in image_only} <= {"PASS", "MEASURED"}
    assert statuses["train"] == statuses["sync.mooncake"] == statuses["conformance.patches"] == "PASS"


def test_a_second_run_changes_nothing_and_says_so(host):
    container = host[0]
    before = _exec(container, SNAPSHOT)[1]
    code, out = _exec(container, f"{SCRIPT} --venv {VENV} --wheelhouse /wh")
    assert code == 0, out[-3000:]
    assert f"nothing changed: {VENV} already holds {IMAGE.name}" in out
    assert _exec(container, SNAPSHOT)[1] == before


def test_a_damaged_wheelhouse_fails_naming_the_file_and_changes_nothing(host, house):
    container, scratch = host[0], host[2]
    damaged = scratch / "damaged"
    (damaged / "files").mkdir(parents=True)
    for path in (house / "files").iterdir():
        (damaged / "files" / path.name).hardlink_to(path)
    victim = next(p for p in (damaged / "files").iterdir() if p.name.startswith("transformers-"))  # the last tier's
    data = victim.read_bytes()
    victim.unlink()  # a file of its own: the wheelhouse's is a hard link into the download cache
    victim.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    before = _exec(container, SNAPSHOT)[1]
    for venv in (VENV, "/opt/fresh"):  # an installed environment, and one the script would create
        code, out = _exec(container, f"{SCRIPT} --venv {venv} --wheelhouse /scratch/damaged")
        assert code == 1, out[-2000:]
        assert f"host_install: /scratch/damaged/files/{victim.name} has sha256 " in out
        assert "nothing was installed" in out and "installing" not in out
    assert _exec(container, SNAPSHOT)[1] == before
    assert _exec(container, "test -e /opt/fresh")[0] == 1
