#!/usr/bin/env python3
"""Install one layer's wheels on the build platform for the target platform; never shipped.

    python3 cross_install.py TIER_DIR OUT [BUILT]

Runs in a stage of the build platform (`FROM --platform=$INSTALL_PLATFORM`, the same base as the image,
so the same Python at the same path) whose /opt/venv is the image's empty venv. A wheel needs no target
code to install: it is unpacked, and bytecode depends on the Python version, not the architecture. So the
layer is installed here and only copied into the image (COPY --from), instead of running pip under
QEMU. Each file is what `pip install` in the image writes: pip's own wheel installer does the unpacking
(RECORD, INSTALLER, REQUESTED, direct_url.json, entry points and their shebang), called directly because
pip install refuses a wheel of another platform; the base pins that pip. Every file is checked against
the sha256 its requirements line or sources.json item names before anything is unpacked (install_tier.py
has pip check them with --require-hashes). settle.py writes the hash-checked .pyc at the files' final
paths (pip's compile step asks it: compiled_as_settle) and, run as the image's steps run it, stamps every
time; what the layer wrote to /opt/venv is moved under OUT.

An sdist of the layer was built into a wheel on the target platform by installer/build_wheels.py (a
build runs target code), whose stage is mounted at BUILT: BUILT/<the sdist's sha256>/ holds its one wheel,
which is unpacked as pip installing the sdist unpacks the wheel it builds (a path item keeps the sdist's
path as where it came from).

TIER_DIR is install_tier.py's (requirements.txt, files/, sources.json); render/install_plan.py gives a
layer to this script only when everything it installs on every platform is a wheel or an sdist.
"""

import compileall
import contextlib
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from install_tier import VENV, from_source, is_sdist, pinned_file, sha256  # noqa: E402

SETTLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "settle.py")

# pip's own installer (the module docstring says why); run by the venv's python, so its pip and scheme
from pip._internal.locations import get_scheme  # noqa: E402
from pip._internal.models.direct_url import ArchiveInfo  # noqa: E402
from pip._internal.models.link import Link  # noqa: E402
from pip._internal.operations.install.wheel import install_wheel  # noqa: E402
from pip._internal.utils.direct_url_helpers import direct_url_from_link  # noqa: E402
from pip._vendor.packaging.utils import canonicalize_name, parse_wheel_filename  # noqa: E402

# pip from 23.1 writes the sha256 of a local archive it installs into direct_url.json (its download_info,
# whose `hash` became a property then); 23.0 (Debian bookworm's, the images') writes none.
RECORDS_ARCHIVE_HASH = isinstance(ArchiveInfo.__dict__.get("hash"), property)


def locked(tier: Path) -> list:
    """(name, version, sha256) of each requirements.txt line: `name==version --hash=sha256:HEX`."""
    out = []
    for line in (tier / "requirements.txt").read_text().splitlines():
        if not line.strip():
            continue
        spec, _, digest = line.partition(" --hash=sha256:")
        name, _, version = spec.partition("==")
        if not (name and version and len(digest) == 64):
            sys.exit(f"cross_install: requirements.txt line {line!r} is not `name==version --hash=sha256:HEX`")
        out.append((canonicalize_name(name), version, digest))
    return out


def built_wheel(built, sdist: Path, digest: str) -> Path:
    """The one wheel build_wheels.py made of the sdist with this sha256."""
    found = sorted(Path(built, digest).glob("*.whl")) if built else []
    if len(found) != 1:
        sys.exit(f"cross_install: {sdist.name} is an sdist and {len(found)} wheels were built of it"
                 f" ({built or 'no BUILT directory'}), not one")
    return found[0]


def wheel_of(tier: Path, name: str, version: str, digest: str, by_hash: dict, built=None) -> Path:
    """The one file of files/ with the line's sha256, or the wheel built of it if it is an sdist; it must
    be a wheel of that name and version."""
    path = by_hash.get(digest)
    if path is None:
        sys.exit(f"cross_install: no file in {tier / 'files'} has the sha256 {digest} locked for {name}=={version}")
    wheel = built_wheel(built, path, digest) if is_sdist(path.name) else path
    wheel_name, wheel_version, _, _ = parse_wheel_filename(wheel.name)
    if (wheel_name, str(wheel_version)) != (name, version):
        sys.exit(f"cross_install: {wheel.name} has the sha256 locked for {name}=={version} but is another wheel")
    return wheel


