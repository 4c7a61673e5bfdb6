"""installer/cross_install.py: a layer of wheels installed on the build platform holds what `pip install`
in the image writes, and refuses a file its lock does not name. Real pip and a real venv, on this host."""

import base64
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from image_pipeline.paths import REPO
from image_pipeline.render.dockerfile import SOURCE_DATE_EPOCH

SCRIPT = REPO / "installer" / "cross_install.py"
sys.path.insert(0, str(REPO / "installer"))
from install_tier import PIP_FLAGS  # noqa: E402

# install_tier.py's pip, which in the image compiles (its RECORD lists the bytecode: cross_install.py)
PIP = ["-m", "pip", "install", *PIP_FLAGS]
FOREIGN_TAG = "cp311-cp311-manylinux_2_17_aarch64" if os.uname().machine != "aarch64" else "cp311-cp311-manylinux_2_17_x86_64"


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def make_wheel(directory: Path, name: str, version: str, tag: str = "py3-none-any",
               module: bytes = b"def main():\n    return 0\n") -> Path:
    """A wheel with a module, a console script and a data file, as a build backend writes it."""
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": module,
        f"{name}-{version}.data/data/share/{name}/notes.txt": b"shipped data\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{info}/WHEEL": f"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: {tag}\n".encode(),
        f"{info}/entry_points.txt": f"[console_scripts]\n{name}-cli = {name}:main\n".encode(),
    }
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data in files.items()) + f"{info}/RECORD,,\n"
    path = directory / f"{name}-{version}-{tag}.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for member, data in [*files.items(), (f"{info}/RECORD", record.encode())]:
            wheel.writestr(member, data)
    return path


def make_tier(tmp_path: Path, wheels: list, lines: list | None = None) -> Path:
    tier = tmp_path / "tier"
    (tier / "files").mkdir(parents=True)
    for wheel in wheels:
        (tier / "files" / wheel.name).write_bytes(wheel.read_bytes())
    if lines is None:
        lines = [f"{w.name.split('-')[0]}=={w.name.split('-')[1]} --hash=sha256:{hashlib.sha256(w.read_bytes()).hexdigest()}"
                 for w in wheels]
    (tier / "requirements.txt").write_text("".join(line + "\n" for line in lines))
    (tier / "sources.json").write_text(json.dumps({"items": []}))
    return tier


def fresh_venv(path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(path)], check=True)
    return path


def installer_env(venv: Path) -> dict:
    """The environment an installer script runs in during the build, for this venv."""
    return {**os.environ, "VERL_IMAGE_VENV": str(venv), "SOURCE_DATE_EPOCH": str(SOURCE_DATE_EPOCH)}


def cross_install(venv: Path, tier: Path, out: Path, built: Path | None = None):
    return subprocess.run([str(venv / "bin" / "python"), str(SCRIPT), str(tier), str(out), *([str(built)] if built else [])],
                          env=installer_env(venv), capture_output=True, text=True)


def tree(root: Path, skip_bytecode=True) -> dict:
    """{relative path: (mode, bytes or link target)} of a tree."""
    out = {}
    for path in sorted(root.rglob("*")):
        if skip_bytecode and (path.suffix == ".pyc" or path.name == "__pycache__"):
            continue
        stat = path.lstat()
        body = os.readlink(path) if path.is_symlink() else (path.read_bytes() if path.is_file() else None)
        out[path.relative_to(root).as_posix()] = (stat.st_mode, body)
    return out


@pytest.fixture
def demo(tmp_path):
    return make_wheel(tmp_path, "demo", "1.0")


