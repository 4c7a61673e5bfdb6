"""The SBOM of an image (image_pipeline/builder/sbom.py): CycloneDX 1.6 JSON that the strict schema accepts,
listing every locked distribution with the sha256 its lock recorded, every external, source build and archive
with its verification status, every installed Debian package, the base and the patches; the same inputs give
the same bytes. Everything is compared with the locks and pins.yaml, never with a version written here."""

import dataclasses
import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest
from cyclonedx.schema import SchemaVersion
from packageurl import PackageURL
from packaging.utils import canonicalize_name
from packaging.version import Version

from image_pipeline.builder import sbom
from image_pipeline.lock import lockfile
from image_pipeline.lock.request import TEST_TIER
from image_pipeline.manifest import load_manifest

from conftest import REPO

MANIFEST = load_manifest(REPO / "pins.yaml")
EPOCH = 1_700_000_000
BASE_ID = "sha256:" + hashlib.sha256(b"the base image").hexdigest()
CONTENT_HASH = hashlib.sha256(b"every build input").hexdigest()
DPKG_STATUS = Path("/var/lib/dpkg/status")

# Made-up Debian versions (an epoch, a +): no version literal in the tests.
V = [f"{n}:{n}.{n}-{n}+b{n}" for n in range(1, 5)]
STATUS_FIXTURE = f"""\
Package: libc6
Status: install ok installed
Priority: optional
Architecture: amd64
Version: {V[0]}
Description: shared libraries
 Package: not-a-package
 Status: install ok installed
 .
 continuation lines belong to the field above them

Package: libc6
Status: install ok installed
Architecture: i386
Version: {V[0]}

Package: tzdata
Status: hold ok installed
Architecture: all
Version: {V[1]}
Conffiles:
 /etc/timezone 0123456789abcdef0123456789abcdef

Package: old-tool
Status: deinstall ok config-files
Architecture: amd64
Version: {V[2]}
Conffiles:
 /etc/old-tool.conf 0123456789abcdef0123456789abcdef

Package: broken-tool
Status: install reinstreq half-installed
Architecture: amd64
Version: {V[3]}

Package: purged-tool
Status: purge ok not-installed
Architecture: amd64
"""
INSTALLED = [("libc6", V[0], "amd64"), ("libc6", V[0], "i386"), ("tzdata", V[1], "all")]


def read_lock(image: str, platform: str):
    return lockfile.read(lockfile.path_for(REPO, image, platform))


def build(image: str, platform: str, lock=None, *, content_hash: str = CONTENT_HASH) -> str:
    return sbom.build_sbom(MANIFEST, MANIFEST.image(image), platform, lock or read_lock(image, platform),
                           dpkg_status=STATUS_FIXTURE, base_reference=MANIFEST.image(image).base.reference,
                           base_id=BASE_ID, content_hash=content_hash, source_date_epoch=EPOCH)


@functools.cache
def built(image: str, platform: str) -> str:
    return build(image, platform)


def every_component(doc: dict) -> list:
    """The components, nested ones included."""
    out = []
    pending = list(doc["components"])
    while pending:
        comp = pending.pop()
        out.append(comp)
        pending += comp.get("components", [])
    return out


def by_ref(doc: dict) -> dict:
    return {comp["bom-ref"]: comp for comp in every_component(doc)}


def properties(comp: dict) -> dict:
    return {prop["name"]: prop["value"] for prop in comp.get("properties", [])}


def sha256s(comp: dict) -> list:
    return [h["content"] for h in comp.get("hashes", []) if h["alg"] == "SHA-256"]


def urls(comp: dict, kind: str) -> list:
    return [ref["url"] for ref in comp.get("externalReferences", []) if ref["type"] == kind]


def verified(comp: dict) -> bool:
    return {"true": True, "false": False}[properties(comp)["verl-image:verified"]]


def locked_as(doc: dict, kind: str) -> list:
    return [comp for comp in doc["components"] if properties(comp).get("verl-image:locked-as") == kind]


def test_dpkg_packages_are_the_installed_ones_sorted_continuation_lines_left_out():
    assert sbom.dpkg_packages(STATUS_FIXTURE) == sorted(INSTALLED)


@pytest.mark.skipif(not DPKG_STATUS.exists() or not shutil.which("dpkg-query"), reason="not a dpkg machine")
def test_dpkg_packages_of_this_machine_are_what_dpkg_query_says_is_installed():
    listed = subprocess.run(["dpkg-query", "-W", "-f",
                             "${db:Status-Eflag} ${db:Status-Status} ${Package} ${Version} ${Architecture}\n"],
                            capture_output=True, text=True, check=True).stdout
    rows = [line.split(" ") for line in listed.splitlines()]
    expected = sorted((name, version, arch) for flag, state, name, version, arch in rows
                      if (flag, state) == ("ok", "installed"))
    assert expected, "dpkg-query lists no installed package"
    assert sbom.dpkg_packages(DPKG_STATUS.read_text(errors="replace")) == expected


