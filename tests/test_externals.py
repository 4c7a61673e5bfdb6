"""Index externals (the +cpu torch line of the NPU amd64 images, triton-ascend everywhere): `build.py lock`
records each file's sha256 where its index answers and the build fetches it by that sha256; where the lock
holds none, the build refuses it unless --allow-unverified names it, and then the bytes enter the content
hash, the image's pins.json and its labels.

The real indexes are unreachable here: a local directory of wheels stands in for them (a mirror, as pip's
find-links serves /opt/wheels), with wheels made here under the pinned names and versions."""

import base64
import hashlib
import io
import json
import zipfile

import pytest

from image_pipeline.builder import base, context, engine, image_config, pipeline, wheelhouse
from image_pipeline.errors import UserError
from image_pipeline.lock import artifacts, lockfile, resolve
from image_pipeline.lock.request import build_request
from image_pipeline.lock.resolve import Resolver
from image_pipeline.network import NetProfile
from image_pipeline.render import install_plan

from conftest import REPO, manifest, run_in_process

M = manifest()
IMAGE = M.images["npu-a3"]
PLATFORM = "linux/amd64"  # where the NPU images take torch's +cpu build from the PyTorch CPU index
LOCK = lockfile.read(lockfile.path_for(REPO, IMAGE.name, PLATFORM))
INDEX_EXTERNALS = [x for x in build_request(M, IMAGE, PLATFORM).externals if not x.commit]
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # the same wheel twice is the same bytes


