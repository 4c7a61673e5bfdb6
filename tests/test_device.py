"""The NPU branch of smoke_tests/device.py executed on this host, where no NPU exists: torch and torch_npu
are replaced by mocks (MockTorchNpu below, named as such) that stand in for the device only. No test here
claims an NPU works; they hold the code that picks the pinned device to its rule: an NPU image gets the
NPU or an error, never the CPU."""

import json
import sys
import types

import pytest

from smoke_tests import conformance, device
from smoke_tests.outcome import CheckInput

from conftest import REPO

NPU_PINS = json.loads((REPO / "images/npu-a3/pins.json").read_text())


class MockTorchNpu:
    """Mock of `torch.npu` as torch_npu registers it: a device count and the calls the smoke suite makes."""

    def __init__(self, count: int):
        self.count = count
        self.synchronized = 0
        self.current = None

    def device_count(self) -> int:
        return self.count

    def get_device_name(self, index: int) -> str:
        return f"mock NPU {index}"

    def synchronize(self) -> None:
        self.synchronized += 1

    def set_device(self, index: int) -> None:
        self.current = index


@pytest.fixture
def mock_npu(monkeypatch):
    """A mock `torch` module carrying MockTorchNpu, and a mock `torch_npu` that imports."""
    torch = types.ModuleType("torch")
    torch.npu = MockTorchNpu(count=2)
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "torch_npu", types.ModuleType("torch_npu"))
    return torch.npu


def test_npu_pins_get_the_npu(mock_npu):
    found = device.for_pins({"device": "npu"})
    assert found == device.NPU
    assert (found.kind, found.collective, found.mooncake_protocol) == ("npu", "hccl", "ascend_direct")
    found.synchronize()
    device.set_local_device(found, rank=3)
    assert mock_npu.synchronized == 1 and mock_npu.current == 3 % mock_npu.count


def test_npu_pins_with_no_visible_npu_fail_instead_of_falling_back(mock_npu):
    mock_npu.count = 0
    with pytest.raises(RuntimeError, match="sees no NPU"):
        device.for_pins({"device": "npu"})


def test_npu_pins_without_torch_npu_fail_instead_of_falling_back(mock_npu, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_npu", None)  # import torch_npu raises ImportError
    with pytest.raises(ImportError):
        device.for_pins({"device": "npu"})


def test_cpu_pins_get_the_cpu_without_touching_torch_npu(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch_npu", None)
    assert device.for_pins({"device": "cpu"}) == device.CPU


def _toolkit(tmp_path, version):
    home = tmp_path / "latest"
    (home / "x86_64-linux").mkdir(parents=True)
    (home / "x86_64-linux/ascend_toolkit_install.info").write_text(f"package_name=Ascend-cann-toolkit\nversion={version}\n")
    return home


def test_conformance_device_on_the_pinned_cann(mock_npu, monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_TOOLKIT_HOME", str(_toolkit(tmp_path, NPU_PINS["cann_version"])))
    result = conformance.device(CheckInput(pins=NPU_PINS))
    assert result.status == "PASS", result.detail
    assert "device npu (pinned npu)" in result.lines and "2 NPU(s): mock NPU 0" in result.lines


def test_conformance_device_fails_on_another_cann(mock_npu, monkeypatch, tmp_path):
    other = "0.0.1"
    monkeypatch.setenv("ASCEND_TOOLKIT_HOME", str(_toolkit(tmp_path, other)))
    result = conformance.device(CheckInput(pins=NPU_PINS))
    assert result.status == "FAIL" and f"CANN is {other}, pinned {NPU_PINS['cann_version']}" in result.detail
