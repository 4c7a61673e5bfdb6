"""The grammar of every value that can reach a Dockerfile, a shell or a URL.

Each checker returns nothing for a good value and raises ValueError saying what is wrong;
they are registered as JSON Schema `format`s (see schema.py), so pins.schema.json names the
grammar of each field. None of them lets a shell metacharacter, a quote, a newline or a
credential through. One validator per kind of value, used by every format of that kind:
one_line (text), url (URLs, checked as written), host, repository and docker_tag (Docker's
reference grammar and limits), argument (values that become command-line arguments) and
file_name.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from urllib.parse import urlsplit

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from ..errors import NOT_ONE_LINE

CHECKERS: dict = {}
# Formats whose values become command-line arguments (bash, apt-get, debootstrap, git, pip, uv,
# docker, build.py in CI): none may start like an option (see `argument`).
ARGUMENTS: set = set()

# Docker's limits (distribution's reference grammar): a tag is at most 128 characters, a repository
# name, its registry host included, at most 255.
MAX_TAG_CHARS = 128
MAX_NAME_CHARS = 255
# NAME_MAX of Linux file systems (ext4, xfs, btrfs, overlayfs): the longest name of one file, in bytes
MAX_FILE_NAME_BYTES = 255
# one component of a repository path, and a registry host (distribution's reference grammar)
PATH_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_DOMAIN_LABEL = r"(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])"
HOST = rf"{_DOMAIN_LABEL}(?:\.{_DOMAIN_LABEL})*(?::[0-9]+)?"

# What may appear in a URL path/query that we hand to pip, git or curl: no quotes, spaces,
# backslashes, `$`, backticks, `;`, `|`, `&`, `<`, `>`, `(`, `)`, `{`, `}`, `*`, or `!`.
_URL_TAIL = r"[A-Za-z0-9._~/%+:=@,-]*"
# pip options the template may pass through, with their meaning.
PIP_OPTIONS = {"--no-build-isolation": "build against the venv (no isolated build env)",
               "--no-deps": "install only this distribution", "--no-binary=:all:": "build from source"}


def checks(name: str, *, argv: bool = False):
    """Register a format; argv=True: its values become command-line arguments."""
    def register(func):
        checker = _not_an_option(func) if argv else func
        CHECKERS[name] = checker
        if argv:
            ARGUMENTS.add(name)
        return checker
    return register


def argument(value: str) -> None:
    """A value that becomes a command-line argument: a program must not read it as an option."""
    if value.startswith(("-", "+")):
        raise ValueError(f"{value!r} could be read as an option where it becomes a command-line argument")


def _not_an_option(func):
    @functools.wraps(func)
    def check(value):
        argument(value)
        func(value)
    return check


def _match(pattern: str, value: str, what: str) -> None:
    if not re.fullmatch(pattern, value):
        raise ValueError(f"{value!r} is not {what}")


@checks("name", argv=True)  # a Debian suite is a debootstrap argument
def name(value):
    _match(r"[a-z0-9][a-z0-9_.-]*", value, "a lowercase name ([a-z0-9_.-])")
    file_name(value)  # a component's source tree is src/<name> in the build context


@checks("identifier")
def identifier(value):
    _match(r"[a-z_][a-z0-9_]*", value, "an identifier ([a-z0-9_])")


@checks("image-name-template", argv=True)  # `build.py push IMAGE` in CI
def image_name_template(value):
    _match(r"[a-z0-9][a-z0-9_.-]*(\{[a-z_][a-z0-9_]*\}[a-z0-9_.-]*)*", value,
           "an image name ([a-z0-9_.-], optionally with {axis} placeholders)")


@checks("component-ref")
def component_ref(value):
    _match(r"(?:[a-z0-9]|\{[a-z_][a-z0-9_]*\})(?:[a-z0-9_.-]|\{[a-z_][a-z0-9_]*\})*", value,
           "a component name ([a-z0-9_.-], optionally with {axis} placeholders)")


@checks("one-line")
def one_line(value):
    bad = next((c for c in value if unicodedata.category(c) in NOT_ONE_LINE), None)
    if bad is not None:
        raise ValueError(f"must be one line of text (no line break, control character or lone surrogate; found "
                         f"U+{ord(bad):04X}): it is written line by line (tables, Dockerfile comments, requirements)")
    hidden = next((c for c in value if unicodedata.category(c) == "Cf"), None)
    if hidden is not None:  # bidi overrides (U+202E) and zero-width characters show text other than it is
        raise ValueError(f"must not hold an invisible format character (found U+{ord(hidden):04X}): what a reader "
                         f"sees must be what it says")
    if value and not any(c.isprintable() and not c.isspace() for c in value):
        raise ValueError("must say something: it holds no visible character")


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


@checks("python-version", argv=True)
def python_version(value):
    _match(r"3\.[0-9]+", value, 'major.minor, e.g. "3.11"')


@checks("glibc-version")
def glibc_version(value):
    _match(r"2_[0-9]+", value, "a glibc version written as in manylinux tags, e.g. 2_35")


@checks("https-url", argv=True)
def https_url(value):
    url(value, ("https",))


@checks("https-url-template")
def https_url_template(value):
    url(re.sub(r"\{[a-z_][a-z0-9_]*\}", "x", value), ("https",))


@checks("index-url", argv=True)
def index_url(value):
    url(value, ("https", "file"))


@checks("artifact-url-template", argv=True)
def artifact_url_template(value):
    url(fill_version(value, "0"), ("https", "file"))


def fill_version(template: str, version: str) -> str:
    return template.replace("{version}", version)


def artifact_url(template: str, version: str) -> None:
    """The URL a template becomes with its component's real version (an epoch's `!`, a local `+`)."""
    try:
        url(fill_version(template, version), ("https", "file"))
    except ValueError as exc:
        raise ValueError(f"with version {version} filled in: {exc}") from None


@checks("git-url", argv=True)
def git_url(value):
    url(value, ("https", "file"))


@checks("apt-mirror", argv=True)
def apt_mirror(value):
    url(value, ("http", "https"))


def url(value, schemes):
    """A URL, checked as written: urlsplit silently drops tabs and newlines and strips leading
    spaces and control characters, so the raw text is checked before it is split."""
    bad = next((c for c in value if not "!" <= c <= "~"), None)
    if bad is not None:
        what = ("a space" if bad == " " else "a control character" if unicodedata.category(bad) == "Cc"
                else "a non-ASCII character")
        raise ValueError(f"{value!r} has {what} (U+{ord(bad):04X}): a URL here is printable ASCII")
    parts = urlsplit(value)
    if parts.scheme not in schemes:
        raise ValueError(f"must be an {' or '.join(s + '://' for s in schemes)} URL, got {value!r}")
    if parts.username or parts.password or "@" in parts.netloc:
        raise ValueError(f"must be a URL without credentials, got {value!r}")
    if parts.scheme == "file" and parts.netloc:
        raise ValueError(f"a file:// URL names no host (file:///path), got {value!r}")
    if parts.scheme != "file":
        host(parts.netloc, value)
    if not re.fullmatch(_URL_TAIL, parts.path + ("?" + parts.query if parts.query else "")) or parts.fragment:
        raise ValueError(f"{value!r} has characters a URL here may not carry (quotes, spaces, shell syntax)")


def host(value: str, where: str) -> None:
    """A host name with an optional port (URLs and registries)."""
    if not re.fullmatch(HOST, value):
        raise ValueError(f"{where!r}: host {value!r} is not a domain name (letters, digits and inner -, "
                         f"dot-separated, optional :port)")


def repository_path(value: str, where: str) -> None:
    """The /-separated path of a repository name: each component as Docker's reference grammar has it."""
    for part in value.split("/"):
        if not re.fullmatch(PATH_COMPONENT, part):
            raise ValueError(f"{where!r}: path component {part!r} must be lowercase letters and digits joined by "
                             f"., _, __ or - (Docker's reference grammar)")