def test_the_sbom_of_the_cpu_lock_validates_against_cyclonedx_1_6():
    text = built("cpu", "linux/amd64")
    sbom.validate(text)
    assert json.loads(text)["specVersion"] == SchemaVersion.V1_6.to_version()


def test_every_locked_distribution_is_listed_with_the_sha256_and_url_of_its_lock():
    lock = read_lock("cpu", "linux/amd64")
    listed = {comp["name"]: comp for comp in locked_as(json.loads(built("cpu", "linux/amd64")), "package")}
    assert sorted(listed) == sorted(entry.name for entry in lock.packages)
    pypi = MANIFEST.indexes["pypi"].url
    for entry in lock.packages:
        comp = listed[entry.name]
        purl = PackageURL.from_string(comp["purl"])
        assert (comp["version"], purl.type, purl.name, purl.version) == (entry.version, "pypi", entry.name, entry.version)
        assert purl.qualifiers.get("repository_url") == (None if entry.index == pypi else entry.index), entry.name
        assert sha256s(comp) == [entry.artifact.sha256], entry.name
        assert urls(comp, "distribution") == ([entry.artifact.url] if entry.artifact.url else []), entry.name
        assert properties(comp)["verl-image:tier"] == entry.tier
        # the test tools are locked with the image but never installed in it
        assert comp.get("scope") == ("excluded" if entry.tier == TEST_TIER else None), entry.name


def test_every_source_build_is_listed_verified_with_its_pinned_sdist():
    lock = read_lock("cpu", "linux/amd64")
    refs = by_ref(json.loads(built("cpu", "linux/amd64")))
    for item in lock.source_builds:
        comp = refs[f"source-build:{item['component']}"]
        assert (comp["name"], comp["version"]) == (item["dist"], item["version"])
        assert sha256s(comp) == [item["sha256"]] and urls(comp, "distribution") == [item["url"]]
        assert verified(comp)


def test_every_installed_dpkg_package_of_the_status_is_listed():
    image = MANIFEST.image("cpu")
    debs = [PackageURL.from_string(comp["purl"]) for comp in json.loads(built("cpu", "linux/amd64"))["components"]
            if comp.get("purl", "").startswith("pkg:deb/")]
    assert sorted((p.name, p.version, p.qualifiers["arch"]) for p in debs) == sorted(INSTALLED)
    for purl in debs:
        assert purl.namespace == "debian" or purl.namespace in image.base.reference


def test_the_base_image_and_the_patches_are_listed_with_their_sha256():
    image = MANIFEST.image("cpu")
    refs = by_ref(json.loads(built("cpu", "linux/amd64")))
    base = refs[f"base:{image.base.reference}"]
    assert (base["type"], base["name"]) == ("container", image.base.reference)
    assert sha256s(base) == [BASE_ID.removeprefix("sha256:")]
    assert properties(base)["verl-image:image-id"] == BASE_ID
    for patch in image.patches:
        comp = refs[f"patch:{patch.name}"]
        assert comp["type"] == "file"
        assert sha256s(comp) == [hashlib.sha256((REPO / patch.diff).read_bytes()).hexdigest()]
        assert properties(comp)["verl-image:patched-package"] == patch.package


def test_the_image_is_the_subject_its_version_the_content_hash_its_time_source_date_epoch():
    doc = json.loads(built("cpu", "linux/amd64"))
    subject = doc["metadata"]["component"]
    assert (subject["type"], subject["version"]) == ("container", CONTENT_HASH)
    assert subject["name"] == f"{MANIFEST.repository}/cpu"
    assert datetime.fromisoformat(doc["metadata"]["timestamp"]) == datetime.fromtimestamp(EPOCH, timezone.utc)


def test_the_same_inputs_give_the_same_bytes_even_in_another_interpreter():
    first = build("cpu", "linux/amd64")
    assert build("cpu", "linux/amd64") == first
    # set iteration order changes with the hash seed: nothing may depend on it
    code = "import sys, test_sbom; sys.stdout.write(test_sbom.build('cpu', 'linux/amd64'))"
    other = subprocess.run([sys.executable, "-c", code], cwd=REPO / "tests", capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(REPO)})
    assert other.stdout == first


def test_the_serial_number_is_a_uuid5_of_the_content_hash_and_platform():
    def serial(text):
        return uuid.UUID(json.loads(text)["serialNumber"].removeprefix("urn:uuid:"))

    first = serial(built("cpu", "linux/amd64"))
    assert first.version == 5
    assert serial(built("cpu", "linux/arm64")) != first
    assert serial(build("cpu", "linux/amd64", content_hash=hashlib.sha256(b"other inputs").hexdigest())) != first


