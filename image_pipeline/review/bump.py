"""`build.py bump`: change pins in pins.yaml, re-lock, re-render: all of it, or nothing.

The pins are edited in ruamel.yaml's round-trip tree, so every comment, blank line, key order,
flow style and the file's line endings stay as written. The whole change is staged in a
scratch copy of the tree (pins.yaml, locks, images/, README and docs/) and only committed, as one
set of file replacements, once the new pins validated, the locked packages' requirements
accept them, the pin policy holds (a new reason; for a pin reaching NPU images, a new issue; no text
left naming the old release unless --keep-text says why)
and uv resolved every image that changed for each of its platforms.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError
from ..files import commit
from ..lock import consistency
from ..lock import lockfile
from ..lock.request import build_request
from ..lock.run import lock_all
from ..manifest import build_manifest, document, grammar
from ..paths import DOCUMENTS
from ..render import readme, tree
from . import policy, stale_text

# What a bump may set, per source kind (anything else given for that kind is refused).
OPTIONS = {
    "pypi": ("version",),
    "url": ("version", "url", "sha256"),
    "git": ("tag", "branch", "commit", "version"),
    "image": ("version", "tag"),
    "archive": ("version",),
}
STAGED = ("pins.yaml", *DOCUMENTS, "images", "templates", "patches", *readme.READ_FILES)


@dataclass
class BumpResult:
    old_text: str
    new_text: str
    changes: dict  # path -> new text (relative paths)
    before: dict  # path -> old text ("" when new)
    affected: list


def fields_for(comp, given: dict) -> dict:
    """The pins.yaml keys a bump of this component sets; options that do not fit it are refused."""
    options = {k: v for k, v in given.items() if v}
    wrong = [k for k in options if k not in OPTIONS[comp.source]]
    if wrong:
        raise UserError(f"--{wrong[0]} does not apply to a {comp.source} pin (it takes "
                        f"{', '.join('--' + o if o != 'version' else 'VERSION' for o in OPTIONS[comp.source])})",
                        key=f"components.{comp.name}")
    if comp.source in ("pypi", "archive"):
        return _require(options, ("version",), comp)
    if comp.source == "url":
        return _require(options, ("version", "url", "sha256"), comp)
    if comp.source == "image":
        tag = options.get("tag") or options.get("version")
        return _require({"tag": tag} if tag else {}, ("tag",), comp)
    out = dict(options)
    if "version" in out and not comp.version:
        raise UserError("this git pin has no version field; its tag says the release", key="VERSION")
    if not (out.get("tag") or out.get("branch")) or not out.get("commit"):
        raise UserError("a git pin needs --tag (or --branch) and --commit", key=f"components.{comp.name}")
    if out.get("tag") and comp.get("branch") or out.get("branch") and comp.get("tag"):
        raise UserError("switching a git pin between tag and branch: edit pins.yaml by hand",
                        key=f"components.{comp.name}")
    return out


def _require(options, keys, comp) -> dict:
    missing = [k for k in keys if not options.get(k)]
    if missing:
        raise UserError(f"a {comp.source} pin needs {', '.join(missing).replace('version', 'VERSION')}",
                        key=f"components.{comp.name}")
    return {k: options[k] for k in keys}


def _text(value: str, key: str) -> str:
    try:
        grammar.one_line(value)
    except ValueError as exc:
        raise UserError(str(exc), key=key) from None
    return value


def edit(doc, name: str, values: dict) -> None:
    """Set the component's keys in the round-trip tree (in place; new keys are appended)."""
    components = doc.tree["components"]
    if name not in components:
        raise UserError(f"unknown component {name!r}", file=doc.name)
    body = components[name]
    if body.get("source") == "archive" and "version" in values:
        for build in body["builds"].values():  # the URLs follow through {version}; the sha256s were the old files'
            build.pop("sha256", None)
    for key, value in values.items():
        body[key] = value