def repository_name(value: str) -> None:
    """A whole repository name (registry host included): Docker's length limit."""
    if len(value) > MAX_NAME_CHARS:
        raise ValueError(f"repository name {value!r} is {len(value)} characters, longer than Docker's "
                         f"{MAX_NAME_CHARS}")


@checks("registry", argv=True)  # --cache-from <registry>/<repository>:<tag> in CI
def registry(value):
    host_part, _, namespace = value.partition("/")
    host(host_part, value)
    if "/" in value:
        repository_path(namespace, value)
    repository_name(value)


@checks("docker-repository", argv=True)
def docker_repository(value):
    repository_path(value, value)
    repository_name(value)


@checks("image-repository", argv=True)
def image_repository(value):
    host_part, _, path = value.partition("/")
    if not path:
        raise ValueError(f"{value!r} is not an image repository such as quay.io/ascend/cann")
    host(host_part, value)
    repository_path(path, value)
    repository_name(value)


@checks("docker-tag")
def docker_tag(value):
    _match(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", value, "a docker tag ([A-Za-z0-9_.-], not starting with . or -)")
    if len(value) > MAX_TAG_CHARS:
        raise ValueError(f"tag {value!r} is {len(value)} characters, longer than Docker's {MAX_TAG_CHARS}")


def image_reference(value: str) -> None:
    """A whole image reference as a user gives one (`[host[:port]/]path[:tag][@sha256:<hex>]`): Docker's
    grammar, so it can never be read as an option or carry anything but a name."""
    argument(value)
    name, _, digest = value.partition("@")
    if digest and not re.fullmatch(r"sha256:[0-9a-f]{64}", digest):
        raise ValueError(f"{value!r}: digest {digest!r} is not sha256:<64 hex>")
    slash = name.rfind("/")
    colon = name.rfind(":")
    tag = name[colon + 1:] if colon > slash else ""
    name = name[:colon] if colon > slash else name
    first, sep, rest = name.partition("/")
    if sep and ("." in first or ":" in first or first == "localhost"):
        host(first, value)
        name = rest
    repository_path(name, value)
    repository_name(value.partition("@")[0].rpartition(":")[0] if tag else value.partition("@")[0])
    if tag:
        docker_tag(tag)


@checks("tag-template")
def tag_template(value):
    _match(r"([A-Za-z0-9_.-]|\{[a-z_][a-z0-9_]*\})+", value, "a docker tag with {field} placeholders")


def file_name(value: str) -> None:
    """One name in a directory (images/<name>/): not . or .., no /, and short enough for the file system."""
    size = len(value.encode("utf-8", "surrogatepass"))
    if value in ("", ".", "..") or "/" in value or "\0" in value:
        raise ValueError(f"{value!r} is not a usable file name")
    if size > MAX_FILE_NAME_BYTES:
        raise ValueError(f"{value!r} is {size} bytes, longer than a file name can be ({MAX_FILE_NAME_BYTES})")


@checks("image-digest")
def image_digest(value):
    _match(r"sha256:[0-9a-f]{64}", value, "sha256:<64 hex>")


@checks("sha1", argv=True)
def sha1(value):
    _match(r"[0-9a-f]{40}", value, "a full 40-hex commit sha")


@checks("sha256")
def sha256(value):
    _match(r"[0-9a-f]{64}", value, "64 lowercase hex characters (a sha256)")


@checks("git-ref", argv=True)
def git_ref(value):
    if (not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/+-]*", value) or ".." in value or "//" in value
            or value.endswith((".lock", "/", ".")) or "@{" in value):
        raise ValueError(f"{value!r} is not a valid git ref name")


