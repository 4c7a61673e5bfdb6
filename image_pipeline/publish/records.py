"""Stage records as typed documents: what CI's build and device jobs upload, parsed before the merge acts.

A record crosses a boundary (a CI artifact any job could have written), so nothing in it is trusted:
it must be a regular file under MAX_BYTES, strict JSON (no NaN, no duplicate keys) and valid against
RECORD_SCHEMA (types, `sha256:<64 hex>` digests and image ids, a 64-hex content hash, results from the
suite's own status set, checks a list of names) before the gate reads a field. A problem is one line
naming the file and the field; nothing here touches a registry.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from jsonschema import Draft202012Validator

from ..errors import UserError

MAX_BYTES = 1 << 20  # a record of every check of every stage is a few kB
STATUSES = ("PASS", "FAIL", "NOT RUN", "MEASURED")  # smoke_tests/outcome.py's Result.status
FIELDS = ("image", "platform", "stage", "content_hash", "image_id", "digests", "checks", "results", "passed",
          "reason")
_DIGEST = {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"}
_CHECK = {"type": "string", "pattern": "^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)*$", "maxLength": 128}
# host[:port][/namespace...]: what --registry resolves to (publish.resolve_registry)
_REGISTRY = {"type": "string", "pattern": "^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:[0-9]{1,5})?(/[a-z0-9]+([._-][a-z0-9]+)*)*$",
             "maxLength": 255}

RECORD_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": list(FIELDS),
    "additionalProperties": False,
    "properties": {
        "image": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]*$", "maxLength": 128},
        "platform": {"enum": ["linux/amd64", "linux/arm64"]},
        "stage": {"enum": ["build", "device"]},
        "content_hash": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "image_id": _DIGEST,
        "digests": {"type": "object", "maxProperties": 32, "propertyNames": _REGISTRY, "additionalProperties": _DIGEST},
        "checks": {"type": "array", "maxItems": 256, "uniqueItems": True, "items": _CHECK},
        "results": {"type": "object", "maxProperties": 256, "propertyNames": _CHECK,
                    "additionalProperties": {"enum": list(STATUSES)}},
        "passed": {"type": "boolean"},
        "reason": {"type": "string", "maxLength": 4096},
    },
}
_VALIDATOR = Draft202012Validator(RECORD_SCHEMA)


def read_record(path: Path) -> dict:
    """One stage record, parsed and validated; UserError (one line: file and field) otherwise."""
    record = _strict_json(_read_regular(path), path)
    problems = sorted(_VALIDATOR.iter_errors(record), key=lambda e: [str(p) for p in e.absolute_path])
    if problems:
        first = problems[0]
        field = ".".join(str(p) for p in first.absolute_path) or None
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise UserError(f"not a stage record: {_message(first)}{more}", file=str(path), key=field)
    return record


def read_directory(directory: Path, image_name: str) -> list:
    """The records of one image in a directory (those of other images are not read)."""
    if not directory.is_dir():
        raise UserError(f"no directory of stage records at {directory}", key="--records")
    return [read_record(path) for path in sorted(directory.glob(f"{image_name}@*.json"))]


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file (not a FIFO, device or symlink: opening one must not block or follow),
    at most MAX_BYTES."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as exc:
        raise UserError(f"cannot read a stage record: {exc.strerror}", file=str(path)) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UserError("not a regular file: a stage record is a file a CI job uploaded", file=str(path))
        if info.st_size > MAX_BYTES:
            raise UserError(f"{info.st_size} bytes: a stage record is at most {MAX_BYTES}", file=str(path))
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise UserError(f"more than {MAX_BYTES} bytes: a stage record is at most that", file=str(path))
    return data


def _strict_json(data: bytes, path: Path):
    def no_constant(name):
        raise ValueError(f"{name} is not JSON")

    def unique(pairs):
        keys = [key for key, _ in pairs]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise ValueError(f"duplicate key {twice[0]!r}")
        return dict(pairs)
    try:
        return json.loads(data.decode("utf-8"), parse_constant=no_constant, object_pairs_hook=unique)
    except (UnicodeDecodeError, ValueError) as exc:
        raise UserError(f"not a stage record: {exc}", file=str(path)) from None


def _message(error) -> str:
    if error.validator == "additionalProperties" and not error.absolute_path:
        return error.message
    if error.validator == "required":
        return f"missing {error.message.split(' ')[0]}"
    return error.message if len(error.message) <= 200 else error.message[:200] + "..."
