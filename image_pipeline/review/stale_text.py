"""Text in pins.yaml that still names the release a pin moved away from.

A bump changes a version; the prose about it (`reason`, `differs`, `cpu_stand_in`, `omits`, `without`),
the alternative that mirrors it (vllm-ascend-source on the release branch of vllm-ascend) and any
other text that names the component keep the old release unless someone rewrites them, and nothing
else notices. For every pin changed since the base, each such text that still holds the old value
(a version, tag or branch, as a whole word: 0.23.0 is not in 0.23.0.post1) is a problem, until it is
rewritten or the component's `keeps_text` says, for this change, why it stays. A `reason` may name
the old value beside the new one ("0.23.0 -> 0.23.1" describes the move).

Run by policy.problems: `bump` (before anything is locked), `lint-pins` against --base, `validate`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MOVED = ("version", "tag", "branch")  # the pin fields whose old value prose quotes
KEEP = "keeps_text"
# fields that are the pin itself, or a link: never prose about the release
NOT_PROSE = frozenset({"source", "package", "url", "sha256", "commit", "repo", "issue", "alternative_to",
                       "requires_from", KEEP})


@dataclass(frozen=True)
class Stale:
    keypath: tuple
    component: str
    old: str

    def problem(self, manifest) -> str:
        where = ".".join(str(k) for k in self.keypath)
        return (f"{manifest.doc.name}:{manifest.line(self.keypath)}: {where}: still says {self.old} after the "
                f"{self.component} bump; rewrite it, or say why it stays (bump --keep-text, "
                f"components.{self.component}.{KEEP})")


def moved_values(old, new) -> list:
    """The old values of the fields a bump moved (empty ones and unchanged ones left out)."""
    return [str(old.get(key)) for key in MOVED
            if old.get(key) not in (None, "") and str(old.get(key)) != str(new.get(key) or "")]


def says(text: str, value: str) -> bool:
    """Does text name value as a whole word (with or without a leading v)?"""
    return re.search(rf"(?<![\w.]){_optional_v(value)}(?![\w]|[.+-]\w)", text) is not None


def names(text: str, comp) -> bool:
    spellings = {comp.name, comp.dist, comp.dist.replace("-", "_")}
    return any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w]|-\w)", text, re.IGNORECASE) for s in spellings)


def find(base_manifest, manifest, changed) -> list:
    """Stale texts for `changed` (policy.changed_pins rows), unless the component's keeps_text changed."""
    found = []
    for name, old, comp in changed:
        if old is None or (comp.get(KEEP) and comp.get(KEEP) != old.get(KEEP)):
            continue
        values = moved_values(old, comp)
        new_values = [str(comp.get(key)) for key in MOVED if comp.get(key)]
        for keypath, text in _texts(manifest.doc.data):
            if _about(keypath, text, comp, manifest) and any(says(text, v) for v in values):
                if keypath[-1] == "reason" and keypath[:2] == ("components", name) and any(
                        says(text, v) for v in new_values):
                    continue
                found.append(Stale(keypath, name, next(v for v in values if says(text, v))))
    return found


def _about(keypath: tuple, text: str, comp, manifest) -> bool:
    """Is this text about the component: its own prose, an alternative to it, or text naming it?"""
    if any(key in NOT_PROSE for key in keypath if isinstance(key, str)):
        return False
    if keypath[:2] == ("components", comp.name):
        return len(keypath) > 2 and keypath[2] not in MOVED
    if keypath[0] == "components" and manifest.components.get(keypath[1]) is not None \
            and manifest.components[keypath[1]].get("alternative_to") == comp.name:
        return True
    return names(text, comp)


def _optional_v(value: str) -> str:
    escaped = re.escape(value)
    return escaped if value[:1] in "vV" else f"v?{escaped}"


def _texts(data, keypath=()):
    """(keypath, text) of every string value in the document."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _texts(value, (*keypath, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _texts(value, (*keypath, index))
    elif isinstance(data, str):
        yield keypath, data