def item_wheels(tier: Path, item: dict, built=None) -> list:
    """(wheel, the path pip is given for it) of a sources.json item this script can install."""
    if item["kind"] in ("index", "sdist"):
        path = pinned_file(tier, item, "cross_install")
        return [(built_wheel(built, path, item["sha256"]) if from_source(item) else path, path)]
    if item["kind"] == "wheels":
        return [(tier / "files" / name, tier / "files" / name) for name in item["files"]]
    sys.exit(f"cross_install: a {item['kind']} item ({item.get('component')}) runs target code: install_tier.py installs it")


def unpack(path: Path, origin) -> None:
    """What `pip install` writes for one wheel: REQUESTED (pip marks what -r or the command line names), and,
    for a file named by its path (origin: the wheel, or the sdist it was built of), direct_url.json with
    the path pip was given. pip in the image compiles (PIP_NO_COMPILE=1 sets pip's `compile` option to
    true, as pip reads a boolean from the environment), so RECORD lists the bytecode, which
    compiled_as_settle has settle.py write."""
    name = parse_wheel_filename(path.name)[0]
    url = direct_url_from_link(Link(origin.resolve().as_uri())) if origin else None
    if url and RECORDS_ARCHIVE_HASH:
        url.info.hash = f"sha256={sha256(origin)}"
    print(f"+ unpack {path.name}", flush=True)
    install_wheel(name, str(path), get_scheme(name), req_description=name, pycompile=True,
                  warn_script_location=False, direct_url=url, requested=True)


def listing(root: str) -> dict:
    """{path: mtime} of everything under root."""
    out = {}
    for top, dirs, files in os.walk(root):
        for path in (os.path.join(top, name) for name in dirs + files):
            out[path] = os.lstat(path).st_mtime_ns
    return out


def move_written(written: list, out: Path, epoch: int) -> None:
    """Move what the layer wrote under OUT (same path below it); a directory it wrote into comes along
    empty, so that COPY gives the image's the settled time too."""
    for path in written:
        target = Path(str(out) + path)
        if os.path.isdir(path) and not os.path.islink(path):
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.rename(path, target)
    for top, dirs, files in os.walk(out, topdown=False):
        for name in files + dirs:
            os.utime(os.path.join(top, name), (epoch, epoch), follow_symlinks=False)
    os.utime(out, (epoch, epoch))


@contextlib.contextmanager
def compiled_as_settle(record):
    """pip's compile step, with each source compiled by `settle.py --compile` (settle.py says why it is not
    compiled in this process) and its path written to record, which settle.py then leaves as it is."""
    server = subprocess.Popen(["python3", SETTLE, "--compile"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)

    def compile_file(fullname, **_pips_options):
        server.stdin.write(fullname + "\n")
        server.stdin.flush()
        answer = server.stdout.readline()
        if answer not in ("ok\n", "skip\n"):
            sys.exit(f"cross_install: settle.py --compile answered {answer!r} for {fullname}")
        if answer == "ok\n":
            record.write(fullname + "\n")
        return answer == "ok\n"

    pips_own = compileall.compile_file
    compileall.compile_file = compile_file
    try:
        yield
    finally:
        compileall.compile_file = pips_own
        server.stdin.close()
        server.wait()
        record.flush()


def main(tier: Path, out: Path, built=None) -> None:
    epoch = int(os.environ["SOURCE_DATE_EPOCH"])
    sources = json.loads((tier / "sources.json").read_text())
    by_hash = {sha256(path): path for path in (tier / "files").iterdir()}
    wheels = [(wheel_of(tier, *line, by_hash, built), None) for line in locked(tier)]
    wheels += [pair for item in sources.get("items", []) for pair in item_wheels(tier, item, built)]
    before = listing(VENV)
    with tempfile.NamedTemporaryFile("w", suffix=".settle-before") as marker, \
            tempfile.NamedTemporaryFile("w", suffix=".compiled") as compiled:  # settle.py: written since marker
        with compiled_as_settle(compiled):
            for path, origin in wheels:
                unpack(path, origin)
        subprocess.run(["python3", SETTLE, marker.name, VENV, compiled.name], check=True)
    written = sorted(path for path, mtime in listing(VENV).items() if before.get(path) != mtime)
    move_written(written, out, epoch)
    print(f"cross_install: {len(wheels)} wheels, {len(written)} paths moved under {out}, on {platform.machine()}",
          flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]) if len(sys.argv) > 3 else None)
