"""pins.yaml as text, data and positions, read and edited with ruamel.yaml's round-trip mode.

ruamel.yaml keeps comments, key order and layout on a load/dump round trip, records the
line of every key and item, and refuses duplicate keys. On top of it this module refuses,
with the line, what a pins file must not use. While the document is composed (before any
value is built, at no extra cost): anchors and aliases, which make "billion laughs" documents
possible; tags (`!!python/object`, `!x`), whose constructors build objects or crash; lists and
mappings as keys; nesting deeper than MAX_DEPTH, which would exhaust the composer's recursion.
While values are built: numbers too long for Python, dates that are no dates. Then merge keys
and non-string keys. It turns YAML values into plain data for the schema and writes edits back
with the file's own line endings.
"""

from __future__ import annotations

import copy
import datetime
import io
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.emitter import RoundTripEmitter
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, ScalarEvent
from ruamel.yaml.nodes import MappingNode
from ruamel.yaml.reader import ReaderError

from ..errors import UserError

MAX_BYTES = 1 << 20
MAX_DEPTH = 32
# No count or version in pins.yaml is written with more characters; Python refuses to convert decimal
# text of more than sys.get_int_max_str_digits() (4300) digits, inside ruamel.yaml's constructor.
MAX_NUMBER_CHARS = 64


class Refused(Exception):
    """What the composer or constructor refuses, with where: parse() makes it a UserError."""

    def __init__(self, message: str, mark):
        super().__init__(message)
        self.message = message
        self.line = mark.line + 1 if mark else None


class _Composer(Composer):
    def compose_node(self, parent, index):
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            raise Refused("aliases (*name) are not allowed: write each value where it is used", event.start_mark)
        if event.anchor:
            raise Refused("anchors (&name) are not allowed: write each value where it is used", event.start_mark)
        if event.ctag is not None:
            raise Refused(f"tags ({_tag_text(event.ctag)}) are not allowed: write plain values", event.start_mark)
        if self.depth >= MAX_DEPTH + 1:  # the root is at depth 1 here
            raise Refused(f"nesting is too deep (more than {MAX_DEPTH} levels)", event.start_mark)
        if isinstance(parent, MappingNode) and index is None and not isinstance(event, ScalarEvent):
            # a list or mapping as a key: ruamel builds it as an unhashable key when it nests
            raise Refused("keys must be plain strings, got a list or mapping", event.start_mark)
        return super().compose_node(parent, index)


def _tag_text(tag) -> str:
    """A tag as it was written: !!python/object, !x, !<tag:...>."""
    if tag.handle:
        return f"{tag.handle}{tag.suffix}"
    return tag.suffix if tag.suffix.startswith("!") else f"!<{tag.suffix}>"


class _Constructor(RoundTripConstructor):
    def construct_yaml_int(self, node):
        if len(node.value) > MAX_NUMBER_CHARS:
            raise Refused(f"a number of {len(node.value)} characters (at most {MAX_NUMBER_CHARS}): quote it if it "
                          f"is text", node.start_mark)
        return super().construct_yaml_int(node)

    def construct_yaml_timestamp(self, node, values=None):
        try:
            return super().construct_yaml_timestamp(node, values)
        except ValueError:
            raise Refused(f"{node.value!r} reads as a date but is not one: quote it if it is text",
                          node.start_mark) from None


_Constructor.add_constructor("tag:yaml.org,2002:int", _Constructor.construct_yaml_int)
_Constructor.add_constructor("tag:yaml.org,2002:timestamp", _Constructor.construct_yaml_timestamp)

KeyPath = tuple  # of str (mapping keys) and int (sequence indexes)


def dotted(keypath: KeyPath) -> str:
    out = ""
    for part in keypath:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _Emitter(RoundTripEmitter):
    # ruamel writes a key longer than 128 characters as an explicit `? key` block on dump, which would
    # rewrite lines a bump never touched (the upstream-file URLs keyed under `differs`)
    MAX_SIMPLE_KEY_LENGTH = 4096


def _yaml() -> YAML:
    yaml = YAML()
    yaml.Emitter = _Emitter
    yaml.Composer = _Composer
    yaml.Constructor = _Constructor
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


@dataclass
class Document:
    path: Path
    text: str
    data: Any  # plain dicts, lists and scalars
    lines: dict  # keypath -> 1-based line of the key (or list item) that holds the value
    _tree: Any = field(default=None, repr=False)

    @property
    def tree(self):
        """ruamel's round-trip tree (CommentedMap) of the text, this document's own: bump edits it in place."""
        if self._tree is None:
            self._tree = _compose(self.text, self.path)
        return self._tree

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
        raise UserError(f"not UTF-8 (byte {raw[exc.start]:#04x} at offset {exc.start})", file=path.name,
                        line=raw.count(b"\n", 0, exc.start) + 1) from None
    return parse(text, path)


# text -> (data, lines) of texts parsed before: one process reads the same pins.yaml many times (render,
# check and the README; a bump's base; the tests' copies of the checkout), and ruamel's round-trip parse
# is most of what a render costs
_PARSED: OrderedDict = OrderedDict()
PARSED_KEPT = 8


def parse(text: str, path: Path) -> Document:
    if text in _PARSED:
        _PARSED.move_to_end(text)
        data, lines = _PARSED[text]
        return Document(path=path, text=text, data=copy.deepcopy(data), lines=dict(lines))
    tree = _compose(text, path)
    lines: dict = {(): 1}
    data = _plain(tree, (), lines, path.name)
    _PARSED[text] = (copy.deepcopy(data), dict(lines))
    if len(_PARSED) > PARSED_KEPT:
        _PARSED.popitem(last=False)
    return Document(path=path, text=text, data=data, lines=lines, _tree=tree)


def _compose(text: str, path: Path):
    try:
        return _yaml().load(text)
    except Refused as exc:
        raise UserError(exc.message, file=path.name, line=exc.line) from None
    except MarkedYAMLError as exc:
        raise _syntax_error(exc, path.name) from None
    except ReaderError as exc:  # a character YAML does not allow in a file (NUL, DEL, C1 controls)
        raise UserError(f"character U+{exc.character:04X} is not allowed in YAML", file=path.name,
                        line=text.count("\n", 0, exc.position) + 1) from None
    except YAMLError as exc:
        raise UserError(f"YAML error: {' '.join(str(exc).split())[:160]}", file=path.name) from None


def _syntax_error(exc: MarkedYAMLError, name: str) -> UserError:
    mark = exc.problem_mark or exc.context_mark
    problem = exc.problem or exc.context or "invalid YAML"
    if "duplicate key" in problem and exc.context_mark:
        problem = f"duplicate key (first defined on line {exc.context_mark.line + 1})"
    else:
        problem = f"YAML syntax error: {problem}"
    return UserError(problem, file=name, line=mark.line + 1 if mark else None)


def _plain(node, keypath, lines, name):
    if isinstance(node, CommentedMap):
        return _plain_mapping(node, keypath, lines, name)
    if isinstance(node, CommentedSeq):
        out = []
        for index, item in enumerate(node):
            lines[keypath + (index,)] = node.lc.item(index)[0] + 1
            out.append(_plain(item, keypath + (index,), lines, name))
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


def _plain_mapping(node, keypath, lines, name):
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
        out[key] = _plain(node[key], keypath + (key,), lines, name)
    return out