def wheel(dist: str, version: str, salt: str = "") -> tuple:
    """(file name, bytes) of a minimal py3-none-any wheel of dist==version; salt changes its bytes."""
    name = dist.replace("-", "_")
    info = f"{name}-{version}.dist-info"
    files = {f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\nSummary: {salt}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    out, lines = io.BytesIO(), []
    with zipfile.ZipFile(out, "w") as bundle:
        for path, text in files.items():
            bundle.writestr(zipfile.ZipInfo(path, FIXED_TIME), text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            lines.append(f"{path},sha256={digest},{len(text)}")
        bundle.writestr(zipfile.ZipInfo(f"{info}/RECORD", FIXED_TIME), "\n".join(lines + [f"{info}/RECORD,,"]) + "\n")
    return f"{name}-{version}-py3-none-any.whl", out.getvalue()


def mirror_of_externals(directory, salt=""):
    """A directory serving a wheel of every index external of the lock, as a find-links mirror does."""
    directory.mkdir(parents=True, exist_ok=True)
    for external in INDEX_EXTERNALS:
        name, data = wheel(external.dist, external.version, salt)
        (directory / name).write_bytes(data)
    return directory


def profile_with(mirror) -> NetProfile:
    return NetProfile(explicit_mirrors={name: str(mirror) for name in M.indexes if name != "pypi"})


def test_the_committed_npu_amd64_lock_has_unverified_externals():
    """Here neither the PyTorch CPU index nor Ascend's answers: the lock holds no sha256 for those files."""
    assert {x.component for x in INDEX_EXTERNALS} <= set(lockfile.unverified_components(LOCK))
    assert {"torch", "triton-ascend"} <= {x.component for x in INDEX_EXTERNALS}


def test_lock_records_the_sha256_of_an_external_its_index_serves(tmp_path):
    mirror = mirror_of_externals(tmp_path / "index")
    request = build_request(M, IMAGE, PLATFORM)
    resolver = Resolver(profile_with(mirror), tmp_path / "cache")
    mirrors = resolver.profile.mirrors(request.indexes)
    external = next(x for x in INDEX_EXTERNALS if x.component == "triton-ascend")  # Ascend's index, every NPU lock
    item = resolver._external(external, request, mirrors, None)
    name, data = wheel(external.dist, external.version)
    assert (item["file"], item["sha256"]) == (name, hashlib.sha256(data).hexdigest())
    assert artifacts.cached(tmp_path / "cache", item["sha256"], name).read_bytes() == data


def test_lock_keeps_an_unreachable_external_unverified_or_as_a_previous_lock_recorded_it(tmp_path):
    request = build_request(M, IMAGE, PLATFORM)
    resolver = Resolver(profile_with(tmp_path / "empty"), tmp_path / "cache")
    (tmp_path / "empty").mkdir()
    mirrors = resolver.profile.mirrors(request.indexes)
    item = resolver._external(INDEX_EXTERNALS[0], request, mirrors, None)
    assert "sha256" not in item and "file" not in item
    recorded = {**item, "file": "x.whl", "sha256": "a" * 64}
    previous = lockfile.LockFile(IMAGE.name, PLATFORM, IMAGE.python, "", "", "", externals=[recorded])
    assert resolve._external_recorded_before(item, previous) == recorded
    moved = lockfile.LockFile(IMAGE.name, PLATFORM, IMAGE.python, "", "", "", externals=[{**recorded, "version": "0"}])
    assert resolve._external_recorded_before(item, moved) == item


def test_the_wheelhouse_refuses_unverified_externals_unless_allowed_before_downloading(repo_copy):
    result = run_in_process("wheelhouse", IMAGE.name, "--platform", PLATFORM, root=repo_copy)
    assert result.returncode == 2, result.stdout + result.stderr
    message = result.stderr.strip()
    assert "\n" not in message and message.startswith("error: --allow-unverified: ")
    assert all(name in message for name in lockfile.unverified_components(LOCK))
    assert not (repo_copy / ".cache").exists() or not any((repo_copy / ".cache").rglob("*.whl"))


def test_an_unknown_name_to_allow_is_refused():
    with pytest.raises(UserError, match="no such component"):
        wheelhouse.check_allowed(M, LOCK, ["torhc"])


def test_allowing_some_but_not_all_is_refused_naming_the_rest():
    names = lockfile.unverified_components(LOCK)
    with pytest.raises(UserError) as caught:
        wheelhouse.check_allowed(M, LOCK, names[1:])
    assert names[0] in str(caught.value) and all(f" {n}" not in str(caught.value).split("holds no sha256 for")[1]
                                                 .split(":")[0] for n in names[1:])


def test_a_verified_external_is_fetched_by_its_sha256_and_other_bytes_are_refused(tmp_path):
    external = INDEX_EXTERNALS[0]
    mirror = mirror_of_externals(tmp_path / "index")
    item = {**next(x for x in LOCK.externals if x["component"] == external.component)}
    name, data = wheel(external.dist, external.version)
    item.update(file=name, sha256=hashlib.sha256(data).hexdigest())
    profile = profile_with(mirror)
    mirrors = profile.mirrors(M.indexes)
    image = IMAGE.on(PLATFORM)
    path = wheelhouse._external(M, image, PLATFORM, item, mirrors, profile, tmp_path / "cache")
    assert path.read_bytes() == data
    (mirror / name).write_bytes(wheel(external.dist, external.version, salt="other bytes")[1])
    with pytest.raises(UserError, match="cannot fetch"):
        wheelhouse._external(M, image, PLATFORM, item, mirrors, profile, tmp_path / "other-cache")


ARM64 = "linux/arm64"  # one unverified file there (triton-ascend): one pip download per prepare()
ARM64_LOCK = lockfile.read(lockfile.path_for(REPO, IMAGE.name, ARM64))


def prepare(cache, mirror, allowed):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(base, "ensure_base", lambda *a, **k: "sha256:" + "b" * 64)
        patch.setattr(engine, "ensure_emulation", lambda *a, **k: None)
        return pipeline.prepare(None, M, IMAGE, ARM64, REPO, profile_with(mirror), cache=cache, log=lambda _: None,
                                allow_unverified=allowed)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """prepare() of the npu arm64 build with every unverified file allowed: from one mirror twice (a fresh
    cache, then the filled one), and from a mirror serving other bytes under the same names."""
    tmp = tmp_path_factory.mktemp("prepare")
    allowed = lockfile.unverified_components(ARM64_LOCK)
    index, other = mirror_of_externals(tmp / "index"), mirror_of_externals(tmp / "other", salt="other bytes")
    return (prepare(tmp / "cache", index, allowed), prepare(tmp / "cache", index, allowed),
            prepare(tmp / "other-cache", other, allowed))


def test_prepare_refuses_unverified_files_unless_allowed(tmp_path):
    with pytest.raises(UserError, match="refusing to install unverified files"):
        prepare(tmp_path / "cache", mirror_of_externals(tmp_path / "index"), ())


def test_prepare_refuses_unverified_files_before_the_base_is_pulled(tmp_path):
    """An NPU image's CANN base is GBs: the refusal comes first, with nothing downloaded."""
    def pulled(*args, **kwargs):
        raise AssertionError("the base was pulled before the unverified files were refused")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(base, "ensure_base", pulled)
        patch.setattr(engine, "ensure_emulation", lambda *a, **k: None)
        with pytest.raises(UserError, match="refusing to install unverified files"):
            pipeline.prepare(None, M, IMAGE, ARM64, REPO, profile_with(mirror_of_externals(tmp_path / "index")),
                             cache=tmp_path / "cache", log=lambda _: None, allow_unverified=())
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.whl"))


def test_unverified_bytes_are_in_the_content_hash(prepared):
    first, again, other = prepared
    assert first.digest == again.digest != other.digest
    assert [u.component for u in first.unverified] == lockfile.unverified_components(ARM64_LOCK) != []


def test_the_images_pins_json_and_labels_say_which_files_were_installed_unverified(prepared):
    first = prepared[0]
    listed = [u.as_dict() for u in first.unverified]
    pins = json.loads(image_config.with_unverified(first.rendered, listed)["pins.json"])
    assert pins["unverified"] == listed
    assert {k: v for k, v in pins.items() if k != "unverified"} == json.loads(first.rendered["pins.json"])
    assert image_config.with_unverified(first.rendered, []) == first.rendered
    for entry in listed:
        external = next(x for x in INDEX_EXTERNALS if x.component == entry["component"])
        name, data = wheel(external.dist, external.version)
        assert (entry["file"], entry["sha256"]) == (name, hashlib.sha256(data).hexdigest())


def test_install_tier_refuses_an_external_whose_bytes_changed(tmp_path):
    import sys

    sys.path.insert(0, str(REPO / "installer"))
    import install_tier

    name, data = wheel("triton-ascend", "0")
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / name).write_bytes(data)
    item = {"kind": "index", "component": "triton-ascend", "dist": "triton-ascend", "version": "0", "file": name,
            "sha256": "0" * 64, "env": {}, "soc_env": ""}
    with pytest.raises(SystemExit, match=f"{name} has sha256 {hashlib.sha256(data).hexdigest()}, pinned 0000"):
        install_tier.install_item(tmp_path, item, "")


@pytest.mark.parametrize("locked", [True, False], ids=["sha256-in-the-lock", "allowed-unverified"])
def test_the_build_context_names_the_externals_file_and_the_sha256_install_tier_checks(tmp_path, locked):
    import dataclasses

    image = IMAGE.on(PLATFORM)
    comp = image.role("triton_ascend")
    name, data = wheel(comp.dist, comp.version_for(PLATFORM))
    (tmp_path / name).write_bytes(data)
    sha256 = hashlib.sha256(data).hexdigest()
    externals = [{**x, "file": name, "sha256": sha256} if locked and x["component"] == comp.name else x
                 for x in LOCK.externals]
    house = wheelhouse.Wheelhouse(externals={comp.name: tmp_path / name},
                                  unverified=[] if locked else [wheelhouse.Unverified(comp.name, name, sha256)])
    (tmp_path / "tier" / "files").mkdir(parents=True)
    planned = install_plan._item(image, comp, dataclasses.replace(LOCK, externals=externals), PLATFORM)
    item = context._materialize(planned, house, tmp_path / "tier")
    assert (item["kind"], item["file"], item["sha256"]) == ("index", name, sha256)
    assert (tmp_path / "tier" / "files" / name).read_bytes() == data
