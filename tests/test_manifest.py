"""pins.yaml: the real manifest loads, expands its axes and resolves every reference."""

from verlimage.manifest import load_manifest
from verlimage.paths import PINS

from conftest import edit


def test_real_manifest_has_the_required_images():
    manifest = load_manifest(PINS)
    assert list(manifest.images) == ["npu-a2", "npu-a3", "cpu"]
    assert manifest.default_image.name == "cpu"


def test_soc_axis_expands_without_copy_paste():
    manifest = load_manifest(PINS)
    a2, a3 = manifest.images["npu-a2"], manifest.images["npu-a3"]
    assert (a2.soc_version, a3.soc_version) == ("ascend910b1", "ascend910_9392")
    assert a2.base.tag.startswith("9.1.0-910b-ubuntu22.04-py3.11")
    assert a3.base.tag.startswith("9.1.0-a3-ubuntu22.04-py3.11")
    assert (a2.runner, a3.runner) == ("ascend-a2", "ascend-a3")
    # everything not on an axis is shared, not copied
    assert {r: c.name for r, c in a2.stack.items()} == {r: c.name for r, c in a3.stack.items()}
    assert a2.stack["vllm"].name == "vllm" and a2.stack["vllm_ascend"].name == "vllm-ascend"


def test_stack_pins_from_the_issue():
    manifest = load_manifest(PINS)
    npu, cpu = manifest.images["npu-a3"], manifest.images["cpu"]
    assert npu.stack["torch"].version == cpu.stack["torch"].version == "2.13.0"
    assert npu.stack["torch_npu"].version == "2.13.0"
    assert npu.stack["transformers"].version == "5.10.4"
    assert npu.stack["megatron"].branch == npu.stack["mindspeed"].branch == "core_r0.16.0"
    assert cpu.stack["megatron"].dist == "megatron-core" and cpu.stack["megatron"].version == "0.16.1"
    assert npu.stack["mooncake"].source == "git" and "-DUSE_ASCEND_DIRECT=ON" in npu.stack["mooncake"].build_cmake
    assert cpu.stack["mooncake"].dist == "mooncake-transfer-engine-non-cuda"
    assert npu.stack["verl"].source == "pypi" and npu.stack["verl"].version
    assert npu.env["VERL_USE_EXTERNAL_MODULES"] == "mindspeed.megatron_adaptor"
    assert cpu.env["VERL_USE_EXTERNAL_MODULES"] == "verl_cpu_platform"


def test_every_git_source_is_pinned_by_full_commit():
    manifest = load_manifest(PINS)
    for comp in manifest.components.values():
        if comp.source == "git":
            assert len(comp.commit) == 40 and comp.ref, comp.name


def test_override_changes_one_expanded_image(repo_copy):
    edit(repo_copy / "pins.yaml", "    device: npu\n", "    device: npu\n    override:\n      npu-a3:\n"
         "        env:\n          VERL_USE_EXTERNAL_MODULES: \"\"\n")
    manifest = load_manifest(repo_copy / "pins.yaml")
    assert manifest.images["npu-a3"].env["VERL_USE_EXTERNAL_MODULES"] == ""
    assert manifest.images["npu-a2"].env["VERL_USE_EXTERNAL_MODULES"] == "mindspeed.megatron_adaptor"


def test_users_of_a_component():
    manifest = load_manifest(PINS)
    assert manifest.users_of("transformers") == ["npu-a2", "npu-a3", "cpu"]
    assert manifest.users_of("cann-a3") == ["npu-a3"]
    assert manifest.users_of("mooncake-non-cuda") == ["cpu"]