@checks("distribution", argv=True)
def distribution(value):
    _match(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", value, "a Python distribution name")


@checks("extra")
def extra(value):
    _match(r"[a-z0-9]([a-z0-9._-]*[a-z0-9])?", value, "an extra name")


@checks("pep508", argv=True)  # a requirements.txt line starting with - is an option
def pep508(value):
    one_line(value)
    try:
        requirement = Requirement(value)
    except InvalidRequirement as exc:
        raise ValueError(f"{value!r} is not a PEP 508 requirement ({exc})") from None
    if requirement.url:
        raise ValueError(f"{value!r} is a direct URL reference: pin it as a component instead")
    if canonicalize_name(requirement.name) != canonicalize_name(requirement.name.strip()):
        raise ValueError(f"{value!r} has an invalid name")


@checks("debian-package", argv=True)
def debian_package(value):
    _match(r"[a-z0-9][a-z0-9+.-]+", value, "a Debian package name")


# Variables that change what every process of the image loads or where pip and uv fetch from: an image
# ENV (or a build's) naming one would redirect the loader or the package index behind the lock's back.
LOADER_OR_INDEX_ENV = re.compile(r"LD_[A-Z_]+|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PIP_[A-Z0-9_]+|UV_[A-Z0-9_]+")
# An environment value is at most this long: the kernel refuses one string over 128 KiB at exec, and the
# Dockerfile, pins.json and the labels carry each one.
MAX_ENV_VALUE_CHARS = 4096


@checks("env-name")
def env_name(value):
    _match(r"[A-Za-z_][A-Za-z0-9_]*", value, "an environment variable name")
    if LOADER_OR_INDEX_ENV.fullmatch(value):
        raise ValueError(f"{value} changes the loader or the package index of what runs with it: not settable "
                         f"from pins.yaml")


@checks("env-value")
def env_value(value):
    if len(value) > MAX_ENV_VALUE_CHARS:
        raise ValueError(f"{len(value)} characters: an environment value is at most {MAX_ENV_VALUE_CHARS}")
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


@checks("absolute-path", argv=True)  # check_env.py SCRIPT...
def absolute_path(value):
    _match(r"(/[A-Za-z0-9_.+-]+)+", value, "an absolute path")


@checks("script-command", argv=True)  # bash SCRIPT ARG...
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
