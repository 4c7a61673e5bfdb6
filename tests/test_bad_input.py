"""Every kind of bad pins.yaml: exit 2, one line naming file:line and the key, images/ untouched."""

import re

import pytest

from conftest import run_build, tree_snapshot

TORCH = "    # renovate: datasource=pypi depName=torch\n    version: 2.13.0\n"

# (id, old text, new text, key the message must name, words it must contain, text on the reported line)
CASES = [
    ("yaml-syntax", "  torch:\n    source: pypi\n", "  torch:\n    source: [pypi\n", None, "YAML syntax error", None),
    ("duplicate-key", TORCH, TORCH + "    version: 2.14.0\n", "components.torch.version", "duplicate key",
     "version: 2.14.0"),
    ("misspelt-key", TORCH, TORCH.replace("version:", "verison:"), "components.torch.verison",
     "did you mean 'version'", "verison:"),
    ("unknown-top-level-key", "schema: 1\n", "schema: 1\nimagez: {}\n", "imagez", "unknown key", "imagez"),
    ("wrong-type-list", TORCH, TORCH.replace("version: 2.13.0", "version: [2.13.0]"), "components.torch.version",
     "must be a version string", "version: [2.13.0]"),
    ("python-as-number", '    python: "3.11"\n    platforms: [linux/arm64', '    python: 3.11\n    platforms: [linux/arm64',
     "images.npu-{soc}.python", "quote it", "python: 3.11"),
    ("invalid-version", TORCH, TORCH.replace("2.13.0", "2.13.0-final-x"), "components.torch.version",
     "not a valid PEP 440 version", "2.13.0-final-x"),
    ("alias", "repository: verl-ascend\n", "repository: &r verl-ascend\nx: *r\n", None, "anchors", "&r"),
    ("billion-laughs", "schema: 1\n", "schema: 1\nlol: &a [x, x]\nlol2: [*a, *a]\n", None, "not allowed", "&a"),
    ("missing-commit", "    commit: 5cb98caaadeff42b5b62b996e34bb2aaa29d20fd\n", "", "components.vllm-ascend",
     "missing required key 'commit'", "vllm-ascend:"),
    ("short-commit", "commit: 5cb98caaadeff42b5b62b996e34bb2aaa29d20fd", "commit: 5cb98caa",
     "components.vllm-ascend.commit", "full 40-hex commit sha", "commit: 5cb98caa"),
    ("tag-and-branch", "    tag: v0.23.0\n", "    tag: v0.23.0\n    branch: main\n", "components.vllm-ascend",
     "exactly one of 'tag' or 'branch'", "vllm-ascend:"),
    ("unknown-component", "      bridge: mbridge\n      mooncake: mooncake-non-cuda", "      bridge: mbridgee\n"
     "      mooncake: mooncake-non-cuda", "images.cpu.stack.bridge", "unknown component 'mbridgee'", "mbridgee"),
    ("unused-component", "# File patches", "  orphan:\n    source: pypi\n    version: 1.0.0\n# File patches",
     "components.orphan", "not used by any image", "orphan:"),
    ("unknown-axis-value", "      soc: [a2, a3]", "      soc: [a2, a4]", "images.npu-{soc}.expand.soc",
     "unknown value 'a4'", "soc: [a2, a4]"),
    ("two-defaults", "    device: npu\n", "    device: npu\n    default: true\n", "images",
     "exactly one image must set default", "images:"),
    ("non-string-key", "schema: 1\n", "schema: 1\n1: one\n", None, "keys must be plain strings", "1: one"),
    ("not-a-mapping", "  torch:\n    source: pypi\n", "  torch: 2.13.0\n  torch-old:\n    source: pypi\n",
     "components.torch", "must be a mapping", "torch: 2.13.0"),
    ("credentials-in-url", "url: https://files", "url: https://user:tok@files", "components.vllm.url",
     "without credentials", "user:tok@"),
    # compatibility rules, each naming both pins
    ("rule-torch-npu", "    # renovate: datasource=pypi depName=torch-npu\n    version: 2.13.0",
     "    # renovate: datasource=pypi depName=torch-npu\n    version: 2.12.0", "components.torch_npu",
     "torch-npu-matches-torch", "torch_npu:"),
    ("rule-mindspeed-line", "    branch: core_r0.16.0\n    commit: e477", "    branch: core_r0.15.0\n    commit: e477",
     "components.mindspeed", "mindspeed-matches-megatron", "mindspeed:"),
    ("rule-megatron-core-line", "depName=megatron-core\n    version: 0.16.1", "depName=megatron-core\n    version: 0.15.3",
     "components.megatron-core", "megatron-core-in-line", "megatron-core:"),
    ("rule-mooncake-version", "depName=mooncake-transfer-engine-non-cuda\n    version: 0.3.12.post1",
     "depName=mooncake-transfer-engine-non-cuda\n    version: 0.3.13.post1", "components.mooncake-non-cuda",
     "mooncake-same-version", "mooncake-non-cuda:"),
    ("rule-base-python", "    tag: 9.1.0-a3-ubuntu22.04-py3.11", "    tag: 9.1.0-a3-ubuntu22.04-py3.12",
     "images.npu-{soc}.python", "base-python", 'python: "3.11"'),
    ("rule-ascend-direct-cpu", "    package: mooncake-transfer-engine-non-cuda\n",
     "    package: mooncake-transfer-engine-non-cuda\n    build:\n      cmake: [-DUSE_ASCEND_DIRECT=ON]\n",
     "components.mooncake-non-cuda", "ascend-direct-npu-only", "mooncake-non-cuda:"),
    ("rule-external-modules-missing", "      VERL_USE_EXTERNAL_MODULES: verl_cpu_platform\n", "      OTHER: x\n",
     "images.cpu.env", "must set VERL_USE_EXTERNAL_MODULES", "env:"),
    ("rule-url-version", "vllm-0.23.0.tar.gz", "vllm-0.22.0.tar.gz", "components.vllm.url", "url-names-version",
     "vllm-0.22.0.tar.gz"),
    ("rule-vllm-line", "    tag: v0.23.0\n", "    tag: v0.22.1\n", "components.vllm-ascend", "vllm-ascend-matches-vllm",
     "vllm-ascend:"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_one_line(repo_copy, case):
    _, old, new, key, words, line_text = case
    pins = repo_copy / "pins.yaml"
    text = pins.read_text()
    assert old in text, f"fixture text not in pins.yaml: {old!r}"
    pins.write_text(text.replace(old, new, 1))
    before = tree_snapshot(repo_copy / "images")

    result = run_build("render", root=repo_copy)

    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one line, got:\n{result.stderr}"
    assert "Traceback" not in result.stderr
    message = lines[0]
    match = re.match(r"error: pins\.yaml:(\d+): ", message)
    assert match, message
    assert words in message, message
    if key:
        assert f" {key}: " in message, message
    if line_text:
        reported = pins.read_text().splitlines()[int(match.group(1)) - 1]
        assert line_text in reported, f"line {match.group(1)} is {reported!r}; message: {message}"
    assert tree_snapshot(repo_copy / "images") == before


def test_rule_message_names_both_pins(repo_copy):
    pins = repo_copy / "pins.yaml"
    pins.write_text(pins.read_text().replace(TORCH, TORCH.replace("2.13.0", "2.14.0"), 1))
    message = run_build("validate", root=repo_copy).stderr
    assert "torch_npu 2.13.0 (pins.yaml:" in message and "torch 2.14.0 (pins.yaml:" in message, message


def test_missing_file_is_a_clear_error(tmp_path):
    result = run_build("validate", root=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and "pins.yaml" in result.stderr and "Traceback" not in result.stderr


def test_empty_file(repo_copy):
    (repo_copy / "pins.yaml").write_text("")
    result = run_build("validate", root=repo_copy)
    assert result.returncode == 2 and "must be a mapping" in result.stderr