def bump(root: Path, edits: list, *, reason: str, issue: str | None, profile, cache: Path, extra_blocks: dict,
         keep_text: str | None = None, dry_run=False, jobs=None, log=print) -> BumpResult:
    """edits: [(component, {version, tag, branch, commit, url, sha256})]; the first is the main one.
    keep_text: why text naming an old release stays (each edited pin's keeps_text)."""
    pins = root / "pins.yaml"
    doc = document.load(pins)
    current = build_manifest(doc)
    reason = _text(reason, "--reason").strip()
    if not reason:
        raise UserError("say why: --reason must not be empty", key="--reason")
    if issue:
        _check_issue(issue)
    if keep_text is not None:
        keep_text = _text(keep_text, "--keep-text").strip()
        if not keep_text:
            raise UserError("say why the text stays: --keep-text must not be empty", key="--keep-text")
    for name, given in edits:
        if name not in current.components:
            raise UserError(f"unknown component {name!r} (known: {', '.join(current.components)})", file=pins.name)
        values = fields_for(current.components[name], given)
        values["reason"] = reason
        if issue:
            values["issue"] = issue
        if keep_text:
            values[stale_text.KEEP] = keep_text
        else:
            doc.tree["components"].get(name, {}).pop(stale_text.KEEP, None)  # it spoke for an earlier change
        edit(doc, name, values)
    new_text = doc.dumps()
    with tempfile.TemporaryDirectory(prefix="bump-") as tmp:
        scratch = _stage(root, Path(tmp))
        _write_raw(scratch / "pins.yaml", new_text)
        manifest = build_manifest(document.parse(new_text, pins))  # schema and rules run here
        consistency.check_pins(manifest, scratch)
        refused = policy.problems(current, manifest)
        if refused:
            more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
            raise UserError(refused[0] + more)
        affected_locks = _changed_locks(current, manifest, root)
        if affected_locks:
            images = sorted({image for image, _ in affected_locks})
            platforms = sorted({platform for _, platform in affected_locks})
            for path, text in lock_all(manifest, scratch, profile, cache, images=images, platforms=platforms,
                                       jobs=jobs, log=log).items():
                _write_raw(path, text)
        outputs = tree.render_all(manifest, scratch, extra_blocks)
        for rel, text in outputs.items():
            _write_raw(scratch / rel, text)
        changes, before = _collect(root, scratch, manifest)
    affected = sorted({Path(p).parts[1] for p in changes if Path(p).parts[0] == "images"},
                      key=list(manifest.images).index)
    result = BumpResult(doc.text, new_text, changes, before, affected)
    if not dry_run:
        commit({root / rel: text for rel, text in changes.items()})
    return result


def _check_issue(issue: str) -> None:
    try:
        grammar.https_url(issue)
    except ValueError as exc:
        raise UserError(str(exc), key="--issue") from None


def _write_raw(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as handle:
        handle.write(text)


def _stage(root: Path, scratch: Path) -> Path:
    for rel in STAGED:
        source = root / rel
        if source.is_dir():
            shutil.copytree(source, scratch / rel)
        elif source.exists():
            (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, scratch / rel)
    return scratch


def _changed_locks(current, manifest, root) -> list:
    """(image, platform) whose lock inputs the bump changes."""
    from ..lock.resolve import uv_version

    version = uv_version()
    out = []
    for image in manifest.images.values():
        for platform in image.platforms:
            lock = lockfile.read(lockfile.path_for(root, image.name, platform))
            if lock is None or lock.inputs != build_request(manifest, image, platform).fingerprint(version):
                out.append((image.name, platform))
    return out


def _collect(root: Path, scratch: Path, manifest) -> tuple:
    changes, before = {}, {}
    candidates = {Path("pins.yaml"), *map(Path, DOCUMENTS)}
    candidates |= {p.relative_to(scratch) for p in (scratch / "images").rglob("*") if p.is_file()}
    for rel in sorted(candidates):
        new = (scratch / rel).read_bytes().decode() if (scratch / rel).exists() else None
        old = (root / rel).read_bytes().decode() if (root / rel).exists() else ""
        if new is not None and new != old:
            changes[str(rel)] = new
            before[str(rel)] = old
    return changes, before