def test_a_layer_installed_on_the_build_platform_holds_what_pip_install_writes(tmp_path, demo):
    tier, venv = make_tier(tmp_path, [demo]), tmp_path / "venv"
    before = tree(fresh_venv(venv))
    subprocess.run([str(venv / "bin" / "python"), *PIP, "--find-links", str(tier / "files"), "--require-hashes",
                    "-r", str(tier / "requirements.txt")], check=True, capture_output=True)
    by_pip = {path: entry for path, entry in tree(venv).items() if before.get(path) != entry}
    fresh_venv(venv)  # the same path: the entry point's shebang names it
    result = cross_install(venv, tier, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    moved = tmp_path / "out" / venv.relative_to("/")
    by_cross = {path: entry for path, entry in tree(moved).items() if not (moved / path).is_dir()}
    assert {p: e for p, e in by_pip.items() if not (venv / p).is_dir()} == by_cross
    assert any(path.endswith("bin/demo-cli") for path in by_cross) and any("RECORD" in path for path in by_cross)


def test_every_path_it_moves_has_the_settled_time_and_its_python_hash_checked_bytecode(tmp_path, demo):
    venv = fresh_venv(tmp_path / "venv")
    result = cross_install(venv, make_tier(tmp_path, [demo]), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out"
    assert {p.lstat().st_mtime for p in [out, *out.rglob("*")]} == {SOURCE_DATE_EPOCH}
    site = next((out / venv.relative_to("/")).glob("lib/python*/site-packages"))
    pyc = next((site / "demo" / "__pycache__").glob("__init__.*.pyc"))
    assert int.from_bytes(pyc.read_bytes()[4:8], "little") == 0b11  # hash-based, checked at import
    assert (site / "demo" / "__init__.py").is_file() and not list(venv.glob("lib/*/site-packages/demo/__init__.py"))


# Bytecode that marshals to other bytes in a process that imported pip (a shared one-character constant)
PROCESS_SENSITIVE = b"""def main(argument=None):
    if argument is None:
        return 0
    return '{' + ','.join(argument.choices) + '}' + '/'.join(argument.option_strings)
"""


def _pyc_settle_writes(venv: Path, source: Path, text: bytes) -> bytes:
    """The .pyc an image step's settle.py writes for `text` at `source` (its module's path in the venv)."""
    marker = venv.parent / "settle-before"
    marker.write_text("")
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_bytes(text)
    subprocess.run(["python3", str(REPO / "installer" / "settle.py"), str(marker), str(venv)],
                   env=installer_env(venv), check=True, capture_output=True)
    return next((source.parent / "__pycache__").glob(f"{source.stem}.*.pyc")).read_bytes()


def test_its_bytecode_is_the_bytes_settle_writes_and_settle_compiles_none_of_it_again(tmp_path):
    wheel = make_wheel(tmp_path, "demo", "1.0", module=PROCESS_SENSITIVE)
    venv = fresh_venv(tmp_path / "venv")
    result = cross_install(venv, make_tier(tmp_path, [wheel]), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert "settle: 0 sources compiled (1 already by settle.py --compile)" in result.stdout
    site = next((tmp_path / "out" / venv.relative_to("/")).glob("lib/python*/site-packages"))
    shipped = next((site / "demo" / "__pycache__").glob("__init__.*.pyc")).read_bytes()
    source = venv / site.relative_to(tmp_path / "out" / venv.relative_to("/")) / "demo" / "__init__.py"
    assert shipped == _pyc_settle_writes(venv, source, PROCESS_SENSITIVE)
    in_pips_process = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import marshal, sys, pip._internal.operations.install.wheel; "
         f"sys.stdout.buffer.write(marshal.dumps(compile({PROCESS_SENSITIVE!r}, {str(source)!r}, 'exec')))"],
        capture_output=True, check=True).stdout
    assert shipped[16:] != in_pips_process  # what pip's own compile step would have shipped


def test_a_module_this_python_cannot_compile_gets_no_bytecode_and_no_record_row(tmp_path):
    wheel = make_wheel(tmp_path, "demo", "1.0", module=b"print 'a module of another Python'\n")
    venv = fresh_venv(tmp_path / "venv")
    result = cross_install(venv, make_tier(tmp_path, [wheel]), tmp_path / "out")
    assert result.returncode == 0, result.stderr
    site = next((tmp_path / "out" / venv.relative_to("/")).glob("lib/python*/site-packages"))
    assert not list(site.glob("demo/__pycache__/*.pyc"))
    assert "__pycache__" not in (site / "demo-1.0.dist-info" / "RECORD").read_text()


def test_it_installs_a_wheel_of_another_platform_which_pip_refuses(tmp_path):
    foreign = make_wheel(tmp_path, "native", "2.0", FOREIGN_TAG)
    tier, venv = make_tier(tmp_path, [foreign]), fresh_venv(tmp_path / "venv")
    refused = subprocess.run([str(venv / "bin" / "python"), *PIP, str(tier / "files" / foreign.name)],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "is not a supported wheel on this platform" in refused.stderr
    result = cross_install(venv, tier, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert list((tmp_path / "out").rglob("native-2.0.dist-info/RECORD"))


def test_a_file_with_another_sha256_than_its_line_is_refused_and_nothing_is_written(tmp_path, demo):
    line = f"demo==1.0 --hash=sha256:{'0' * 64}"
    venv = fresh_venv(tmp_path / "venv")
    result = cross_install(venv, make_tier(tmp_path, [demo], [line]), tmp_path / "out")
    assert result.returncode != 0 and f"no file in {tmp_path / 'tier' / 'files'} has the sha256 {'0' * 64}" in result.stderr
    assert not (tmp_path / "out").exists() and not list(venv.glob("lib/*/site-packages/demo"))


def test_a_file_with_the_lines_sha256_but_another_name_is_refused(tmp_path, demo):
    line = f"other==1.0 --hash=sha256:{hashlib.sha256(demo.read_bytes()).hexdigest()}"
    result = cross_install(fresh_venv(tmp_path / "venv"), make_tier(tmp_path, [demo], [line]), tmp_path / "out")
    assert result.returncode != 0 and "has the sha256 locked for other==1.0 but is another wheel" in result.stderr


def test_an_item_that_runs_target_code_is_refused(tmp_path, demo):
    tier = make_tier(tmp_path, [demo])
    (tier / "sources.json").write_text(json.dumps({"items": [{"kind": "git", "component": "demo-src"}]}))
    result = cross_install(fresh_venv(tmp_path / "venv"), tier, tmp_path / "out")
    assert result.returncode != 0 and "a git item (demo-src) runs target code" in result.stderr


# A PEP 517 backend in the sdist itself (stdlib only: the venv has no setuptools' wheel command offline)
BACKEND = """import base64, hashlib, os, zipfile

def _hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name, version = open("NAME").read().split()
    info = f"{name}-{version}.dist-info"
    files = {f"{name}/__init__.py": open(f"{name}/__init__.py", "rb").read(),
             f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n".encode(),
             f"{info}/WHEEL": b"Wheel-Version: 1.0\\nGenerator: backend\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
             f"{info}/entry_points.txt": f"[console_scripts]\\n{name}-cli = {name}:main\\n".encode()}
    record = "".join(f"{path},{_hash(data)},{len(data)}\\n" for path, data in files.items()) + f"{info}/RECORD,,\\n"
    wheel = f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w") as out:
        for member, data in [*files.items(), (f"{info}/RECORD", record.encode())]:
            out.writestr(member, data)
    return wheel
"""


def make_sdist(directory: Path, name: str, version: str) -> Path:
    """An sdist with a module and a console script, whose build backend ships in it."""
    files = {
        "pyproject.toml": '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n',
        "backend.py": BACKEND,
        "NAME": f"{name} {version}\n",
        f"{name}/__init__.py": "def main():\n    return 0\n",
        "PKG-INFO": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
    }
    path = directory / f"{name}-{version}.tar.gz"
    with tarfile.open(path, "w:gz") as sdist:
        for member, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{name}-{version}/{member}")
            info.size = len(data)
            sdist.addfile(info, io.BytesIO(data))
    return path


def sdist_tier(tmp_path: Path) -> Path:
    """A layer with a wheel and a locked sdist on requirements lines, and an sdist item (pip is given its path)."""
    locked, pinned, wheel = make_sdist(tmp_path, "lockedsrc", "1.0"), make_sdist(tmp_path, "pinnedsrc", "2.0"), \
        make_wheel(tmp_path, "demo", "1.0")
    lines = [f"{name}==1.0 --hash=sha256:{hashlib.sha256(path.read_bytes()).hexdigest()}"
             for name, path in (("demo", wheel), ("lockedsrc", locked))]
    tier = make_tier(tmp_path, [wheel, locked, pinned], lines)
    item = {"kind": "sdist", "component": "pinnedsrc", "dist": "pinnedsrc", "file": pinned.name,
            "sha256": hashlib.sha256(pinned.read_bytes()).hexdigest(), "env": {}}
    (tier / "sources.json").write_text(json.dumps({"items": [item], "compile": True, "apt_build": []}))
    return tier


def run_installer(script: str, venv: Path, *args):
    return subprocess.run([sys.executable, str(REPO / "installer" / script), *map(str, args)], env=installer_env(venv),
                          capture_output=True, text=True)


def test_sdists_built_on_the_target_and_unpacked_on_the_build_platform_hold_what_pip_installing_them_writes(tmp_path):
    tier, venv = sdist_tier(tmp_path), tmp_path / "venv"
    before = tree(fresh_venv(venv))
    installed = run_installer("install_tier.py", venv, tier)  # what the image's own step runs
    assert installed.returncode == 0, installed.stdout + installed.stderr
    by_pip = {path: entry for path, entry in tree(venv).items() if before.get(path) != entry and not (venv / path).is_dir()}
    fresh_venv(venv)
    built = run_installer("build_wheels.py", venv, tier, tmp_path / "wheels")
    assert built.returncode == 0, built.stdout + built.stderr
    assert not list(venv.glob("lib/*/site-packages/lockedsrc*"))  # building installs nothing
    result = cross_install(venv, tier, tmp_path / "out", tmp_path / "wheels")
    assert result.returncode == 0, result.stderr
    moved = tmp_path / "out" / venv.relative_to("/")
    by_cross = {path: entry for path, entry in tree(moved).items() if not (moved / path).is_dir()}
    assert by_pip == by_cross
    direct = json.loads(next(body for path, (_, body) in by_cross.items() if path.endswith("pinnedsrc-2.0.dist-info/direct_url.json")))
    assert direct["url"] == (tier / "files" / "pinnedsrc-2.0.tar.gz").as_uri()
    assert {"bin/lockedsrc-cli", "bin/pinnedsrc-cli", "bin/demo-cli"} <= set(by_cross)


def test_an_sdist_without_the_one_wheel_built_of_it_is_refused(tmp_path):
    tier = sdist_tier(tmp_path)
    result = cross_install(fresh_venv(tmp_path / "venv"), tier, tmp_path / "out", tmp_path / "no-wheels")
    assert result.returncode != 0 and "lockedsrc-1.0.tar.gz is an sdist and 0 wheels were built of it" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_sdist_item_with_another_sha256_is_built_by_no_one_and_installed_by_no_one(tmp_path):
    tier, venv = sdist_tier(tmp_path), fresh_venv(tmp_path / "venv")
    assert run_installer("build_wheels.py", venv, tier, tmp_path / "wheels").returncode == 0
    sources = json.loads((tier / "sources.json").read_text())
    sources["items"][0]["sha256"] = "0" * 64
    (tier / "sources.json").write_text(json.dumps(sources))
    result = run_installer("build_wheels.py", venv, tier, tmp_path / "again")
    assert result.returncode != 0 and "pinnedsrc-2.0.tar.gz has sha256" in result.stderr and f"pinned {'0' * 64}" in result.stderr
    assert not (tmp_path / "again").exists()
    refused = cross_install(venv, tier, tmp_path / "out", tmp_path / "wheels")
    assert refused.returncode != 0 and f"pinned {'0' * 64}" in refused.stderr and not (tmp_path / "out").exists()
