"""`build.py lint-pins`: a changed pin must say why (and, when it reaches NPU images, link an issue)."""

from __future__ import annotations

from dataclasses import fields

from .manifest import Component

# what a pin is: every Component field except its identity and the words about it
PIN_FIELDS = tuple(f.name for f in fields(Component) if f.name not in ("name", "keypath", "reason", "issue"))


def pin_of(comp) -> dict:
    return {f: getattr(comp, f) for f in PIN_FIELDS}


def changed_pins(base_manifest, manifest) -> list:
    """(name, old component or None, new component) for every pin that differs."""
    base = base_manifest.components if base_manifest else {}
    out = []
    for name, comp in manifest.components.items():
        old = base.get(name)
        if old is None or pin_of(old) != pin_of(comp):
            out.append((name, old, comp))
    return out


def problems(base_manifest, manifest) -> list:
    found = []
    for name, old, comp in changed_pins(base_manifest, manifest):
        where = f"{manifest.doc.name}:{manifest.doc.line(comp.keypath)}: components.{name}"
        npu = [img for img in manifest.users_of(name) if manifest.images[img].device == "npu"]
        if not comp.reason.strip():
            found.append(f"{where}: changed pin has no reason")
        elif old is not None and old.reason == comp.reason:
            found.append(f"{where}: reason is unchanged since the base; say why this bump")
        if npu and not comp.issue:
            found.append(f"{where}: reaches {', '.join(npu)}: an issue link is required")
    return found
