"""The shape of pins.yaml: pins.schema.json, checked by jsonschema, errors as one line.

The schema's `format`s are the grammars in grammar.py. jsonschema reports a path into the
data; the document maps it to the line of the key, so every error reads
``pins.yaml:LINE: dotted.key: message``. The README's schema table is generated from the
schema's descriptions, so the documentation cannot drift from what is enforced.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from pathlib import Path

import jsonschema
from jsonschema import Draft202012Validator, FormatChecker

from . import grammar

SCHEMA_PATH = Path(__file__).with_name("pins.schema.json")


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    checker = FormatChecker(formats=())
    for name, func in grammar.CHECKERS.items():
        checker.checks(name, raises=ValueError)(_passes(func))
    return Draft202012Validator(schema(), format_checker=checker)


def _passes(func):
    """A grammar checker as jsonschema wants it: True, or raise; non-strings are the type's job."""
    def check(value):
        if isinstance(value, str):
            func(value)
        return True
    return check


def check(doc) -> None:
    """Raise the first problem (in file order) as a one-line UserError."""
    errors = list(_validator().iter_errors(doc.data))
    if not errors:
        return
    error = min(errors, key=lambda e: (doc.line(_keypath(e)), -len(e.absolute_path)))
    keypath, message = describe(error)
    raise doc.error(keypath, message)


def _keypath(error) -> tuple:
    return tuple(error.absolute_path)


def describe(error) -> tuple:
    """(keypath, message) a user can act on, for one jsonschema error."""
    keypath = _keypath(error)
    if error.validator in ("if", "allOf", "anyOf"):
        return _describe_nested(error)
    if error.validator == "oneOf" and "x-error-oneOf" in error.schema:
        return keypath, error.schema["x-error-oneOf"]
    if error.validator == "additionalProperties":
        known = list(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(known))[0]
        return keypath + (extra,), f"unknown key{suggest(extra, known)}"
    if error.validator == "required":
        missing = error.message.split("'")[1]
        return keypath, f"missing required key {missing!r}"
    if error.validator == "type":
        return keypath, _type_message(error)
    if error.validator == "format":
        if "propertyNames" in error.schema_path:  # a key breaks its grammar: name the key itself
            keypath += (error.instance,)
        return keypath, str(error.cause) if error.cause else f"{error.instance!r} is not a valid {error.validator_value}"
    if error.validator in ("enum", "const"):
        choices = error.validator_value if error.validator == "enum" else [error.validator_value]
        return keypath, f"must be one of {', '.join(map(str, choices))}, got {error.instance!r}"
    if error.validator == "propertyNames":
        return _describe_name(error)
    if error.validator == "minProperties":
        return keypath, "must be a non-empty mapping"
    if error.validator == "minLength":
        return keypath, "must not be empty"
    if error.validator == "minItems":
        return keypath, "must list at least one item"
    if error.validator == "uniqueItems":
        return keypath, "has duplicate items"
    return keypath, error.message


def _describe_nested(error) -> tuple:
    """if/then and anyOf: the most specific error inside, or the plain message."""
    inner = [e for e in error.context or [] if e.validator != "type" or error.validator != "anyOf"]
    best = jsonschema.exceptions.best_match(inner or error.context or [])
    if best is None:
        return _keypath(error), error.message
    return describe(best)


def _describe_name(error) -> tuple:
    """A key that breaks its grammar: name the key itself."""
    bad = next((key for key in error.instance if _name_problem(error.validator_value, key)), None)
    if bad is None:
        return _keypath(error), error.message
    return _keypath(error) + (bad,), _name_problem(error.validator_value, bad)


def _name_problem(subschema, key):
    errors = list(_validator().descend(key, subschema))
    if not errors:
        return None
    error = errors[0]
    if error.validator == "enum":
        return f"unknown key{suggest(key, error.validator_value)}"
    return str(error.cause) if error.cause else error.message


def _type_message(error) -> str:
    wanted = error.validator_value
    wanted = wanted if isinstance(wanted, str) else " or ".join(wanted)
    article = {"object": "a mapping", "array": "a list", "string": "a string", "boolean": "true or false",
               "integer": "an integer"}.get(wanted, wanted)
    hint = ""
    if wanted == "string" and isinstance(error.instance, (int, float)) and not isinstance(error.instance, bool):
        hint = " (quote it: YAML reads 2.10 as the number 2.1)"
    if wanted == "string" and isinstance(error.instance, list):
        article = "a version string" if error.path and error.path[-1] == "version" else article
    if wanted == "string" and error.path and error.path[-1] == "version":
        article = "a version string"
    return f"must be {article}, got {kind(error.instance)}{hint}"


def kind(value) -> str:
    if value is None:
        return "nothing (null)"
    names = {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a mapping",
             str: "a string"}
    return names.get(type(value), type(value).__name__)


def suggest(key: str, known) -> str:
    close = difflib.get_close_matches(key, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (expected one of: {', '.join(known)})"


def table_rows():
    """(section, key, required, description) for the README's schema section, from the schema."""
    root = schema()
    yield from _rows(root, root)
    for definition in root["$defs"].values():
        if "x-section" in definition:
            yield from _rows(definition, root)
        for prop in definition.get("properties", {}).values():
            if isinstance(prop, dict) and "x-section" in prop:
                yield from _rows(prop, root)


def _rows(definition, root):
    section = definition["x-section"]
    required = set(definition.get("required", ()))
    for key, prop in definition.get("properties", {}).items():
        yield section, key, key in required, _description(prop, root)


def _description(prop, root) -> str:
    if "description" in prop:
        return prop["description"]
    if "$ref" in prop:
        target = root
        for part in prop["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return _description(target, root)
    return ""
