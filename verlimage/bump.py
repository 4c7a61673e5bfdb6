"""`build.py bump`: change one pin in pins.yaml in place, validate, re-render.

Only the scalars of the bumped component change: every comment, blank line and key order
stays as written, because values are replaced at the character offsets the strict loader
recorded, not by re-dumping the YAML.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

import yaml

from . import render
from .errors import UserError
from .manifest import build_manifest
from .yamlstrict import load, parse


@dataclass
class BumpResult:
    old_text: str
    new_text: str
    changed_files: list
    affected: list


def fields_for(comp, version, tag, branch, commit, url, sha256) -> dict:
    """What a bump of this component sets, by its source kind."""
    if comp.source == "pypi":
        _require(version, "VERSION", comp)
        return {"version": version}
    if comp.source == "url":
        _require(version and url and sha256, "VERSION, --url and --sha256", comp)
        return {"version": version, "url": url, "sha256": sha256}
    if comp.source == "git":
        ref = tag or branch or (version if comp.tag else None)
        _require(ref and commit, "--tag (or --branch) and --commit", comp)
        out = {"tag" if (tag or (version and comp.tag)) else "branch": ref, "commit": commit}
        if comp.version and version:
            out["version"] = version
        return out
    _require(version or tag, "VERSION (the new image tag)", comp)
    return {"tag": tag or version}


def _require(ok, what, comp):
    if not ok:
        raise UserError(f"a {comp.source} pin needs {what}", key=f"components.{comp.name}")


def edit_text(doc, name: str, values: dict) -> str:
    """pins.yaml text with the component's keys set to values (replaced in place, or appended)."""
    text = doc.text
    keypath = ("components", name)
    if keypath not in doc.spans:
        raise UserError(f"unknown component {name!r}", file=doc.name)
    replacements, appended = [], []
    for key, value in values.items():
        span = doc.spans.get(keypath + (key,))
        if span:
            replacements.append((span.start, span.end, _scalar(value)))
        else:
            appended.append(f"{key}: {_scalar(value)}")
    if "branch" in values and keypath + ("tag",) in doc.spans:
        raise UserError("switching a git pin from tag to branch: edit pins.yaml by hand", key=".".join(keypath))
    for start, end, new in sorted(replacements, reverse=True):
        text = text[:start] + new + text[end:]
    if appended:
        text = _append_keys(text, doc, keypath, appended, replacements)
    return text


def _append_keys(text, doc, keypath, lines, replacements):
    """Insert new keys on the line after the component's last value, at its keys' indentation."""
    inside = [span for k, span in doc.spans.items() if len(k) > len(keypath) and k[:len(keypath)] == keypath]
    last_end = max(span.end for span in inside)
    indent = min(span.key_column for k, span in doc.spans.items() if len(k) == 3 and k[:2] == keypath)
    line_end = doc.text.find("\n", last_end - 1)
    insert_at = len(doc.text) if line_end < 0 else line_end + 1
    shift = sum(len(new) - (end - start) for start, end, new in replacements if start < insert_at)
    block = "".join(" " * indent + line + "\n" for line in lines)
    return text[:insert_at + shift] + block + text[insert_at + shift:]


def _scalar(value: str) -> str:
    """A YAML scalar that reads back as exactly this string."""
    plain = str(value)
    try:
        if plain and yaml.safe_load(plain) == plain and "#" not in plain and ": " not in plain:
            return plain
    except yaml.YAMLError:
        pass
    return json.dumps(plain)


def bump(root: Path, name: str, *, version=None, tag=None, branch=None, commit=None, url=None, sha256=None,
         reason: str, issue: str | None = None, also=(), dry_run=False) -> BumpResult:
    """Bump `name` (and every (component, version) in `also`, for pins that must move together)."""
    pins = root / "pins.yaml"
    doc = load(pins)
    current = build_manifest(doc)
    if not reason.strip():
        raise UserError("say why: --reason must not be empty", key="--reason")
    edits = [(name, dict(version=version, tag=tag, branch=branch, commit=commit, url=url, sha256=sha256))]
    edits += [(other, dict(version=other_version, tag=None, branch=None, commit=None, url=None, sha256=None))
              for other, other_version in also]
    text = doc.text
    for component, given in edits:
        if component not in current.components:
            raise UserError(f"unknown component {component!r} (known: {', '.join(current.components)})",
                            file=pins.name)
        values = fields_for(current.components[component], **given)
        values["reason"] = reason
        if issue:
            values["issue"] = issue
        text = edit_text(parse(text, pins), component, values)
    manifest = build_manifest(parse(text, pins))  # the compatibility rules run here
    before = render.render_all(current, root / "templates", root)
    outputs = render.render_all(manifest, root / "templates", root)
    changed = sorted(str(p) for p, out in outputs.items() if before.get(p) != out)
    affected = sorted({Path(p).parts[1] for p in changed if Path(p).parts[0] == "images"},
                      key=list(manifest.images).index)
    result = BumpResult(doc.text, text, changed, affected)
    if not dry_run:
        render.atomic_write(pins, text)
        render.write(outputs, manifest, root)
    return result


def diff_text(result: BumpResult) -> str:
    return "".join(difflib.unified_diff(result.old_text.splitlines(True), result.new_text.splitlines(True),
                                        "a/pins.yaml", "b/pins.yaml"))

