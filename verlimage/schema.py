"""The pins.yaml schema, as data.

The loader validates against these tables and the README's schema section is
generated from them, so the documentation cannot drift from what is enforced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from packaging.version import InvalidVersion, Version

SOURCES = ("pypi", "git", "url", "image")
DEVICES = ("npu", "cpu")
# Install roles, in the order the template installs them. The order is the point:
# transformers goes after vllm-ascend and the bridge, which pin older releases.
ROLES = ("torch", "torch_npu", "vllm", "vllm_ascend", "megatron", "mindspeed", "bridge",
         "mooncake", "verl", "transformers")
REQUIRED_ROLES = {
    "cpu": ("torch", "megatron", "bridge", "mooncake", "transformers", "verl"),
    "npu": ROLES,
}
NPU_ONLY_ROLES = ("torch_npu", "vllm_ascend", "mindspeed")
# Pins no later install may move (pip constraints in the build stage): torch_npu is built for one torch.
PROTECTED_ROLES = ("torch", "torch_npu")
RUNNERS = ("hosted-cpu", "ascend-a2", "ascend-a3")


def _is_str(value):
    return isinstance(value, str) and value != ""


def _check_str(value):
    if not isinstance(value, str):
        return f"must be a string, got {_kind(value)}"
    if value == "":
        return "must not be empty"
    return None


def _check_text(value):
    return None if isinstance(value, str) else f"must be a string, got {_kind(value)}"


def _check_version(value):
    if not isinstance(value, str):
        hint = " (quote it: YAML reads 2.10 as the number 2.1)" if isinstance(value, (int, float)) else ""
        return f"must be a version string, got {_kind(value)}{hint}"
    try:
        Version(value)
    except InvalidVersion:
        return f"{value!r} is not a valid PEP 440 version"
    return None


def _check_python(value):
    problem = _check_version(value)
    if problem:
        return problem
    if not re.fullmatch(r"3\.\d+", value):
        return f"{value!r} must be major.minor, e.g. \"3.11\""
    return None


def _check_sha1(value):
    if isinstance(value, int):
        return "must be a quoted string: YAML reads an all-digit sha as a number"
    if not (isinstance(value, str) and re.fullmatch(r"[0-9a-f]{40}", value)):
        return f"must be a full 40-hex commit sha, got {value!r}"
    return None


def _check_sha256(value):
    if not (isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value)):
        return f"must be 64 lowercase hex characters, got {value!r}"
    return None


def _check_digest(value):
    if not (isinstance(value, str) and re.fullmatch(r"sha256:[0-9a-f]{64}", value)):
        return f"must be sha256:<64 hex>, got {value!r}"
    return None


def _check_url(value):
    if not (isinstance(value, str) and re.fullmatch(r"https?://[^\s@]+", value)):
        return f"must be an http(s) URL without credentials, got {value!r}"
    return None


def _check_git_repo(value):
    if not (isinstance(value, str) and re.fullmatch(r"(https://[^\s@]+|file://\S+)", value)):
        return f"must be an https:// (or file://) git URL without credentials, got {value!r}"
    return None


def _check_ref(value):
    problem = _check_str(value)
    if problem:
        return problem
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/+-]*", value):
        return f"{value!r} is not a valid git ref name"
    return None


def _check_bool(value):
    return None if isinstance(value, bool) else f"must be true or false, got {_kind(value)}"


def _check_int(value):
    return None if isinstance(value, int) and not isinstance(value, bool) else f"must be an integer, got {_kind(value)}"


def check_name(value):
    if not (isinstance(value, str) and re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", value)):
        return f"must be a lowercase name ([a-z0-9_.-]), got {value!r}"
    return None


def check_str_list(value):
    if not isinstance(value, list):
        return f"must be a list of strings, got {_kind(value)}"
    for item in value:
        if not _is_str(item):
            return f"every item must be a non-empty string, got {item!r}"
    if len(set(value)) != len(value):
        return "has duplicate items"
    return None


def _check_env(value):
    if not isinstance(value, dict):
        return f"must be a mapping of NAME: value, got {_kind(value)}"
    for key, item in value.items():
        if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", key):
            return f"{key!r} is not an environment variable name"
        if not isinstance(item, str):
            return f"{key} must be a string (quote numbers), got {_kind(item)}"
    return None


def _check_platforms(value):
    problem = check_str_list(value)
    if problem:
        return problem
    for item in value:
        if item not in ("linux/amd64", "linux/arm64"):
            return f"{item!r} is not one of linux/amd64, linux/arm64"
    return None


def _kind(value):
    if value is None:
        return "nothing (null)"
    return {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a mapping"}.get(
        type(value), type(value).__name__)


def one_of(*choices):
    def check(value):
        return None if value in choices else f"must be one of {', '.join(choices)}, got {value!r}"
    check.__doc__ = " | ".join(choices)
    return check


@dataclass(frozen=True)
class Field:
    name: str
    check: Callable
    doc: str
    required: bool = False
    nested: tuple = ()  # Fields of a nested mapping


def fields(*items):
    return {f.name: f for f in items}


BUILD = fields(
    Field("env", _check_env, "environment for the build of this component"),
    Field("cmake", check_str_list, "extra CMake options (source builds)"),
    Field("pip", check_str_list, "extra `pip install` options"),
    Field("requirements", _check_str, "requirements file in the source tree installed before it"),
    Field("deps_script", _check_str, "script in the source tree that installs its system build deps"),
    Field("wheel_script", _check_str, "script in the source tree that builds the wheel after CMake"),
    Field("wheel_glob", _check_str, "where wheel_script leaves the wheel, relative to the source tree"),
)
BOOTSTRAP = fields(
    Field("suite", _check_str, "Debian suite for debootstrap", required=True),
    Field("variant", _check_str, "debootstrap variant (default minbase)"),
    Field("mirror", _check_url, "Debian mirror (overridable by the network profile)"),
)

COMMON = (
    Field("source", one_of(*SOURCES), "where the pin comes from: " + " | ".join(SOURCES), required=True),
    Field("reason", _check_text, "why it is pinned there (required for a bump to land)"),
    Field("issue", _check_url, "link explaining the pin (required for pins that reach NPU images)"),
)
COMPONENT = {
    "pypi": fields(
        *COMMON,
        Field("package", _check_str, "distribution name when it differs from the component name"),
        Field("version", _check_version, "exact release", required=True),
        Field("cpu_index", _check_url, "index holding the CPU-only build (torch on x86_64)"),
        Field("build", None, "build settings", nested=tuple(BUILD.values())),
    ),
    "git": fields(
        *COMMON,
        Field("package", _check_str, "distribution the source installs"),
        Field("version", _check_version, "release the source provides, when the ref does not say"),
        Field("repo", _check_git_repo, "clone URL", required=True),
        Field("tag", _check_ref, "tag to check out (exactly one of tag, branch)"),
        Field("branch", _check_ref, "branch to check out (exactly one of tag, branch)"),
        Field("commit", _check_sha1, "full sha the ref must resolve to: the build fails if it moved", required=True),
        Field("build", None, "build settings", nested=tuple(BUILD.values())),
    ),
    "url": fields(
        *COMMON,
        Field("package", _check_str, "distribution the artifact installs"),
        Field("version", _check_version, "release the artifact is", required=True),
        Field("url", _check_url, "download URL; must contain the version", required=True),
        Field("sha256", _check_sha256, "checksum the download must match", required=True),
        Field("build", None, "build settings", nested=tuple(BUILD.values())),
    ),
    "image": fields(
        *COMMON,
        Field("image", _check_str, "repository, e.g. quay.io/ascend/cann", required=True),
        Field("tag", _check_str, "tag; a pyX.Y in it must equal the image's python", required=True),
        Field("digest", _check_digest, "sha256 digest the tag must resolve to"),
        Field("python", _check_python, "system python when the tag does not say it"),
        Field("env_scripts", check_str_list, "scripts every build step and the entrypoint source (CANN set_env.sh)"),
        Field("bootstrap", None, "how to make the base locally when no registry answers",
              nested=tuple(BOOTSTRAP.values())),
    ),
}

STACK = fields(*(Field(role, check_name, f"component installed as {role}") for role in ROLES))
APT = fields(
    Field("build", check_str_list, "Debian/Ubuntu packages for the build stage only"),
    Field("runtime", check_str_list, "packages the final image keeps"),
)
IMAGE = fields(
    Field("expand", None, "axis: [values] to expand over; one image per combination"),
    Field("override", None, "expanded-name: {field: value} for single images"),
    Field("default", _check_bool, "the image `make image` builds (exactly one)"),
    Field("device", one_of(*DEVICES), "npu | cpu: decides which roles are needed", required=True),
    Field("base", check_name, "base image component", required=True),
    Field("python", _check_python, "python major.minor", required=True),
    Field("platforms", _check_platforms, "linux/amd64 and/or linux/arm64", required=True),
    Field("runner", one_of(*RUNNERS), "CI runner kind that can build and smoke-test it", required=True),
    Field("soc_version", _check_str, "Ascend SoC (npu images)"),
    Field("tag", _check_str, "human tag; {python} {soc} {backend} and {<component>} are replaced",
          required=True),
    Field("stack", None, "role: component", required=True, nested=tuple(STACK.values())),
    Field("apt", None, "system packages", nested=tuple(APT.values())),
    Field("env", _check_env, "image ENV; must set VERL_USE_EXTERNAL_MODULES (may be \"\")", required=True),
    Field("patches", check_str_list, "patches (from the top-level patches) applied in the image"),
)
AXIS_FIELDS = {name: f for name, f in IMAGE.items() if name not in ("expand", "override", "default")}

PATCH_TARGET = fields(
    Field("package", _check_str, "installed distribution that owns the file", required=True),
    Field("file", _check_str, "path of the file inside site-packages", required=True),
)
PATCH = fields(
    Field("target", None, "file to patch", required=True, nested=tuple(PATCH_TARGET.values())),
    Field("sha256", _check_sha256, "fingerprint of the upstream file the diff was made against", required=True),
    Field("diff", _check_str, "unified diff under patches/", required=True),
    Field("reason", _check_str, "what the patch fixes", required=True),
    Field("issue", _check_url, "upstream issue or fix"),
)

TOP = fields(
    Field("schema", _check_int, "schema version (1)", required=True),
    Field("repository", check_name, "repository name of built images", required=True),
    Field("components", None, "name: pin", required=True),
    Field("axes", None, "axis: {value: {image fields}}"),
    Field("images", None, "name: image (names may contain {axis})", required=True),
    Field("patches", None, "name: patch declaration"),
)


def check_fields(data, table, keypath, doc, require=True):
    """Validate a mapping against a table of Fields; raise the first problem.

    require=False leaves required keys to a later check (image fields may come from axes).
    """
    if not isinstance(data, dict):
        raise doc.error(keypath, f"must be a mapping, got {_kind(data)}")
    for key in data:
        if key not in table:
            raise doc.error(keypath + (key,), f"unknown key{suggest(key, table)}")
    for name, spec in table.items():
        if name not in data:
            if spec.required and require:
                raise doc.error(keypath, f"missing required key {name!r}")
            continue
        value = data[name]
        if spec.nested:
            check_fields(value, {f.name: f for f in spec.nested}, keypath + (name,), doc)
        elif spec.check is not None:
            problem = spec.check(value)
            if problem:
                raise doc.error(keypath + (name,), problem)


def suggest(key, table):
    import difflib

    close = difflib.get_close_matches(key, list(table), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (expected one of: {', '.join(table)})"


def release_of_tag(tag: str) -> Version | None:
    """The leading version in a tag: v0.23.0 -> 0.23.0, 9.1.0-910b-... -> 9.1.0."""
    match = re.match(r"v?(\d+(?:\.\d+)*(?:\.?post\d+)?)", tag)
    if not match:
        return None
    try:
        return Version(match.group(1))
    except InvalidVersion:
        return None


def python_of_tag(tag: str) -> str | None:
    match = re.search(r"py(3\.\d+)", tag)
    return match.group(1) if match else None


def table_rows():
    """(section, key, required, description) for the README's schema section."""
    sections = [("top level", TOP)]
    sections += [(f"components.* (source: {s})", t) for s, t in COMPONENT.items()]
    sections += [("build", BUILD), ("bootstrap", BOOTSTRAP), ("images.*", IMAGE), ("stack", STACK),
                 ("apt", APT), ("patches.*", PATCH), ("patches.*.target", PATCH_TARGET)]
    for section, table in sections:
        for spec in table.values():
            yield section, spec.name, spec.required, spec.doc
