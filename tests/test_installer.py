"""The build-time checks of installer/ seen failing, on the host: check_env.py with fake set_env scripts,
verify.py's version rule and its ldd check on a small ELF whose library is hidden."""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "installer"))
import verify  # noqa: E402

CHECK_ENV = REPO / "installer/check_env.py"


def check_env(*scripts, env=None):
    return subprocess.run([sys.executable, str(CHECK_ENV), *map(str, scripts)], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


@pytest.fixture
def set_env(tmp_path):
    """A set_env.sh in the style of CANN's: exports a home and prepends to a path list unconditionally."""
    script = tmp_path / "set_env.sh"
    script.write_text('export FAKE_TOOLKIT_HOME=/opt/fake\nexport FAKE_LIB_PATH=/opt/fake/lib:$FAKE_LIB_PATH\n')
    return script


def test_check_env_passes_when_env_already_holds_the_exports(set_env):
    result = check_env(set_env, env={"FAKE_TOOLKIT_HOME": "/opt/fake", "FAKE_LIB_PATH": "/opt/fake/lib:/usr/lib"})
    assert result.returncode == 0, result.stderr
    assert "ENV already holds" in result.stdout


def test_check_env_names_a_variable_env_lacks(set_env):
    result = check_env(set_env, env={"FAKE_TOOLKIT_HOME": "/opt/fake", "FAKE_LIB_PATH": "/usr/lib"})
    assert result.returncode == 1
    assert "FAKE_LIB_PATH: ENV has '/usr/lib', set_env exports '/opt/fake/lib:/usr/lib'" in result.stderr


def test_check_env_fails_on_a_missing_or_misspelt_script(set_env):
    misspelt = set_env.with_name("set_evn.sh")
    result = check_env(set_env, misspelt, env={"FAKE_TOOLKIT_HOME": "/opt/fake", "FAKE_LIB_PATH": "/opt/fake/lib"})
    assert result.returncode == 1, result.stdout
    assert f"{misspelt} does not exist" in result.stderr


def test_check_env_fails_on_a_script_that_exports_nothing(tmp_path):
    quiet = tmp_path / "set_env.sh"
    quiet.write_text("# a toolkit that moved: nothing left to export\ntrue\n")
    result = check_env(quiet)
    assert result.returncode == 1, result.stdout
    assert "exports nothing" in result.stderr


# ---------------------------------------------------------------- verify.py

@pytest.mark.parametrize("have,want,same", [
    ("2.13.0", "2.13.0", True),
    ("2.13.0+cpu", "2.13.0", True),  # a local build of the pinned release
    ("2.13.1", "2.13.0", False),
    ("2.13.0", "2.13.0+cpu", False),  # a pinned local build must be that build
    ("2.13.0+cu128", "2.13.0+cpu", False),
])
def test_same_release(have, want, same):
    assert verify.same_release(have, want) is same


def test_check_versions_names_a_moved_pin():
    pins = {"stack": {"transformers": [{"name": "transformers", "dist": "transformers", "version": "5.0.0"}]},
            "constraints": [{"dist": "numpy", "version": "1.0.0"}]}
    assert verify.check_versions(pins, {"transformers": "5.0.0", "numpy": "1.0.0"}) == []
    assert verify.check_versions(pins, {"transformers": "5.0.1", "numpy": "1.0.1"}) == [
        "transformers: transformers is 5.0.1, pinned 5.0.0", "constraint: numpy is 1.0.1, pinned 1.0.0"]


@pytest.fixture(scope="module")
def site_with_extension(tmp_path_factory):
    """site-packages holding pkg/_ext.so, linked against libfakedep.so, which lives outside it."""
    if not shutil.which("gcc"):
        pytest.skip("needs gcc to make a small ELF")
    root = tmp_path_factory.mktemp("elf")
    hidden, site = root / "hidden", root / "site-packages"
    (site / "pkg").mkdir(parents=True)
    hidden.mkdir()
    (root / "dep.c").write_text("int fake_dep(void) { return 1; }\n")
    (root / "ext.c").write_text("int fake_dep(void);\nint ext(void) { return fake_dep(); }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(hidden / "libfakedep.so"), str(root / "dep.c")], check=True)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(site / "pkg/_ext.so"), str(root / "ext.c"),
                    f"-L{hidden}", "-lfakedep"], check=True)
    return site, hidden


def test_ldd_check_fails_on_a_library_the_image_lacks(monkeypatch, site_with_extension):
    site, _ = site_with_extension
    monkeypatch.setattr(verify, "site_packages", lambda: site)
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    assert verify.check_libraries({"device": "npu"}) == [
        "ldd: pkg/_ext.so needs libfakedep.so, which is not in the image"]


def test_ldd_check_allows_the_driver_libraries_mounted_at_run_time(monkeypatch, site_with_extension):
    site, _ = site_with_extension
    monkeypatch.setattr(verify, "site_packages", lambda: site)
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    assert verify.check_libraries({"device": "npu", "mounted_libraries": ["libfakedep.so"]}) == []


def test_ldd_check_passes_once_the_library_is_found(monkeypatch, site_with_extension):
    site, hidden = site_with_extension
    monkeypatch.setattr(verify, "site_packages", lambda: site)
    monkeypatch.setenv("LD_LIBRARY_PATH", str(hidden))
    assert verify.check_libraries({"device": "npu"}) == []
