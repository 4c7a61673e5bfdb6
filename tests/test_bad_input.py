"""Every kind of bad pins.yaml: exit 2, one line naming file:line and the key, nothing written.

Cases edit a scratch copy of the real pins.yaml by key (the line the key is on), and any
version they write is derived from the manifest: no pinned version is spelled out here.
"""

import math
import re

import pytest
from packaging.version import Version

from image_pipeline.manifest import document, grammar, load
from image_pipeline.manifest.model import arch_of
from image_pipeline.manifest.references import HASH_CHARS, Tags, base_reference

from conftest import REPO, manifest, run_build, run_in_process, tree_snapshot

DOC = document.load(REPO / "pins.yaml")
LINES = (REPO / "pins.yaml").read_text().splitlines(keepends=True)
M = manifest()


def line_of(*keypath) -> int:
    return DOC.lines[keypath]  # 1-based


def at(*keypath) -> str:
    return LINES[line_of(*keypath) - 1]


def replace_line(text_lines, number, new):
    out = list(text_lines)
    out[number - 1] = new
    return out


def set_value(keypath, value):
    """Edit: the line of keypath becomes `key: value` at the same indentation."""
    def change(lines):
        old = lines[line_of(*keypath) - 1]
        indent = old[:len(old) - len(old.lstrip())]
        return replace_line(lines, line_of(*keypath), f"{indent}{keypath[-1]}: {value}\n")
    return change


def insert_after(keypath, text):
    def change(lines):
        number = line_of(*keypath)
        return lines[:number] + [text] + lines[number:]
    return change


def delete(keypath):
    def change(lines):
        number = line_of(*keypath)
        return lines[:number - 1] + lines[number:]
    return change


def substitute(old, new):
    def change(lines):
        text = "".join(lines)
        assert old in text, old
        return text.replace(old, new, 1).splitlines(keepends=True)
    return change


def other_minor(version: str) -> str:
    v = Version(version)
    return f"{v.major}.{v.minor + 3}.0"


TORCH = M.components["torch"]
NPU = M.images["npu-a3"]
CPU = M.default_image
SGLANG = M.images["npu-sglang-a3"]
KERNELS = SGLANG.role("sgl_kernel")  # an archive whose file names say what it was built for
KERNELS_URL = KERNELS.build_for("linux/arm64")["url"]
SGLANG_CANN = SGLANG.base.get("tag").split("-")[0]


# ---------------------------------------------------------------- Docker's limits, from the pipeline's own shapes

def longest_tag(image, name=None, human=None) -> int:
    """The longest tag the pipeline makes for the image (renamed `name`, human tag `human`)."""
    return max(len(tag.split(":", 1)[1]) for platform in image.platforms
               for tag in Tags(M.repository, name or image.name, "0" * HASH_CHARS, human or image.human_tag,
                               arch_of(platform), host=True).every)


def longest_fitting(make_tag_length) -> int:
    """The largest n whose tags (make_tag_length(n)) still fit Docker's limit."""
    n = 1
    while make_tag_length(n + 1) <= grammar.MAX_TAG_CHARS:
        n += 1
    return n


# an image name, a human tag and a base tag exactly as long as Docker allows once the pipeline's
# suffixes (content hash, arch, -candidate) are added; one more character is refused
NAME_FITS = longest_fitting(lambda n: longest_tag(CPU, name="c" * n))
HUMAN_FITS = longest_fitting(lambda n: longest_tag(CPU, human="h" * n))
BASE = CPU.base
BASE_FITS = longest_fitting(lambda n: max(len(base_reference(BASE.get("image"), "b" * n, arch_of(p)).split(":")[1])
                                          for p in CPU.platforms))
LONGEST_REGISTRY = max(len(r.url) for r in M.registries.values())
REPOSITORY_FITS = grammar.MAX_NAME_CHARS - len("/") - LONGEST_REGISTRY


def rename_cpu(name):
    return substitute(at("images", CPU.name), f"  {name}:\n")


def rename_component(old, new):
    """The component's key and every reference to it (a stack role, or a list)."""
    def change(lines):
        text = "".join(lines).replace(f"  {old}:\n", f"  {new}:\n", 1)
        return re.sub(rf"(: |\[|, ){re.escape(old)}(?=[,\]\n])", rf"\g<1>{new}", text).splitlines(keepends=True)
    return change


