"""pins.yaml as text, data and positions, read and edited with ruamel.yaml's round-trip mode.

ruamel.yaml keeps comments, key order and layout on a load/dump round trip, records the
line of every key and item, and refuses duplicate keys. On top of it this module refuses
what a pins file must not use (anchors and aliases, which make "billion laughs" documents
possible, merge keys, non-string keys), turns YAML values into plain data for the schema,
and writes edits back with the file's own line endings.
"""

from __future__ import annotations

import datetime
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from ..errors import UserError

MAX_BYTES = 1 << 20
MAX_DEPTH = 32
# An anchor (&name) or alias (*name) follows a line start, whitespace or a flow/block indicator; text
# with no such '&' or '*' cannot hold one, and skips the event scan (as costly as the load itself).
MAYBE_ANCHOR = re.compile(r"(?:^|[\s\[\]{},:?-])[&*]", re.M)

KeyPath = tuple  # of str (mapping keys) and int (sequence indexes)


def dotted(keypath: KeyPath) -> str:
    out = ""
    for part in keypath:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _yaml() -> YAML:
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


@dataclass
class Document:
    path: Path
    text: str
    tree: Any  # ruamel's round-trip tree (CommentedMap), edited in place by bump
    data: Any  # the same content as plain dicts, lists and scalars
    lines: dict  # keypath -> 1-based line of the key (or list item) that holds the value

    @property
    def name(self) -> str:
        return self.path.name

    def line(self, keypath: KeyPath) -> int:
        """Line of the key at keypath, or of its nearest ancestor that exists."""
        for cut in range(len(keypath), -1, -1):
            found = self.lines.get(tuple(keypath[:cut]))
            if found:
                return found
        return 1

    def error(self, keypath: KeyPath, message: str) -> UserError:
        return UserError(message, file=self.name, line=self.line(keypath), key=dotted(keypath) or None)

    def dumps(self) -> str:
        """The (possibly edited) tree as text, with the line endings the file was read with."""
        out = io.StringIO()
        _yaml().dump(self.tree, out)
        text = out.getvalue()
        return text.replace("\n", "\r\n") if "\r\n" in self.text else text


def load(path: Path) -> Document:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror}", file=str(path)) from None
    if len(raw) > MAX_BYTES:
        raise UserError(f"file is larger than {MAX_BYTES} bytes", file=path.name)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"not UTF-8 (byte {exc.start})", file=path.name) from None
    return parse(text, path)


def parse(text: str, path: Path) -> Document:
    _refuse_anchors(text, path.name)
    try:
        tree = _yaml().load(text)
    except MarkedYAMLError as exc:
        raise _syntax_error(exc, path.name) from None
    except YAMLError as exc:
        raise UserError(f"YAML error: {str(exc).splitlines()[0]}", file=path.name) from None
    lines: dict = {(): 1}
    data = _plain(tree, (), lines, path.name, depth=0)
    return Document(path=path, text=text, tree=tree, data=data, lines=lines)


def _refuse_anchors(text: str, name: str) -> None:
    if not MAYBE_ANCHOR.search(text):
        return
    try:
        for event in YAML().parse(text):
            if type(event).__name__ == "AliasEvent" or getattr(event, "anchor", None):
                what = "aliases (*name)" if type(event).__name__ == "AliasEvent" else "anchors (&name)"
                raise UserError(f"{what} are not allowed: write each value where it is used",
                                file=name, line=event.start_mark.line + 1)
    except MarkedYAMLError as exc:
        raise _syntax_error(exc, name) from None
    except YAMLError as exc:  # e.g. a character YAML does not allow
        raise UserError(f"YAML error: {' '.join(str(exc).split())[:160]}", file=name) from None


def _syntax_error(exc: MarkedYAMLError, name: str) -> UserError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "invalid YAML"
    if "duplicate key" in problem and exc.context_mark:
        problem = f"duplicate key (first defined on line {exc.context_mark.line + 1})"
    else:
        problem = f"YAML syntax error: {problem}"
    return UserError(problem, file=name, line=mark.line + 1 if mark else None)


def _plain(node, keypath, lines, name, depth):
    if depth > MAX_DEPTH:
        raise UserError("nesting is too deep", file=name, line=lines.get(keypath))
    if isinstance(node, CommentedMap):
        return _plain_mapping(node, keypath, lines, name, depth)
    if isinstance(node, CommentedSeq):
        out = []
        for index, item in enumerate(node):
            lines[keypath + (index,)] = node.lc.item(index)[0] + 1
            out.append(_plain(item, keypath + (index,), lines, name, depth + 1))
        return out
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, (datetime.date, datetime.datetime)):
        return node  # left as is: the schema reports it as a date where text is wanted
    return str(node)


def _plain_mapping(node, keypath, lines, name, depth):
    if getattr(node, "merge", None):
        raise UserError("merge keys (<<) are not allowed", file=name, line=lines.get(keypath),
                        key=dotted(keypath) or None)
    out: dict = {}
    for key in node:
        line = node.lc.key(key)[0] + 1
        if not isinstance(key, str):
            raise UserError(f"keys must be plain strings, got {key!r}", file=name, line=line,
                            key=dotted(keypath) or None)
        lines[keypath + (key,)] = line
        out[key] = _plain(node[key], keypath + (key,), lines, name, depth + 1)
    return out
