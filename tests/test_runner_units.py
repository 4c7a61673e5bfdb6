"""Host-side pieces that need no engine: log waits, NPU detection, network profile, metrics, progress."""

import io
import threading
import time

import pytest

from smoke_tests import metrics
from verlimage import engine, netprofile, smoke
from verlimage.errors import UserError


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
    assert smoke.wait_for_log(tmp_path / "LOG", 60, 10, sleep=clock.sleep, clock=clock.time) is False
    assert clock.sleeps == [10] * 6 and clock.now == 60


def test_log_wait_returns_once_the_log_has_content(tmp_path):
    log = tmp_path / "LOG"
    log.write_text("")
    threading.Timer(0.3, lambda: log.write_text("step 1\n")).start()
    started = time.monotonic()
    assert smoke.wait_for_log(log, cap=10, poll=0.1)
    assert time.monotonic() - started < 5


def test_npu_passthrough_on_a_mocked_dev_tree(tmp_path):
    """No NPU exists here: a fake /dev and driver tree stands in for an Ascend host."""
    for node in ("dev/davinci0", "dev/davinci1", "dev/davinci10", "dev/davinci_manager", "dev/devmm_svm",
                 "dev/hisi_hdc", "usr/local/bin/npu-smi", "usr/local/Ascend/driver/lib64/libx.so",
                 "etc/ascend_install.info"):
        path = tmp_path / node
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    found = smoke.detect_npu(str(tmp_path))
    assert found.present
    assert found.devices == ("/dev/davinci0", "/dev/davinci1", "/dev/davinci10", "/dev/davinci_manager",
                             "/dev/devmm_svm", "/dev/hisi_hdc")
    assert "/usr/local/Ascend/driver/lib64" in found.mounts and "/usr/local/bin/npu-smi" in found.mounts
    assert "/usr/local/dcmi" not in found.mounts  # only what exists is mounted


def test_this_host_has_no_npu():
    assert not smoke.detect_npu().present


def test_profile_from_host_pip_settings(tmp_path):
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    profile = netprofile.from_host(pip_config={
        "index-url": "https://bot:tok3n@pypi.corp/simple", "cert": str(ca),
        "extra-index-url": "file:///opt/pypi/simple https://mirror.corp/simple", "trusted-host": "mirror.corp"})
    conf = profile.container_pip_conf()
    assert "index-url = https://bot:tok3n@pypi.corp/simple" in conf
    assert "extra-index-url = https://mirror.corp/simple" in conf and "file://" not in conf
    assert f"cert = {netprofile.CONTAINER_CA}" in conf
    assert profile.secrets() == ["tok3n"]
    profile.write_context(tmp_path / "np")
    assert (tmp_path / "np/ca.crt").read_text() == ca.read_text()


def test_real_host_pip_configuration_is_read():
    settings = netprofile.host_pip_config()
    assert isinstance(settings, dict)
    profile = netprofile.from_host()
    assert profile.ca_bundle == "" or profile.ca_bundle.endswith((".crt", ".pem"))


@pytest.mark.parametrize("mirror,words", [("http://user:pw@mirror.corp/debian", "must not carry credentials"),
                                          ("ftp://mirror.corp/debian", "http(s) URL")])
def test_bad_apt_mirror(mirror, words):
    with pytest.raises(UserError) as failure:
        netprofile.from_host(apt_mirror=mirror, pip_config={})
    assert words in str(failure.value)


def test_metrics_roundtrip_and_tolerances():
    values = {"train.loss.first": 6.94, "train.loss.last": 0.64, "train.loss.mean_05_14": 3.1,
              "train.step_time_s.mean_05_14": 0.05}
    assert metrics.parse(metrics.format_lines(values)) == pytest.approx(values)
    baseline = metrics.parse(metrics.baseline_text("cpu", "cpu", values))
    assert metrics.compare(baseline, values, perf_gate=True) == []
    worse = dict(values, **{"train.loss.last": 0.70, "train.step_time_s.mean_05_14": 0.06})
    problems = metrics.compare(baseline, worse, perf_gate=False)
    assert problems == ["train.loss.last: 0.7000 vs baseline 0.6400 (tolerance ±0.05)"]
    assert len(metrics.compare(baseline, worse, perf_gate=True)) == 2
    with pytest.raises(ValueError):
        metrics.parse("no separator here")


STREAM = [
    {"stream": "Step 1/3 : FROM debian\n"}, {"stream": " ---> 02a21a2ffef1\n"},
    {"stream": "Step 2/3 : RUN apt-get update\n"}, {"stream": " ---> Using cache\n"},
    {"stream": "Step 3/3 : RUN pip install x\n"}, {"stream": "Collecting x\n"},
]


def test_build_progress_counts_steps_and_cache_hits():
    out = io.StringIO()
    progress = engine.Progress(plain=False, out=out)
    for chunk in STREAM:
        progress.feed(chunk)
    progress.finish()
    text = out.getvalue()
    assert "[ 2/3] RUN apt-get update" in text and "cached" in text
    assert (progress.steps_run, progress.steps_cached) == (2, 1)


def test_build_error_names_the_step_and_keeps_its_output():
    progress = engine.Progress(plain=True, out=io.StringIO())
    for chunk in STREAM:
        progress.feed(chunk)
    with pytest.raises(engine.BuildFailed) as failure:
        progress.feed({"error": "The command returned a non-zero code: 1"})
    assert "step 3/3 (RUN pip install x)" in str(failure.value)
    assert failure.value.tail[-1] == "Collecting x"


def test_training_check_compares_with_the_baseline(tmp_path):
    from smoke_tests import train

    values = {"train.loss.first": 6.94, "train.loss.last": 0.64, "train.loss.mean_05_14": 3.5,
              "train.step_time_s.mean_05_14": 0.03}
    (tmp_path / "cpu.cpu.txt").write_text(metrics.baseline_text("cpu", "cpu", values))
    assert train.check(values, "cpu", "cpu", tmp_path)[0] == []
    drifted = dict(values, **{"train.loss.mean_05_14": 3.7})
    problems, _ = train.check(drifted, "cpu", "cpu", tmp_path)
    assert problems == ["baseline cpu.cpu.txt: train.loss.mean_05_14: 3.7000 vs baseline 3.5000 (tolerance ±0.05)"]
    stuck = dict(values, **{"train.loss.last": 5.0})
    assert any("loss did not fall enough" in p for p in train.check(stuck, "cpu", "cpu", tmp_path)[0])
    problems, notes = train.check(values, "npu-a3", "npu", tmp_path)
    assert problems == [] and any("no baseline npu-a3.npu.txt" in n for n in notes)


def test_the_committed_cpu_baseline_exists():
    from smoke_tests import metrics as m

    values = m.parse(m.baseline_path("cpu", "cpu").read_text())
    assert set(values) == {t.key for t in m.TOLERANCES}
