"""A strict YAML reader that remembers where every value came from.

pyyaml on its own accepts duplicate keys (the last one silently wins) and expands
aliases, which makes "billion laughs" documents possible. Here both are errors, and
every value keeps its position so that errors can name ``file:line`` and ``bump`` can
rewrite one scalar in place without touching comments or layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import UserError

MAX_BYTES = 1 << 20
MAX_DEPTH = 32

KeyPath = tuple  # of str (mapping keys) and int (sequence indexes)


@dataclass(frozen=True)
class Span:
    line: int  # 1-based line of the value
    start: int  # character offsets of the value in the text
    end: int
    key_line: int  # 1-based line of the key that holds the value (== line for list items)
    key_column: int = 0  # 0-based column of that key


@dataclass
class Document:
    path: Path
    text: str
    data: Any
    spans: dict

    @property
    def name(self) -> str:
        return self.path.name

    def line(self, keypath: KeyPath) -> int:
        """Line of the value at keypath, or of its nearest ancestor that exists."""
        for cut in range(len(keypath), -1, -1):
            span = self.spans.get(tuple(keypath[:cut]))
            if span:
                return span.key_line
        return 1

    def error(self, keypath: KeyPath, message: str) -> UserError:
        return UserError(message, file=self.name, line=self.line(keypath), key=dotted(keypath))


def dotted(keypath: KeyPath) -> str:
    out = ""
    for part in keypath:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class _NoAliasLoader(yaml.SafeLoader):
    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise _Refused("aliases (*name) are not allowed", event.start_mark)
        if getattr(event, "anchor", None):
            raise _Refused("anchors (&name) are not allowed", event.start_mark)
        return super().compose_node(parent, index)


class _Refused(Exception):
    def __init__(self, message, mark):
        super().__init__(message)
        self.message = message
        self.mark = mark


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
    loader = _NoAliasLoader(text)
    try:
        node = loader.get_single_node()
    except _Refused as exc:
        raise UserError(exc.message, file=path.name, line=exc.mark.line + 1) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise UserError(f"YAML syntax error: {problem}", file=path.name, line=line) from None
    except yaml.YAMLError as exc:
        raise UserError(f"YAML error: {exc}", file=path.name) from None
    finally:
        loader.dispose()
    spans: dict = {}
    data = _convert(node, (), spans, path.name, loader, node.start_mark.line + 1 if node else 1)
    return Document(path=path, text=text, data=data, spans=spans)


def _convert(node, keypath, spans, fname, loader, key_line, key_column=0):
    if node is None:
        return None
    if len(keypath) > MAX_DEPTH:
        raise UserError("nesting is too deep", file=fname, line=node.start_mark.line + 1)
    spans[keypath] = Span(node.start_mark.line + 1, node.start_mark.index, node.end_mark.index, key_line,
                          key_column)
    if isinstance(node, yaml.MappingNode):
        return _convert_mapping(node, keypath, spans, fname, loader)
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, keypath + (i,), spans, fname, loader, item.start_mark.line + 1)
                for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def _convert_mapping(node, keypath, spans, fname, loader):
    result: dict = {}
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        if not (isinstance(key_node, yaml.ScalarNode) and key_node.tag == "tag:yaml.org,2002:str"):
            raise UserError(f"keys must be plain strings, got {key_node.value!r}", file=fname, line=line,
                            key=dotted(keypath) or None)
        key = key_node.value
        if key == "<<":
            raise UserError("merge keys (<<) are not allowed", file=fname, line=line, key=dotted(keypath) or None)
        if key in result:
            first = spans[keypath + (key,)].key_line
            raise UserError(f"duplicate key (first defined on line {first})", file=fname, line=line,
                            key=dotted(keypath + (key,)))
        result[key] = _convert(value_node, keypath + (key,), spans, fname, loader, line,
                               key_node.start_mark.column)
    return result