def human_tag(length):
    return set_value(("images", CPU.name, "tag"), "h" * length)


def base_tag(length):
    return set_value(("components", BASE.name, "tag"), "b" * length)


def explode(axes: int, values: int):
    """cpu expanded over `axes` new axes of `values` values each (values**axes images)."""
    def change(lines):
        block = "".join(f"  x{a}:\n" + "".join(f"    v{v}: {{}}\n" for v in range(values)) for a in range(axes))
        expand = "".join(f"      x{a}: [{', '.join(f'v{v}' for v in range(values))}]\n" for a in range(axes))
        name = CPU.name + "".join(f"-{{x{a}}}" for a in range(axes))
        lines = insert_after(("axes",), block)(lines)
        lines = substitute(at("images", CPU.name), f"  {name}:\n    expand:\n{expand}")(lines)
        return lines
    return change


# more builds (images x platforms) than the bound allows, though fewer images than it
OVER_BUILDS = math.isqrt(load.MAX_BUILDS // len(CPU.platforms)) + 1

# (id, edit, key the message must name (None: no key), words it must contain, text on the reported line)
CASES = [
    ("yaml-syntax", set_value(("components", "torch", "source"), "[pypi"), None, "YAML syntax error", None),
    ("duplicate-key", insert_after(("components", "torch", "source"), "    source: pypi\n"), None,
     "duplicate key", "source: pypi"),
    ("misspelt-key", substitute(at("components", "torch", "version"),
                                at("components", "torch", "version").replace("version:", "verison:")),
     "components.torch.verison", "did you mean 'version'", "verison:"),
    ("unknown-top-level-key", insert_after(("schema",), "imagez: {}\n"), "imagez", "unknown key", "imagez"),
    ("wrong-type-list", set_value(("components", "torch", "version"), f"[{TORCH.version}]"),
     "components.torch.version", "must be a version string", "version: ["),
    ("python-as-number", substitute(f'      python: "{NPU.python}"\n      tag', f"      python: {NPU.python}\n      tag"),
     "axes.backend.vllm.python", "quote it", "python:"),
    ("invalid-version", set_value(("components", "torch", "version"), "x.y-final!"), "components.torch.version",
     "not a valid PEP 440 version", "x.y-final!"),
    ("alias", set_value(("repository",), "&r verl-ascend\nx: *r"), None, "anchors", "&r"),
    ("billion-laughs", insert_after(("schema",), "lol: &a [x, x]\nlol2: [*a, *a]\n"), None, "not allowed", "&a"),
    # a CMake build leaves its wheel where wheel_script and wheel_glob say (found by test_fuzz_manifest)
    ("cmake-without-wheel-script", delete(("components", "mooncake-npu-source", "build", "wheel_script")),
     "components.mooncake-npu-source.build", "'wheel_script' is a dependency of 'cmake'", "build:"),
    ("cmake-without-wheel-glob", delete(("components", "mooncake-npu-source", "build", "wheel_glob")),
     "components.mooncake-npu-source.build", "'wheel_glob' is a dependency of 'cmake'", "build:"),
    ("missing-commit", delete(("components", "mindspeed", "commit")), "components.mindspeed",
     "missing required key 'commit'", "mindspeed:"),
    ("short-commit", set_value(("components", "mindspeed", "commit"), "e4772499"), "components.mindspeed.commit",
     "full 40-hex commit sha", "commit: e4772499"),
    ("tag-and-branch", insert_after(("components", "vllm-ascend-source", "branch"), "    tag: v0\n"),
     "components.vllm-ascend-source", "exactly one of 'tag' or 'branch'", "vllm-ascend-source:"),
    ("unknown-component", set_value(("images", "cpu", "stack", "bridge"), "mbridgee"), "images.cpu.stack.bridge",
     "unknown component 'mbridgee'", "mbridgee"),
    ("unused-component", insert_after(("components", "setuptools", "reason"),
                                      "  orphan:\n    source: pypi\n    version: 1.0.0\n"),
     "components.orphan", "not used by any image", "orphan:"),
    ("upstream-tag-unknown-field", substitute('upstream_tags: [latest-cpu-debian]', 'upstream_tags: ["latest-{cuda}"]'),
     "images.cpu.upstream_tags[0]", "unknown field {cuda}", "upstream_tags"),
    ("upstream-tag-not-a-tag", substitute('upstream_tags: [latest-cpu-debian]', 'upstream_tags: [".hidden"]'),
     "images.cpu.upstream_tags[0]", "docker tag", "upstream_tags"),
    ("upstream-tag-of-two-images", substitute('upstream_tags: [latest-cpu-debian]',
                                              'upstream_tags: ["latest-vllm-910b-ubuntu"]'),
     "images.cpu.upstream_tags[0]", "get the same tag", "upstream_tags"),
    ("unknown-axis-value", substitute("      soc: [a2, a3]", "      soc: [a2, a4]"), "images.npu-{soc}.expand.soc",
     "unknown value 'a4'", "soc: [a2, a4]"),
    ("two-defaults", insert_after(("images", "npu-{soc}", "expand", "backend"), "    default: true\n"), "images",
     "exactly one image must set default", "images:"),
    ("non-string-key", insert_after(("schema",), "1: one\n"), None, "keys must be plain strings", "1: one"),
    ("not-a-mapping", substitute(at("components", "torch"), "  torch: 1.0\n  torch-old:\n"), "components.torch",
     "must be a mapping", "torch: 1.0"),
    ("credentials-in-url", substitute("url: https://files", "url: https://user:tok@files"), "components.vllm.url",
     "without credentials", "user:tok@"),
    # grammar of values that reach a Dockerfile: no shell metacharacter gets through
    ("shell-in-apt-package", substitute("runtime: [ca-certificates, python3,", "runtime: ['ca-certificates; id', python3,"),
     "images.cpu.apt.runtime[0]", "not a Debian package name", "runtime:"),
    ("shell-in-env", set_value(("images", "cpu", "env", "VERL_USE_EXTERNAL_MODULES"), '"$(id)"'),
     "images.cpu.env.VERL_USE_EXTERNAL_MODULES", "is not an environment value", "$(id)"),
    ("quote-in-url", substitute("/packages/68/", '/packages/6"8/'), "components.vllm.url",
     "characters a URL here may not carry", '6"8'),
    ("http-url", substitute("url: https://files", "url: http://files"), "components.vllm.url", "https://", "http://"),
    ("cmake-option", substitute("-DBUILD_UNIT_TESTS=OFF", "'-DBUILD_UNIT_TESTS=OFF;id'"),
     "components.mooncake-npu-source.build.cmake[1]", "CMake -DNAME=VALUE option", "cmake:"),
    ("pip-option", set_value(("components", "vllm", "build", "pip"), "[--no-build-isolation, --index-url=http://evil]"),
     "components.vllm.build.pip[1]", "not an allowed pip option", "pip:"),
    ("git-ref", set_value(("components", "mindspeed", "branch"), "'core..r0'"), "components.mindspeed.branch",
     "not a valid git ref name", "core..r0"),
    ("multi-line-reason", set_value(("components", "torch", "reason"), '"first\\nsecond"'), "components.torch.reason",
     "one line of text", "reason:"),
    ("blank-reason", set_value(("components", "torch", "reason"), '"   "'), "components.torch.reason",
     "no visible character", "reason:"),
    ("zero-width-reason", set_value(("components", "torch", "reason"), '"\\u200b"'), "components.torch.reason",
     "invisible format character", "reason:"),
    ("bidi-override-in-reason", set_value(("components", "torch", "reason"), '"safe \\u202e evil"'),
     "components.torch.reason", "U+202E", "reason:"),
    ("loader-env", insert_after(("images", "cpu", "env", "VERL_USE_EXTERNAL_MODULES"), "      LD_PRELOAD: /x.so\n"),
     "images.cpu.env.LD_PRELOAD", "changes the loader or the package index", "LD_PRELOAD"),
    ("index-env", insert_after(("images", "cpu", "env", "VERL_USE_EXTERNAL_MODULES"),
                               "      PIP_INDEX_URL: http://evil.example/simple\n"),
     "images.cpu.env.PIP_INDEX_URL", "changes the loader or the package index", "PIP_INDEX_URL"),
    ("long-env-value", insert_after(("images", "cpu", "env", "VERL_USE_EXTERNAL_MODULES"),
                                    "      LONG: " + "x" * 200_000 + "\n"), "images.cpu.env.LONG",
     "at most 4096", "LONG"),
    # compatibility rules, each naming both pins
    ("rule-torch-npu", set_value(("components", "torch-npu", "version"), other_minor(M.components["torch-npu"].version)),
     "components.torch-npu", "torch-npu-matches-torch", "torch-npu:"),
    ("rule-mindspeed-line", set_value(("components", "mindspeed", "branch"), "core_r0.1.0"), "components.mindspeed",
     "mindspeed-matches-megatron", "mindspeed:"),
    ("rule-cpu-shares-megatron-line", set_value(("components", "megatron-core", "version"),
                                                other_minor(M.components["megatron-core"].version)),
     "components.megatron-core", "cpu-shares-npu-releases", "megatron-core:"),
    ("rule-cpu-shares-mooncake", set_value(("components", "mooncake-non-cuda", "version"),
                                           other_minor(M.components["mooncake-non-cuda"].version)),
     "components.mooncake-non-cuda", "cpu-shares-npu-releases", "mooncake-non-cuda:"),
    ("rule-base-python", substitute(f"-py{NPU.python}\n", "-py3.9\n"), "axes.backend.vllm.python", "base-python",
     "python:"),
    ("rule-ascend-direct-cpu", set_value(("components", "mooncake-non-cuda", "package"), "mooncake-transfer-engine-npu"),
     "components.mooncake-non-cuda", "ascend-direct-npu-only", "mooncake-non-cuda:"),
    ("rule-ascend-direct-npu", set_value(("components", "mooncake-npu", "package"), "mooncake-transfer-engine"),
     "components.mooncake-npu", "ascend-direct-npu-only", "mooncake-npu:"),
    ("rule-external-modules-missing", substitute("      VERL_USE_EXTERNAL_MODULES: verl_cpu_platform\n", "      OTHER: x\n"),
     "images.cpu.env", "must set VERL_USE_EXTERNAL_MODULES", "env:"),
    ("rule-url-version", substitute(f"vllm-{M.components['vllm'].version}.tar.gz", "vllm-0.0.1.tar.gz"),
     "components.vllm.url", "url-names-version", "vllm-0.0.1.tar.gz"),
    ("rule-vllm-line", set_value(("components", "vllm-ascend", "version"), other_minor(M.components["vllm-ascend"].version)),
     "components.vllm-ascend", "vllm-ascend-matches-vllm", "vllm-ascend:"),
    ("rule-vllm-ascend-source-soc", delete(("components", "vllm-ascend-source", "build", "soc_env")),
     "components.vllm-ascend-source.build", "vllm-ascend-source-soc", "build:"),
    ("rule-npu-base-env", delete(("components", "cann-9.1.0-a3", "env_scripts")), "components.cann-9.1.0-a3",
     "npu-base-env", "cann-9.1.0-a3:"),
    ("per-platform-role-misses-a-platform", delete(("images", "cpu", "stack", "torch", "linux/arm64")),
     "images.cpu.stack.torch", "name one component per platform", "torch:"),
    ("per-platform-role-unknown-platform", substitute("        linux/arm64: torch\n", "        linux/arm64: torch\n        linux/s390x: torch\n"),
     "images.cpu.stack.torch", "name one component per platform", "torch:"),
    ("rule-tag-names-a-per-platform-role", set_value(("images", "cpu", "tag"), "cpu-py{python}-torch{torch}"),
     "images.cpu.tag", "installs another component per platform", "tag:"),
    ("placeholder-of-no-axis", set_value(("axes", "backend", "sglang", "base"), "cann-x-{chip}"),
     "axes.backend.sglang.base", "uses {chip} but the image expands over device, soc, line, backend", "base:"),
    ("placeholder-names-no-component", set_value(("axes", "backend", "sglang", "stack", "sgl_kernel"), "kernels-{soc}"),
     "axes.backend.sglang.stack.sgl_kernel", "unknown component 'kernels-a2'", "sgl_kernel:"),
    ("archive-url-placeholder", substitute(KERNELS_URL, KERNELS_URL.replace("{version}", "{release}", 1)),
     f"components.{KERNELS.name}.builds.linux/arm64.url", "characters a URL here may not carry", "url:"),
    ("archive-without-wheels", delete(("components", KERNELS.name, "wheels")), f"components.{KERNELS.name}",
     "missing required key 'wheels'", f"{KERNELS.name}:"),
    ("archive-unpinned-and-not-external", delete(("components", KERNELS.name, "external")),
     f"components.{KERNELS.name}.builds.linux/arm64", "say in `external` why", "linux/arm64:"),
    ("rule-archive-cann", substitute(KERNELS_URL, KERNELS_URL.replace(f"-cann{SGLANG_CANN}-", f"-cann{other_minor(SGLANG_CANN)}-")),
     f"components.{KERNELS.name}.builds.linux/arm64.url", f"is built for CANN {other_minor(SGLANG_CANN)}", "url:"),
    ("rule-archive-soc", substitute(KERNELS_URL, KERNELS_URL.replace(f"cann{SGLANG_CANN}-{SGLANG.base.get('tag').split('-')[1]}-",
                                                                      f"cann{SGLANG_CANN}-910c-")),
     f"components.{KERNELS.name}.builds.linux/arm64.url", "is built for SoC 910c", "url:"),
    ("rule-archive-torch", substitute(KERNELS_URL, KERNELS_URL.replace(f"-torch{SGLANG.role('torch').version}-",
                                                                        f"-torch{other_minor(SGLANG.role('torch').version)}-")),
     f"components.{KERNELS.name}.builds.linux/arm64.url", f"is built for torch {other_minor(SGLANG.role('torch').version)}", "url:"),
    ("rule-archive-python", substitute(KERNELS_URL, KERNELS_URL.replace(f"-py{SGLANG.python.replace('.', '')}-",
                                                                         f"-py{NPU.python.replace('.', '')}-")),
     f"components.{KERNELS.name}.builds.linux/arm64.url", f"is built for python {NPU.python}", "url:"),
    ("rule-archive-arch", substitute(KERNELS_URL, KERNELS_URL.replace("-aarch64.zip", "-x86_64.zip")),
     f"components.{KERNELS.name}.builds.linux/arm64.url", "is the x86_64 build, listed for linux/arm64", "url:"),
    ("rule-archive-version", substitute(KERNELS_URL, KERNELS_URL.replace("{version}", "latest")),
     f"components.{KERNELS.name}.builds.linux/arm64.url", "url does not contain version", "url:"),
    ("rule-alternative-fit", set_value(("components", "mooncake-npu-source", "alternative_to"), "vllm-ascend"),
     "components.mooncake-npu-source.alternative_to", "alternatives-fit", "alternative_to:"),
    # ---- bad input, round three (issue 23): each a class the loader accepted, crashed on or hung on
    # 1. Docker's limits, including the suffixes the pipeline adds to a tag
    ("image-name-too-long-for-its-tags", rename_cpu("c" * (NAME_FITS + 1)), f"images.{'c' * (NAME_FITS + 1)}",
     f"longer than Docker's {grammar.MAX_TAG_CHARS}", "c" * (NAME_FITS + 1)),
    ("image-name-too-long-for-a-file", rename_cpu("c" * (grammar.MAX_FILE_NAME_BYTES + 1)),
     f"images.{'c' * (grammar.MAX_FILE_NAME_BYTES + 1)}", "file name", "cccc"),
    ("component-name-too-long-for-a-file", rename_component("setuptools", "s" * (grammar.MAX_FILE_NAME_BYTES + 1)),
     f"components.{'s' * (grammar.MAX_FILE_NAME_BYTES + 1)}", "file name", "sss"),
    ("human-tag-too-long-with-arch", human_tag(HUMAN_FITS + 1), f"images.{CPU.name}.tag",
     f"longer than Docker's {grammar.MAX_TAG_CHARS}", "tag:"),
    ("base-tag-too-long-with-arch", base_tag(BASE_FITS + 1), f"components.{BASE.name}.tag",
     f"longer than Docker's {grammar.MAX_TAG_CHARS}", "tag:"),
    ("repository-too-long-with-registry", set_value(("repository",), "r" * (REPOSITORY_FITS + 1)), "repository",
     f"longer than Docker's {grammar.MAX_NAME_CHARS}", "repository:"),
    ("registry-namespace-dot-dot", set_value(("registries", "quay", "url"), "quay.io/.."), "registries.quay.url",
     "path component", "url: quay.io/.."),
    ("registry-namespace-leading-dash", set_value(("registries", "quay", "url"), "quay.io/-ascend"),
     "registries.quay.url", "path component", "url: quay.io/-ascend"),
    ("registry-host-double-dot", set_value(("registries", "quay", "url"), "quay..io/ascend"),
     "registries.quay.url", "host", "url: quay..io"),
    ("image-host-double-dot", set_value(("components", BASE.name, "image"), "docker..io/library/debian"),
     f"components.{BASE.name}.image", "host", "docker..io"),
    ("image-path-leading-dot", set_value(("components", BASE.name, "image"), "docker.io/.library/debian"),
     f"components.{BASE.name}.image", "path component", ".library"),
    # 2. URLs are read as written: nothing is dropped before they are checked
    ("git-url-with-newline", set_value(("components", "megatron-lm", "repo"),
                                        f'"{M.components["megatron-lm"].get("repo")}\\nx"'),
     "components.megatron-lm.repo", "control character", "repo:"),
    ("index-url-with-tab", set_value(("indexes", "pytorch-cpu", "url"), f'"{M.indexes["pytorch-cpu"].url}\\t"'),
     "indexes.pytorch-cpu.url", "control character", "url:"),
    ("index-url-with-leading-space", set_value(("indexes", "pytorch-cpu", "url"), f'" {M.indexes["pytorch-cpu"].url}"'),
     "indexes.pytorch-cpu.url", "space", "url:"),
    ("file-url-with-a-host", set_value(("indexes", "pytorch-cpu", "url"), "file://files.example/simple"),
     "indexes.pytorch-cpu.url", "file:// URL names no host", "file://files.example"),
    ("url-template-with-epoch-version", set_value(("components", KERNELS.name, "version"), f'"1!{KERNELS.version}"'),
     f"components.{KERNELS.name}.builds.linux/arm64.url", f"with version 1!{KERNELS.version}", "url:"),
    # 3. a value that becomes an argument cannot be read as an option
    ("script-read-as-option", set_value(("components", "mooncake-npu-source", "build", "deps_script"), "-c id"),
     "components.mooncake-npu-source.build.deps_script", "read as an option", "deps_script: -c id"),
    ("script-read-as-plus-option", set_value(("components", "mooncake-npu-source", "build", "wheel_script"), "+x"),
     "components.mooncake-npu-source.build.wheel_script", "read as an option", "wheel_script: +x"),
    # 4. YAML the loader must refuse, not crash on
    ("python-object-tag", set_value(("components", "torch", "reason"), "!!python/object/apply:os.system [id]"), None,
     "tags (!!python/object/apply:os.system) are not allowed", "reason:"),
    ("local-tag-on-flow-list", set_value(("components", "verl", "extras"), "!x [verl-core]"), None,
     "tags (!x) are not allowed", "extras:"),
    ("local-tag-on-flow-mapping", set_value(("components", "torch", "reason"), "!x {a: 1}"), None,
     "tags (!x) are not allowed", "reason:"),
    ("huge-integer", set_value(("schema",), "9" * 5000), None, "number", "schema:"),
    ("huge-hex-integer", set_value(("schema",), "0x" + "f" * 5000), None, "number", "schema:"),
    ("invalid-date", set_value(("components", "torch", "reason"), "2001-13-45"), None, "date", "reason:"),
    ("nested-list-as-key", insert_after(("schema",), "? [[a]]\n: 1\n"), None, "keys must be plain strings", "? [[a]]"),
    ("deep-flow-nesting", set_value(("components", "torch", "reason"), "[" * 20000 + "]" * 20000), None,
     "nesting is too deep", "reason:"),
    ("deep-block-nesting", insert_after(("schema",), "deep:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(600))),
     None, "nesting is too deep", "k"),
    # 5. the expansion is bounded before it runs
    ("a-million-images", explode(6, 10), f"images.{CPU.name}" + "".join(f"-{{x{a}}}" for a in range(6)) + ".expand",
     f"at most {load.MAX_BUILDS}", "expand:"),
    ("more-builds-than-the-bound", explode(2, OVER_BUILDS), f"images.{CPU.name}-{{x0}}-{{x1}}.expand",
     f"at most {load.MAX_BUILDS}", "expand:"),
    # 6. one line means one line: no Unicode line or paragraph separator, no lone surrogate
    ("reason-with-line-separator", set_value(("components", "torch", "reason"), '"first\\Lsecond"'),
     "components.torch.reason", "one line of text", "reason:"),
    ("reason-with-next-line", set_value(("components", "torch", "reason"), '"first\\Nsecond"'),
     "components.torch.reason", "one line of text", "reason:"),
    ("tier-doc-with-paragraph-separator", set_value(("tiers", 0, "doc"), '"first\\Psecond"'),
     "tiers[0].doc", "one line of text", "doc:"),
    ("reason-with-lone-surrogate", set_value(("components", "torch", "reason"), '"half \\ud800 a pair"'),
     "components.torch.reason", "one line of text", "reason:"),
    ("key-with-line-separator", insert_after(("schema",), '"x\\Ly": 1\n'), "x\\u2028y", "unknown key", '"x\\Ly"'),
    ("requirement-with-line-separator", set_value(("components", KERNELS.name, "requires"), '["torch; extra == \'a\\Lb\'"]'),
     f"components.{KERNELS.name}.requires[0]", "one line of text", "requires:"),
    # CI runners: hosted build runners apart from device runners; a platform without a device runner is waived
    ("runners-old-flat-table", substitute("runners:\n  build:\n", "runners:\n  hosted:\n"), "runners.hosted",
     "unknown key", "hosted:"),
    ("rule-runners-platform-without-device-runner-or-waiver",
     substitute(at("axes", "device", "npu", "device_checks_waived")
                + at("axes", "device", "npu", "device_checks_waived", "linux/amd64"), ""),
     "axes.soc.a2.runner", "has no runs_on for linux/amd64", "runner: ascend-a2"),
    ("rule-runners-waiver-where-a-runner-exists", insert_after(("axes", "device", "npu",
                                                                "device_checks_waived", "linux/amd64"),
                                                               "        linux/arm64: no reason\n"),
     "axes.device.npu.device_checks_waived.linux/arm64", "remove the waiver", "linux/arm64: no reason"),
    ("rule-runners-no-build-runner", delete(("runners", "build", "linux/arm64")), "runners.build",
     "no build runner for linux/arm64", "build:"),
    ("rule-runners-device-mismatch", set_value(("images", "cpu", "runner"), "ascend-a2"), "images.cpu.runner",
     "holds a npu, not the cpu", "runner: ascend-a2"),
    ("waiver-without-reason", set_value(("axes", "device", "npu", "device_checks_waived", "linux/amd64"), '""'),
     "axes.device.npu.device_checks_waived.linux/amd64", "must not be empty", "linux/amd64:"),
    ("rule-roles-missing", delete(("images", "cpu", "stack", "transformers")), "images.cpu.stack",
     "[roles] image 'cpu' (cpu) needs a 'transformers' component", "stack:"),
    ("rule-roles-npu-only", insert_after(("images", "cpu", "stack", "verl"), "      torch_npu: torch-npu\n"),
     "images.cpu.stack.torch_npu", "[roles] 'torch_npu' is for npu images only", "torch_npu:"),
    ("rule-roles-backend", insert_after(("axes", "backend", "vllm", "stack", "vllm_ascend"), "        sglang: sglang\n"),
     "axes.line.latest.stack",
     "[roles] npu image 'npu-a2' needs exactly one rollout backend", "stack:"),  # where the merged stack starts
    ("rule-soc-npu-without", delete(("axes", "soc", "a3", "soc_version")), "images.npu-{soc}",
     "[soc] npu image 'npu-a3' needs soc_version", "npu-{soc}:"),
    ("rule-soc-cpu-with", insert_after(("images", "cpu", "runner"), "    soc_version: ascend910b1\n"),
     "images.cpu.soc_version", "[soc] cpu image 'cpu' must not set soc_version", "soc_version:"),
    ("rule-patch-target", set_value(("patches", "mbridge-dequant-device", "target", "package"), "vllm-ascend"),
     "patches.mbridge-dequant-device.target.package",
     "[patch-targets-installed] patch 'mbridge-dequant-device' targets 'vllm-ascend', which image 'npu-sglang-a2' "
     "does not install", "package: vllm-ascend"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_exits_2_with_one_line(repo_copy, case):
    _, change, key, words, line_text = case
    pins = repo_copy / "pins.yaml"
    pins.write_text("".join(change(list(LINES))))
    before = tree_snapshot(repo_copy / "images")

    result = run_in_process("render", root=repo_copy)

    assert result.returncode == 2, result.stdout + result.stderr
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


@pytest.mark.parametrize("change", [rename_cpu("c" * NAME_FITS), human_tag(HUMAN_FITS), base_tag(BASE_FITS),
                                    set_value(("repository",), "r" * REPOSITORY_FITS)],
                         ids=["image-name", "human-tag", "base-tag", "repository"])
def test_a_reference_exactly_as_long_as_docker_allows_is_accepted(repo_copy, change):
    (repo_copy / "pins.yaml").write_text("".join(change(list(LINES))))
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 0, result.stderr


BYTES = (REPO / "pins.yaml").read_bytes()


@pytest.mark.parametrize("bad", [b"\x00", b"\xff", b"\xed\xa0\x80", b"\x7f", b"\xc2\x9f"],
                         ids=["nul", "not-utf-8", "encoded-surrogate", "delete", "c1-control"])
def test_a_byte_yaml_refuses_is_reported_on_its_line(repo_copy, bad):
    line = line_of("components", "torch", "reason")
    lines = BYTES.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].replace(b"reason: ", b"reason: x" + bad, 1)
    (repo_copy / "pins.yaml").write_bytes(b"".join(lines))
    before = tree_snapshot(repo_copy / "images")
    result = run_in_process("render", root=repo_copy)
    assert result.returncode == 2, result.stderr
    assert re.fullmatch(rf"error: pins\.yaml:{line}: [^\n]+\n", result.stderr), result.stderr
    assert tree_snapshot(repo_copy / "images") == before


def test_rule_message_names_both_pins(repo_copy):
    pins = repo_copy / "pins.yaml"
    moved = other_minor(TORCH.version)
    pins.write_text("".join(set_value(("components", "torch", "version"), moved)(list(LINES))))
    message = run_build("validate", root=repo_copy).stderr
    assert f"torch-npu {M.components['torch-npu'].version} (pins.yaml:" in message and \
        f"torch {moved} (pins.yaml:" in message, message


def test_an_archive_built_for_another_cann_is_refused_naming_both_pins(repo_copy):
    other = other_minor(SGLANG_CANN)
    edited = KERNELS_URL.replace(f"-cann{SGLANG_CANN}-", f"-cann{other}-")
    (repo_copy / "pins.yaml").write_text("".join(substitute(KERNELS_URL, edited)(list(LINES))))
    message = run_in_process("validate", root=repo_copy).stderr
    url_line = next(i for i, line in enumerate(LINES, 1) if KERNELS_URL in line)
    assert f"{KERNELS.name} {KERNELS.version} for linux/arm64 (pins.yaml:{url_line})" in message, message
    assert f"{SGLANG.base.name} {SGLANG.base.reference} (pins.yaml:{line_of('components', SGLANG.base.name)})" in message
    assert f"CANN {other}" in message and f"is CANN {SGLANG_CANN}" in message, message


def test_missing_file_is_a_clear_error(tmp_path):
    result = run_build("validate", root=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and "pins.yaml" in result.stderr and "Traceback" not in result.stderr


def test_empty_file(repo_copy):
    (repo_copy / "pins.yaml").write_text("")
    result = run_build("validate", root=repo_copy)
    assert result.returncode == 2 and "must be a mapping" in result.stderr
