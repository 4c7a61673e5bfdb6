"""Image lines: the latest line and frozen verl release lines (pins.yaml `line` axis, image `release`).

A release line shares no component with another line (rule release-line-frozen), so a bump of the
latest line never moves a release image's lock; the supported-tags table lists every image by line.
Expected values are read from pins.yaml, never written here."""

from __future__ import annotations

import copy
import re

import pytest
from packaging.version import Version

from image_pipeline.lock.request import build_request
from image_pipeline.manifest import document
from image_pipeline.manifest.load import build_manifest
from image_pipeline.render import readme

from conftest import REPO, edit, manifest, run_in_process

M = manifest()
RELEASE = [img for img in M.images.values() if img.release]
LATEST = [img for img in M.images.values() if not img.release]
RESOLVER = "the same resolver"  # the fingerprint's resolver part: anything, as long as both sides use it


def _bumped(value: str) -> str:
    """The next release after a pinned one (5.10.4 -> 5.10.5; 2.10.0.post4 -> 2.10.1): a synthetic bump."""
    release = list(Version(value).release)
    release[-1] += 1
    return ".".join(map(str, release))


def _bump(data: dict, name: str) -> None:
    """What `build.py bump` changes in a pin, done to pins.yaml's data in memory."""
    body = data["components"][name]
    if body.get("version"):
        body["version"] = _bumped(str(body["version"]))
    if body.get("commit"):
        body["commit"] = "f" * 40
    if body["source"] == "image":
        body["glibc"] = "2_99"  # the one field of a base that reaches a lock request


def fingerprints(m, images) -> dict:
    return {(img.name, p): build_request(m, img, p).fingerprint(RESOLVER) for img in images for p in img.platforms}


DOC = document.load(REPO / "pins.yaml")


def after_bump(name: str):
    doc = copy.copy(DOC)
    doc.data = copy.deepcopy(DOC.data)
    _bump(doc.data, name)
    return build_manifest(doc, check_rules=False)  # a bump may break a rule; the locks' inputs are the point


def latest_line_components() -> list:
    return sorted({c.name for img in LATEST for c in [img.base, *img.components, *img.constraints, *img.test_tools]})


def test_there_are_latest_and_release_lines():
    assert RELEASE and LATEST
    assert {img.release for img in RELEASE} == set(M.lines()) - {""}


@pytest.mark.parametrize("name", latest_line_components())
def test_a_bump_of_the_latest_line_never_moves_a_release_lock(name):
    """Every pin of the latest line bumped in turn: it moves some latest lock (the bump is real) and no
    release lock (the release line is frozen)."""
    bumped = after_bump(name)
    users = [img for img in LATEST if img.name in M.users_of(name)]
    assert fingerprints(bumped, [bumped.images[i.name] for i in users]) != fingerprints(M, users), \
        f"bumping {name} moved no latest lock: the test bumps nothing"
    assert fingerprints(bumped, [bumped.images[i.name] for i in RELEASE]) == fingerprints(M, RELEASE), name


def test_a_release_image_sharing_a_latest_component_is_refused(repo_copy):
    release = RELEASE[0]
    shared = LATEST[0].test_tools[0].name
    edit(repo_copy / "pins.yaml", f"      release: {release.release}\n",
         f"      release: {release.release}\n      test_tools: [{shared}]\n")
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert "[release-line-frozen]" in line and shared in line and f"release line {release.release}" in line
    assert "the latest line" in line and re.match(r"error: pins\.yaml:\d+: ", line)


def test_a_release_image_must_install_the_verl_release_it_names(repo_copy):
    release = RELEASE[0]
    other = _bumped(release.release.removeprefix("v"))
    edit(repo_copy / "pins.yaml", f"      release: {release.release}\n", f"      release: v{other}\n")
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2
    assert "[release-line-frozen]" in result.stderr and release.role("verl").name in result.stderr


def supported_tags_rows() -> list:
    block = readme._supported_tags(M).splitlines()[2:]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in block]


def test_the_supported_tags_table_lists_every_image_by_line():
    rows = supported_tags_rows()
    assert [row[1].strip("`") for row in rows] == [img.name for img in LATEST + RELEASE]  # latest line first
    for row, img in zip(rows, LATEST + RELEASE):
        assert row[0] == (f"release {img.release}" if img.release else "latest")
        assert f"{M.repository}:{img.human_tag}" in row[2] and f"{M.repository}:{img.name}" in row[2]
        assert row[3] == (img.cann_version or "-") and row[4] == (img.backend or "-")
        assert row[6] == str(img.role("verl").release)
        assert (img.upstream in row[8]) if img.upstream else row[8] == "-"


def test_the_supported_tags_table_is_drift_gated(repo_copy):
    reference = repo_copy / "docs/reference.md"
    edit(reference, f"`{RELEASE[0].name}`", f"`{RELEASE[0].name}-stale`")
    result = run_in_process("render", "--check", root=repo_copy)
    assert result.returncode != 0 and "docs/reference.md" in result.stdout + result.stderr


def test_every_npu_image_names_the_upstream_file_it_is_checked_against(repo_copy):
    for img in M.images.values():
        if img.device == "npu":
            assert img.upstream.startswith("https://") and "{" not in img.upstream, img.name
    edit(repo_copy / "pins.yaml", "      upstream: ", "      # upstream: ", count=1)
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2 and "[npu-upstream-named]" in result.stderr


def deviation_rows() -> list:
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in readme._deviations(M, REPO).splitlines()[2:]]


def test_every_deviation_of_an_npu_image_names_the_upstream_file_it_was_checked_against():
    npu = {img.name for img in M.images.values() if img.device == "npu"}
    rows = [row for row in deviation_rows() if npu & set(re.findall(r"[a-z0-9.-]+", row[1]))
            or row[1].startswith("alternative to")]
    assert rows
    for row in rows:
        assert re.search(r"\]\(https://github\.com/[^)]+\)", row[4]), row
    for comp in M.components.values():
        for url in comp.get("differs") or {}:
            assert any(url in row[4] for row in rows if f"`{comp.name}`" in row[0]), (comp.name, url)
    for img in M.images.values():
        for dist in img.omits:
            assert any(row[0] == f"`{dist}`" and img.name in row[1] and img.upstream in row[4] for row in rows)
        for what in img.differs:
            assert any(row[0] == what and img.name in row[1] and img.upstream in row[4] for row in rows), what


def test_what_an_image_omits_stays_out_of_its_lock_and_out_of_its_stack(repo_copy):
    img = next(i for i in M.images.values() if i.omits)
    for platform in img.platforms:
        assert set(img.omits) <= set(build_request(M, img, platform).excludes)
    omitted = next(iter(img.omits))
    edit(repo_copy / "pins.yaml", f"        {omitted}: ", f"        {img.role('verl').dist}: ")
    result = run_in_process("validate", root=repo_copy)
    assert result.returncode == 2 and "[npu-upstream-named]" in result.stderr and "omits" in result.stderr
