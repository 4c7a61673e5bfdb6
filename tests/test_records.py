"""Stage records are hostile until checked (image_pipeline/publish/records.py, the merge gate in ci_stages.py).

Every case goes through the real CLI (`build.py merge`, in process) against a registry address nothing
answers at: a record refused in one line (exit 2) is refused before any registry is contacted.
"""

import json
import os

import pytest

from image_pipeline.publish import ci_stages, records

from conftest import REPO, run_in_process
from test_stages import CPU, DIGEST, IMAGE_ID, REGISTRY, both_stages, merge_cli, record, refused

HASH = "d" * 64


def _replace(records_, where_platform, where_stage, **changes):
    return [({**r, **changes} if (r["platform"], r["stage"]) == (where_platform, where_stage) else r)
            for r in records_]


@pytest.mark.parametrize("value", ["false", "true", 1, 0, None, [], {}])
def test_passed_must_be_a_json_boolean(tmp_path, value):
    """`"passed": "false"` is truthy: a gate that believed it would promote."""
    line = refused(merge_cli(tmp_path, CPU, _replace(both_stages(CPU), "linux/amd64", "device", passed=value)),
                   "not a stage record", "passed")
    assert "boolean" in line


def test_nan_and_infinity_are_not_json(tmp_path):
    directory = tmp_path / "stages"
    directory.mkdir()
    path = directory / "cpu@amd64-device.json"
    path.write_text(json.dumps(record(CPU, "linux/amd64", "device")).replace('"passed": true', '"passed": NaN'))
    refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(directory), root=REPO),
            str(path), "NaN is not JSON")


def test_a_duplicate_key_is_refused_not_taken_last(tmp_path):
    directory = tmp_path / "stages"
    directory.mkdir()
    text = json.dumps(record(CPU, "linux/amd64", "device", passed=False))
    (directory / "cpu@amd64-device.json").write_text(text[:-1] + ', "passed": true}')
    refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(directory), root=REPO),
            "duplicate key 'passed'")


@pytest.mark.parametrize("field,value,words", [
    ("content_hash", "../../../../" + "0" * 52, ["content_hash", "does not match"]),
    ("content_hash", "0123456789ab", ["content_hash"]),
    ("image_id", "sha256:" + "C" * 64, ["image_id"]),
    ("digests", {REGISTRY: "sha256:a/../../../../v2/other/manifests/latest"}, ["digests." + REGISTRY]),
    ("digests", {"127.0.0.1:1/../x": DIGEST}, ["digests"]),
    ("results", ["PASS"], ["results", "object"]),
    ("results", {"train": "PASSED"}, ["results.train"]),
    ("checks", "train", ["checks", "array"]),
    ("checks", ["train; rm -rf /"], ["checks.0"]),
    ("reason", 7, ["reason", "string"]),
    ("platform", "linux/riscv64", ["platform"]),
    ("stage", "merge", ["stage"]),
    ("extra", 1, ["extra"]),
])
def test_a_field_of_the_wrong_type_or_grammar_is_refused_naming_it(tmp_path, field, value, words):
    changed = _replace(both_stages(CPU), "linux/amd64", "build", **{field: value})
    refused(merge_cli(tmp_path, CPU, changed), "not a stage record", *words)


def test_a_missing_field_is_refused_naming_it(tmp_path):
    lacking = [r if (r["platform"], r["stage"]) != ("linux/amd64", "build")
               else {k: v for k, v in r.items() if k != "image_id"} for r in both_stages(CPU)]
    refused(merge_cli(tmp_path, CPU, lacking), "not a stage record", "missing 'image_id'")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    directory = tmp_path / "stages"
    directory.mkdir()
    os.mkfifo(directory / "cpu@amd64-build.json")
    refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(directory), root=REPO),
            "not a regular file")


def test_a_symlink_is_not_followed(tmp_path):
    directory = tmp_path / "stages"
    directory.mkdir()
    target = tmp_path / "elsewhere.json"
    target.write_text(json.dumps(record(CPU, "linux/amd64", "build")))
    (directory / "cpu@amd64-build.json").symlink_to(target)
    refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(directory), root=REPO),
            "cannot read a stage record")


def test_a_record_over_the_size_cap_is_refused(tmp_path):
    directory = tmp_path / "stages"
    directory.mkdir()
    big = record(CPU, "linux/amd64", "build", reason="x" * (records.MAX_BYTES + 1))
    (directory / "cpu@amd64-build.json").write_text(json.dumps(big))
    refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(directory), root=REPO),
            f"at most {records.MAX_BYTES}")


def test_a_missing_records_directory_is_named_as_such(tmp_path):
    line = refused(run_in_process("merge", "cpu", "--registry", REGISTRY, "--records", str(tmp_path / "none"),
                                  root=REPO), "--records", "no directory of stage records")
    assert "no build stage result" not in line


def test_the_build_and_device_records_must_agree_on_the_content_hash(tmp_path):
    changed = _replace(both_stages(CPU), "linux/amd64", "device", content_hash="e" * 64)
    refused(merge_cli(tmp_path, CPU, changed), "cpu linux/amd64", "content_hash", "e" * 64, HASH)


def test_an_image_id_mismatch_is_named_as_one(tmp_path):
    other = "sha256:" + "f" * 64
    line = refused(merge_cli(tmp_path, CPU, _replace(both_stages(CPU), "linux/amd64", "device", image_id=other)),
                   "image_id", other, IMAGE_ID)
    assert "tested" not in line  # not reported as a digest mismatch naming two equal digests


def test_a_result_beyond_the_stages_checks_is_refused(tmp_path):
    records_ = both_stages(CPU)
    device = next(r for r in records_ if (r["platform"], r["stage"]) == ("linux/amd64", "device"))
    device["results"] = {**device["results"], "conformance.extra": "FAIL"}
    refused(merge_cli(tmp_path, CPU, records_), "does not show its checks passed", "conformance.extra FAIL")


def test_a_record_that_ran_another_list_of_checks_is_refused(tmp_path):
    records_ = both_stages(CPU)
    build = next(r for r in records_ if (r["platform"], r["stage"]) == ("linux/amd64", "build"))
    build["checks"] = list(reversed(build["checks"]))
    refused(merge_cli(tmp_path, CPU, records_), "it ran another list")


def test_a_build_that_did_not_push_to_every_registry_is_refused(tmp_path):
    directory = tmp_path / "stages"
    for item in both_stages(CPU):
        ci_stages.write_record(ci_stages.record_path(directory, CPU.name, item["platform"], item["stage"]), item)
    result = run_in_process("merge", "cpu", "--registry", REGISTRY, "--registry", "127.0.0.1:3", "--records",
                            str(directory), root=REPO)
    refused(result, "the build stage pushed nothing to 127.0.0.1:3")


def test_every_committed_record_field_is_in_the_schema():
    assert set(records.RECORD_SCHEMA["required"]) == set(records.FIELDS) == set(
        ci_stages._record(CPU, "linux/amd64", "build", HASH, IMAGE_ID, _Outcome()))


class _Outcome:
    results, passed, reason = [], True, ""
