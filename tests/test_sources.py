"""What the resolver does not resolve: archives of wheels (sgl-kernel-npu's release zip) and
git trees installed from a subdirectory with another pyproject.toml (sglang's NPU one).

The real archives and repositories are on GitHub, which this host cannot reach: the same code
runs here on a local zip (file://) and a local tree. The wheels in them are built here.
"""

import base64
import hashlib
import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from image_pipeline.builder.wheelhouse import unpack_archive
from image_pipeline.errors import UserError
from image_pipeline.lock import artifacts, lockfile
from image_pipeline.lock.request import Archive, build_request
from image_pipeline.lock.resolve import Resolver
from image_pipeline.network import NetProfile

from conftest import REPO, manifest

M = manifest()
KERNELS = next(c for c in M.components.values() if c.source == "archive")


def wheel_bytes(dist: str) -> bytes:
    """A minimal valid wheel of `dist` (version 0)."""
    name = dist.replace("-", "_")
    files = {f"{name}-0.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0\n",
             f"{name}-0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = f"{name}-0.dist-info/RECORD"
    lines = []
    out = __import__("io").BytesIO()
    with zipfile.ZipFile(out, "w") as bundle:
        for path, text in files.items():
            bundle.writestr(path, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            lines.append(f"{path},sha256={digest},{len(text)}")
        bundle.writestr(record, "\n".join(lines + [f"{record},,"]) + "\n")
    return out.getvalue()


def make_archive(path: Path, dists) -> Path:
    with zipfile.ZipFile(path, "w") as bundle:
        for dist in dists:
            bundle.writestr(f"{dist.replace('-', '_')}-0-py3-none-any.whl", wheel_bytes(dist))
    return path


def archive_request(url: str, sha256: str = "") -> Archive:
    return Archive(component=KERNELS.name, version=KERNELS.version, url=url, sha256=sha256, wheels=KERNELS.wheels,
                   tier="frameworks", external="" if sha256 else KERNELS.get("external"))


def test_the_committed_locks_list_each_archive_unverified_with_its_reason():
    """Here GitHub does not answer: every lock names the archive with the pin's reason, and no files."""
    images = [image for image in M.images.values() if image.role("sgl_kernel")]
    assert images
    for image in images:
        kernels = image.role("sgl_kernel")
        for platform in image.platforms:
            (item,) = lockfile.read(lockfile.path_for(REPO, image.name, platform)).archives
            assert (item["component"], item["url"], item["wheels"]) == (kernels.name, kernels.url_for(platform),
                                                                       list(kernels.wheels))
            assert item["external"] == kernels.get("external") and not item.get("sha256") and item["files"] == []
            assert set(kernels.wheels) <= set(build_request(M, image, platform).excludes)


def test_lock_records_the_archive_and_each_wheel_inside_where_it_downloads(tmp_path):
    zipped = make_archive(tmp_path / "kernels.zip", KERNELS.wheels)
    item = Resolver(NetProfile(), tmp_path / "cache")._archive(archive_request(zipped.as_uri()), None)
    assert item["sha256"] == artifacts.sha256_file(zipped) and item["external"] == ""
    with zipfile.ZipFile(zipped) as bundle:
        inside = {n: hashlib.sha256(bundle.read(n)).hexdigest() for n in bundle.namelist()}
    assert item["files"] == [{"name": f"{d.replace('-', '_')}-0-py3-none-any.whl",
                              "sha256": inside[f"{d.replace('-', '_')}-0-py3-none-any.whl"]} for d in KERNELS.wheels]


def test_lock_keeps_an_archive_it_cannot_download_external(tmp_path):
    item = Resolver(NetProfile(), tmp_path / "cache")._archive(archive_request((tmp_path / "absent.zip").as_uri()), None)
    assert item["files"] == [] and item["sha256"] == "" and item["external"] == KERNELS.get("external")


def test_lock_refuses_an_archive_whose_bytes_are_not_the_pinned_ones(tmp_path):
    zipped = make_archive(tmp_path / "kernels.zip", KERNELS.wheels)
    with pytest.raises(UserError, match="expected " + "0" * 64):
        Resolver(NetProfile(), tmp_path / "cache")._archive(archive_request(zipped.as_uri(), "0" * 64), None)


def test_a_relock_where_the_archive_does_not_answer_keeps_what_the_last_lock_verified(tmp_path):
    zipped = make_archive(tmp_path / "kernels.zip", KERNELS.wheels)
    resolver = Resolver(NetProfile(), tmp_path / "cache")
    verified = resolver._archive(archive_request(zipped.as_uri()), None)
    previous = lockfile.LockFile("i", "linux/arm64", "3", "x", "", "", archives=[verified])
    zipped.unlink()
    again = Resolver(NetProfile(), tmp_path / "other-cache")._archive(archive_request(zipped.as_uri()), previous)
    assert again == verified


@pytest.mark.parametrize("dists,words", [(KERNELS.wheels[:-1], "holds wheels of"),
                                         ((*KERNELS.wheels, "intruder"), "holds wheels of")])
def test_an_archive_holding_other_wheels_than_pinned_is_refused(tmp_path, dists, words):
    zipped = make_archive(tmp_path / "kernels.zip", dists)
    with pytest.raises(UserError, match=words):
        artifacts.archive_wheels(zipped, KERNELS.wheels, f"components.{KERNELS.name}")


def test_the_build_refuses_an_archive_that_changed_since_the_lock(tmp_path):
    zipped = make_archive(tmp_path / "kernels.zip", KERNELS.wheels)
    locked = Resolver(NetProfile(), tmp_path / "cache")._archive(archive_request(zipped.as_uri()), None)
    assert [p.name for p in unpack_archive(locked, tmp_path / "cache2", None)] == [f["name"] for f in locked["files"]]
    make_archive(zipped, (*KERNELS.wheels[1:], KERNELS.wheels[0]))  # same wheels, other bytes
    with pytest.raises(UserError, match="sha256"):
        unpack_archive(locked, tmp_path / "cache3", None)


def test_the_build_refuses_wheels_other_than_the_lock_recorded_and_repairs_a_truncated_one(tmp_path):
    zipped = make_archive(tmp_path / "kernels.zip", KERNELS.wheels)
    locked = Resolver(NetProfile(), tmp_path / "cache")._archive(archive_request(zipped.as_uri()), None)
    wheels = unpack_archive(locked, tmp_path / "cache", None)
    wheels[0].write_bytes(b"truncated")
    assert [artifacts.sha256_file(w) for w in unpack_archive(locked, tmp_path / "cache", None)] == [
        f["sha256"] for f in locked["files"]]
    edited = {**locked, "files": [{**locked["files"][0], "sha256": "0" * 64}, *locked["files"][1:]]}
    with pytest.raises(UserError, match="differ from the lock's"):
        unpack_archive(edited, tmp_path / "cache", None)


def test_an_external_archive_is_taken_as_served_and_its_sha256_shown(tmp_path):
    zipped = make_archive(tmp_path / "kernels.zip", KERNELS.wheels)
    item = {**archive_request(zipped.as_uri()).__dict__, "files": []}
    shown = []
    wheels = unpack_archive(item, tmp_path / "cache", None, log=shown.append)
    assert sorted(p.name.split("-")[0] for p in wheels) == sorted(d.replace("-", "_") for d in KERNELS.wheels)
    assert artifacts.sha256_file(zipped) in shown[0] and "unverified" in shown[0]


IN_TREE_BACKEND = '''
import base64, hashlib, pathlib, tomllib, zipfile

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    dist = tomllib.loads(pathlib.Path("pyproject.toml").read_text())["project"]["name"]
    name = dist.replace("-", "_")
    files = {f"{name}-0.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {dist}\\nVersion: 0\\n",
             f"{name}-0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
    record, lines = f"{name}-0.dist-info/RECORD", []
    wheel = f"{name}-0-py3-none-any.whl"
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / wheel, "w") as bundle:
        for path, text in files.items():
            bundle.writestr(path, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            lines.append(f"{path},sha256={digest},{len(text)}")
        bundle.writestr(record, "\\n".join(lines + [f"{record},,"]) + "\\n")
    return wheel
'''


def pyproject(dist: str) -> str:
    return (f'[project]\nname = "{dist}"\nversion = "0"\n\n[build-system]\nrequires = []\n'
            f'build-backend = "backend"\nbackend-path = ["."]\n')


def test_the_build_context_installs_sglangs_tree_with_its_npu_pyproject_and_the_archives_wheels(tmp_path):
    """As for sglang: python/pyproject_npu.toml replaces python/pyproject.toml, then python/ is installed;
    the kernels' wheels come out of their archive. context.py lays the tier out, install_tier.py installs it."""
    from image_pipeline.builder import context
    from image_pipeline.builder.wheelhouse import Wheelhouse
    from image_pipeline.render import install_plan, layers

    image = next(i for i in M.images.values() if i.role("sgl_kernel")).on("linux/arm64")
    sglang, kernels = image.role("sglang"), image.role("sgl_kernel")
    checkout = tmp_path / "checkout"
    project = checkout / sglang.install["subdirectory"]
    project.mkdir(parents=True)
    (project / "backend.py").write_text(IN_TREE_BACKEND)
    (project / "pyproject.toml").write_text(pyproject("the-cuda-one"))
    (checkout / sglang.install["pyproject"]).write_text(pyproject("the-npu-one"))
    zipped = make_archive(tmp_path / "kernels.zip", kernels.wheels)
    house = Wheelhouse(externals={sglang.name: checkout},
                       archives={kernels.name: unpack_archive({**archive_request(zipped.as_uri()).__dict__, "files": []},
                                                              tmp_path / "cache", None, log=lambda _: None)})
    lock = lockfile.read(lockfile.path_for(REPO, image.name, "linux/arm64"))
    tier = tmp_path / "tier"
    (tier / "files").mkdir(parents=True)
    parts = install_plan.parts(image, "linux/arm64", lock, layers.locked_own_layers(REPO, image))
    part = next(p for p in parts if sglang.name in {i["component"] for i in p.items})
    planned = [i for p in parts for i in p.items if i["component"] in (sglang.name, kernels.name)]
    items = part.sources(image, [context._materialize(item, house, tier) for item in planned])["items"]
    assert [item["kind"] for item in items] == ["git", "wheels"]
    (tier / "requirements.txt").write_text("")
    (tier / "sources.json").write_text(json.dumps({"items": items, "compile": False, "apt_build": [], "soc_version": ""}))
    target = tmp_path / "venv"
    venv.create(target, with_pip=True)
    result = subprocess.run([sys.executable, str(REPO / "installer/install_tier.py"), str(tier)], capture_output=True,
                            text=True, env={**os.environ, "VERL_IMAGE_VENV": str(target), "PIP_NO_INDEX": "1"})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    listed = subprocess.run([str(target / "bin/python"), "-m", "pip", "list", "--format", "json"], capture_output=True,
                            text=True, check=True).stdout
    names = {p["name"] for p in json.loads(listed)}
    assert "the-npu-one" in names and "the-cuda-one" not in names
    assert set(kernels.wheels) <= names
    assert (tier / "src" / sglang.name / sglang.install["subdirectory"] / "pyproject.toml").read_text() == pyproject("the-cuda-one")


def npu_pyproject(requires, extras_split: int) -> str:
    """A pyproject like sglang's NPU one: dependencies, and the pinned extra pointing at another extra."""
    sglang = M.components["sglang"]
    (extra,) = sglang.get("extras")
    deps, optional = requires[:extras_split], requires[extras_split:]
    return (f'[project]\nname = "{sglang.dist}"\ndependencies = {json.dumps(deps)}\n\n[project.optional-dependencies]\n'
            f'{extra} = ["{sglang.dist}[more]"]\nmore = {json.dumps(optional)}\nunused = ["not-pinned-anywhere"]\n')


def declared_problems(tmp_path, text):
    from image_pipeline.lock import declared

    sglang = M.components["sglang"]
    (tmp_path / sglang.install["pyproject"]).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / sglang.install["pyproject"]).write_text(text)
    return declared.problems(sglang, tmp_path)


def test_a_pyproject_that_declares_what_requires_says_passes(tmp_path):
    requires = list(M.components["sglang"].get("requires"))
    assert declared_problems(tmp_path, npu_pyproject(requires, len(requires) // 2)) == []


def test_a_pyproject_declaring_more_or_other_than_requires_is_refused(tmp_path):
    sglang = M.components["sglang"]
    requires = list(sglang.get("requires"))
    pinned = next(r for r in requires if "==" in r)
    moved = pinned.replace("==", "==9!")  # the same distribution, another release
    found = declared_problems(tmp_path, npu_pyproject([*requires, "brand-new-dep"], 3))
    assert found == ["declares brand-new-dep, which `requires` lacks"]
    found = declared_problems(tmp_path, npu_pyproject([moved if r == pinned else r for r in requires], 3))
    assert len(found) == 1 and pinned in found[0] and "9!" in found[0]
    marked = next(r for r in requires if ";" not in r)
    found = declared_problems(tmp_path, npu_pyproject([f"{r}; sys_platform == 'win32'" if r == marked else r
                                                       for r in requires], 3))
    assert len(found) == 1 and "win32" in found[0]
    left_out = next(iter(sglang.get("without")))
    assert declared_problems(tmp_path, npu_pyproject([*requires, f"{left_out}==9!0"], 3)) == []


def test_the_wheelhouse_stops_a_tree_whose_pyproject_outgrew_requires_naming_the_pin(tmp_path):
    from image_pipeline.builder.wheelhouse import check_declared

    sglang = M.components["sglang"]
    requires = list(sglang.get("requires"))
    declared_problems(tmp_path, npu_pyproject([*requires, "brand-new-dep"], 3))
    with pytest.raises(UserError) as caught:
        check_declared(M, sglang, tmp_path)
    line = M.line(sglang.keypath + ("requires",))
    assert str(caught.value).startswith(f"pins.yaml:{line}: components.sglang.requires: {sglang.install['pyproject']}")
    assert "brand-new-dep" in str(caught.value)
    declared_problems(tmp_path, npu_pyproject(requires, 3))
    check_declared(M, sglang, tmp_path)


def test_a_tree_upstream_puts_on_pythonpath_is_put_on_the_venvs_import_path_and_verified(tmp_path, monkeypatch):
    """As for Megatron-Bridge in the v0.8.0 release images: its src/ is copied, never pip-installed, and a .pth
    puts it on the venv's import path; verify.py (and conformance.versions) find it there, and miss it when not."""
    from image_pipeline.builder import context
    from image_pipeline.builder.wheelhouse import Wheelhouse
    from image_pipeline.render import install_plan

    image = next(i for i in M.images.values() if any(c.import_path for c in i.components)).on("linux/arm64")
    comp = next(c for c in image.components if c.import_path)
    package = tmp_path / "checkout" / comp.install["path"] / "pathpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("WHERE = 'on the path'\n")
    lock = lockfile.read(lockfile.path_for(REPO, image.name, "linux/arm64"))
    tier = tmp_path / "tier"
    (tier / "files").mkdir(parents=True)
    planned = install_plan._item(image, comp, lock, "linux/arm64")
    item = install_plan._without_fetch(context._materialize(planned, Wheelhouse(externals={comp.name: tmp_path / "checkout"}), tier))
    assert item["kind"] == "git" and item["import_path"] == comp.import_path
    item["import_path"] = str(tmp_path / "sources" / comp.name / comp.install["path"])  # /opt is not ours here
    (tier / "requirements.txt").write_text("")
    (tier / "sources.json").write_text(json.dumps({"items": [item], "compile": False, "apt_build": [], "soc_version": ""}))
    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    result = subprocess.run([sys.executable, str(REPO / "installer/install_tier.py"), str(tier)], capture_output=True,
                            text=True, env={**os.environ, "VERL_IMAGE_VENV": str(target)})
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    imported = subprocess.run([str(target / "bin/python"), "-c", "import pathpkg; print(pathpkg.WHERE)"],
                              capture_output=True, text=True)
    assert imported.stdout.strip() == "on the path", imported.stderr

    sys.path.insert(0, str(REPO / "installer"))
    try:
        import verify
    finally:
        sys.path.remove(str(REPO / "installer"))
    monkeypatch.setattr(verify, "VENV_PYTHON", str(target / "bin/python"))
    pin = {**comp.as_pin(), "import_path": item["import_path"]}
    assert verify.check_import_path("bridge", pin) == []
    next(target.rglob(f"{comp.name}.pth")).unlink()
    assert "not on the venv's import path" in verify.check_import_path("bridge", pin)[0]