def test_components_come_sorted_by_type_name_version():
    doc = json.loads(built("cpu", "linux/amd64"))
    keys = [(comp["type"], comp["name"], comp.get("version", "")) for comp in doc["components"]]
    assert keys == sorted(keys)


@pytest.mark.parametrize("break_it", [
    pytest.param(lambda comp: comp.pop("name"), id="component-without-name"),
    pytest.param(lambda comp: comp["hashes"][0].update(content=comp["hashes"][0]["content"][:-1]), id="short-hash"),
    pytest.param(lambda comp: comp.update(type="wheel"), id="unknown-type"),
    pytest.param(lambda comp: comp.update(sha256=comp["hashes"][0]["content"]), id="unknown-field"),
])
def test_a_broken_sbom_fails_validation(break_it):
    doc = json.loads(built("cpu", "linux/amd64"))
    doc["components"] = [comp for comp in doc["components"] if comp.get("hashes")][:3]  # a small BOM validates fast
    doc.pop("dependencies")
    sbom.validate(json.dumps(doc))
    break_it(doc["components"][0])
    with pytest.raises(sbom.InvalidSbom):
        sbom.validate(json.dumps(doc))


def test_the_npu_lock_shows_which_externals_are_verified():
    lock = read_lock("npu-a3", "linux/arm64")
    text = built("npu-a3", "linux/arm64")
    sbom.validate(text)
    refs = by_ref(json.loads(text))
    assert lock.externals
    for item in lock.externals:
        comp = refs[f"external:{item['component']}"]
        assert comp["name"] == item["dist"]
        assert verified(comp) == bool(item.get("commit") or item.get("sha256")), item["component"]
        assert sha256s(comp) == ([item["sha256"]] if item.get("sha256") else []), item["component"]
        if item.get("commit"):
            assert comp["version"] == item["commit"] and urls(comp, "vcs") == [item["origin"]]
        else:
            assert comp["version"] == item["version"]


def test_an_index_external_is_verified_exactly_when_its_lock_recorded_a_sha256():
    lock = read_lock("npu-a3", "linux/arm64")
    index_externals = [item for item in lock.externals if not item.get("commit")]
    if not index_externals:
        pytest.skip("the lock has no index external")
    recorded = [{**item, "file": f"{item['dist']}.whl", "sha256": hashlib.sha256(item["dist"].encode()).hexdigest()}
                for item in index_externals]
    unrecorded = [{k: v for k, v in item.items() if k not in ("file", "sha256")} for item in index_externals]
    for externals, expected in ((recorded, True), (unrecorded, False)):
        refs = by_ref(json.loads(build("npu-a3", "linux/arm64", dataclasses.replace(lock, externals=externals))))
        for item in externals:
            comp = refs[f"external:{item['component']}"]
            assert verified(comp) is expected
            assert sha256s(comp) == ([item["sha256"]] if expected else [])


def locks_with_archives() -> list:
    return [(image.name, platform) for image in MANIFEST.images.values() for platform in image.platforms
            if read_lock(image.name, platform).archives]


def test_an_archive_is_listed_with_the_wheels_inside_verified_once_recorded():
    found = locks_with_archives()
    if not found:
        pytest.skip("no lock has an archive of wheels")
    image, platform = found[0]
    lock = read_lock(image, platform)
    recorded = [{**item, "sha256": hashlib.sha256(item["url"].encode()).hexdigest(), "external": "",
                 "files": [{"name": f"{dist.replace('-', '_')}-{item['version']}-py3-none-any.whl",
                            "sha256": hashlib.sha256(dist.encode()).hexdigest()} for dist in item["wheels"]]}
                for item in lock.archives]
    for archives in (lock.archives, recorded):
        text = build(image, platform, dataclasses.replace(lock, archives=archives))
        refs = by_ref(json.loads(text))
        for item in archives:
            comp = refs[f"archive:{item['component']}"]
            assert verified(comp) == bool(item.get("sha256")), item["component"]
            assert sha256s(comp) == ([item["sha256"]] if item.get("sha256") else [])
            assert urls(comp, "distribution") == [item["url"]]
            inside = {wheel["name"]: wheel for wheel in comp["components"]}
            assert sorted(inside) == sorted(canonicalize_name(dist) for dist in item["wheels"])
            for file in item.get("files", []):
                wheel = next(w for name, w in inside.items() if file["name"].startswith(name.replace("-", "_") + "-"))
                assert sha256s(wheel) == [file["sha256"]] and Version(wheel["version"]) == Version(item["version"])
    sbom.validate(text)
