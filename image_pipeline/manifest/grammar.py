"""The grammar of every value that can reach a Dockerfile, a shell or a URL.

Each checker returns nothing for a good value and raises ValueError saying what is wrong;
they are registered as JSON Schema `format`s (see schema.py), so pins.schema.json names the
grammar of each field. None of them lets a shell metacharacter, a quote, a newline or a
credential through.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

CHECKERS: dict = {}

# What may appear in a URL path/query that we hand to pip, git or curl: no quotes, spaces,
# backslashes, `$`, backticks, `;`, `|`, `&`, `<`, `>`, `(`, `)`, `{`, `}`, `*`, or `!`.
_URL_TAIL = r"[A-Za-z0-9._~/%+:=@,-]*"
# pip options the template may pass through, with their meaning.
PIP_OPTIONS = {"--no-build-isolation": "build against the venv (no isolated build env)",
               "--no-deps": "install only this distribution", "--no-binary=:all:": "build from source"}


def checks(name: str):
    def register(func):
        CHECKERS[name] = func
        return func
    return register


def _match(pattern: str, value: str, what: str) -> None:
    if not re.fullmatch(pattern, value):
        raise ValueError(f"{value!r} is not {what}")


@checks("name")
def name(value):
    _match(r"[a-z0-9][a-z0-9_.-]*", value, "a lowercase name ([a-z0-9_.-])")


@checks("identifier")
def identifier(value):
    _match(r"[a-z_][a-z0-9_]*", value, "an identifier ([a-z0-9_])")


@checks("image-name-template")
def image_name_template(value):
    _match(r"[a-z0-9][a-z0-9_.-]*(\{[a-z_][a-z0-9_]*\}[a-z0-9_.-]*)*", value,
           "an image name ([a-z0-9_.-], optionally with {axis} placeholders)")


@checks("component-ref")
def component_ref(value):
    _match(r"(?:[a-z0-9]|\{[a-z_][a-z0-9_]*\})(?:[a-z0-9_.-]|\{[a-z_][a-z0-9_]*\})*", value,
           "a component name ([a-z0-9_.-], optionally with {axis} placeholders)")


@checks("one-line")
def one_line(value):
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ValueError("must be one line of text (no newline or control character): it is a table row")


@checks("exact-version")
def exact_version(value):
    try:
        Version(value)
    except InvalidVersion:
        raise ValueError(f"{value!r} is not a valid PEP 440 version") from None
    if not re.fullmatch(r"[0-9A-Za-z.+!_-]+", value):
        raise ValueError(f"{value!r} is not a plain version")


@checks("local-version")
def local_version(value):
    _match(r"[a-z0-9]+(\.[a-z0-9]+)*", value, "a local version label such as cpu")


@checks("python-version")
def python_version(value):
    _match(r"3\.[0-9]+", value, 'major.minor, e.g. "3.11"')


@checks("glibc-version")
def glibc_version(value):
    _match(r"2_[0-9]+", value, "a glibc version written as in manylinux tags, e.g. 2_35")


@checks("https-url")
def https_url(value):
    _url(value, ("https",))


@checks("https-url-template")
def https_url_template(value):
    _url(re.sub(r"\{[a-z_][a-z0-9_]*\}", "x", value), ("https",))


@checks("index-url")
def index_url(value):
    _url(value, ("https", "file"))


@checks("artifact-url-template")
def artifact_url_template(value):
    _url(value.replace("{version}", "0"), ("https", "file"))


@checks("git-url")
def git_url(value):
    _url(value, ("https", "file"))


@checks("apt-mirror")
def apt_mirror(value):
    _url(value, ("http", "https"))


def _url(value, schemes):
    parts = urlsplit(value)
    if parts.scheme not in schemes:
        raise ValueError(f"must be an {' or '.join(s + '://' for s in schemes)} URL, got {value!r}")
    if parts.username or parts.password or "@" in parts.netloc:
        raise ValueError(f"must be a URL without credentials, got {value!r}")
    if parts.scheme != "file" and not re.fullmatch(r"[A-Za-z0-9.-]+(:[0-9]+)?", parts.netloc):
        raise ValueError(f"{value!r} has no valid host")
    if not re.fullmatch(_URL_TAIL, parts.path + ("?" + parts.query if parts.query else "")) or parts.fragment:
        raise ValueError(f"{value!r} has characters a URL here may not carry (quotes, spaces, shell syntax)")


@checks("registry")
def registry(value):
    _match(r"[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)*", value, "a registry host with an optional namespace")


@checks("docker-repository")
def docker_repository(value):
    _match(r"[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*", value, "a docker repository name")


@checks("image-repository")
def image_repository(value):
    _match(r"[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9]+([._-][a-z0-9]+)*)+", value,
           "an image repository such as quay.io/ascend/cann")


@checks("docker-tag")
def docker_tag(value):
    _match(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}", value, "a docker tag")


@checks("tag-template")
def tag_template(value):
    _match(r"([A-Za-z0-9_.-]|\{[a-z_][a-z0-9_]*\})+", value, "a docker tag with {field} placeholders")


@checks("image-digest")
def image_digest(value):
    _match(r"sha256:[0-9a-f]{64}", value, "sha256:<64 hex>")


@checks("sha1")
def sha1(value):
    _match(r"[0-9a-f]{40}", value, "a full 40-hex commit sha")


@checks("sha256")
def sha256(value):
    _match(r"[0-9a-f]{64}", value, "64 lowercase hex characters (a sha256)")


@checks("git-ref")
def git_ref(value):
    if (not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/+-]*", value) or ".." in value or "//" in value
            or value.endswith((".lock", "/", ".")) or "@{" in value):
        raise ValueError(f"{value!r} is not a valid git ref name")


@checks("distribution")
def distribution(value):
    _match(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", value, "a Python distribution name")


@checks("extra")
def extra(value):
    _match(r"[a-z0-9]([a-z0-9._-]*[a-z0-9])?", value, "an extra name")


@checks("pep508")
def pep508(value):
    try:
        requirement = Requirement(value)
    except InvalidRequirement as exc:
        raise ValueError(f"{value!r} is not a PEP 508 requirement ({exc})") from None
    if requirement.url:
        raise ValueError(f"{value!r} is a direct URL reference: pin it as a component instead")
    if canonicalize_name(requirement.name) != canonicalize_name(requirement.name.strip()):
        raise ValueError(f"{value!r} has an invalid name")


@checks("debian-package")
def debian_package(value):
    _match(r"[a-z0-9][a-z0-9+.-]+", value, "a Debian package name")


@checks("env-name")
def env_name(value):
    _match(r"[A-Za-z_][A-Za-z0-9_]*", value, "an environment variable name")


@checks("env-value")
def env_value(value):
    # ${NAME} references are Docker ENV substitution, everything else is literal
    plain = re.sub(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}", "", value)
    _match(r"[A-Za-z0-9_./:,=+@%-]*", plain,
           "an environment value here (letters, digits, _./:,=+@%- and ${NAME} references)")


@checks("python-modules")
def python_modules(value):
    for module in filter(None, value.split(",")):
        _match(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", module, "a Python module name")


@checks("cmake-option")
def cmake_option(value):
    _match(r"-D[A-Z][A-Z0-9_]*(:[A-Z]+)?=[A-Za-z0-9_.+/-]*", value, "a CMake -DNAME=VALUE option")


@checks("pip-option")
def pip_option(value):
    if value not in PIP_OPTIONS:
        raise ValueError(f"{value!r} is not an allowed pip option ({', '.join(PIP_OPTIONS)})")


@checks("relative-path")
def relative_path(value):
    if value.startswith("/") or ".." in value.split("/"):
        raise ValueError(f"{value!r} must be a path relative to its tree, without ..")
    _match(r"[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*", value, "a relative path")


@checks("relative-glob")
def relative_glob(value):
    relative_path(value.replace("*", "x"))


@checks("absolute-path")
def absolute_path(value):
    _match(r"(/[A-Za-z0-9_.+-]+)+", value, "an absolute path")


@checks("script-command")
def script_command(value):
    script, *args = value.split(" ")
    relative_path(script)
    for arg in args:
        _match(r"-{0,2}[A-Za-z0-9_.=-]+", arg, "a plain script argument")


@checks("patch-file")
def patch_file(value):
    relative_path(value)
    if not value.startswith("patches/") or not value.endswith(".diff"):
        raise ValueError(f"{value!r} must be a .diff file under patches/")


@checks("soc-version")
def soc_version(value):
    _match(r"ascend[0-9a-z_]+", value, "an Ascend SoC version such as ascend910b1")


@checks("soname")
def soname(value):
    _match(r"lib[A-Za-z0-9_.+-]+\.so(\.[0-9]+)*", value, "a shared library name such as libascend_hal.so")


@checks("label")
def label(value):
    _match(r"[A-Za-z0-9][A-Za-z0-9._-]*", value, "a runner label")
