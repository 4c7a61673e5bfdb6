"""The pin policy: a changed pin must say why, when it reaches NPU images link the issue of this change,
and leave no text in pins.yaml that still names the release it moved from (stale_text.py).

Run by `build.py lint-pins` (CI, against --base), `build.py bump` (against the pins it edits) and
`build.py validate` (against --base, default HEAD: a hand edit not yet committed)."""

from __future__ import annotations

from . import stale_text

# the words about a pin: changing only these changes nothing a build installs or resolves
# (whose requirement `wins_over` wins over is checked against the locks on every load)
WORDS = ("reason", "issue", "wins_over", "differs", "cpu_stand_in", "driver", stale_text.KEEP)


def changed_pins(base_manifest, manifest) -> list:
    """(name, old component or None, new component) for every pin whose value differs."""
    base = base_manifest.components if base_manifest else {}
    out = []
    for name, comp in manifest.components.items():
        old = base.get(name)
        if old is None or _pin(old) != _pin(comp):
            out.append((name, old, comp))
    return out


def _pin(comp) -> dict:
    """What a pin is: its spec without the words about it (a `without` by the distributions it leaves out)."""
    pin = {k: v for k, v in comp.spec.items() if k not in WORDS}
    if "without" in pin:
        pin["without"] = sorted(pin["without"])
    return pin


def problems(base_manifest, manifest) -> list:
    found = []
    changed = changed_pins(base_manifest, manifest)
    for name, old, comp in changed:
        where = f"{manifest.doc.name}:{manifest.line(comp.keypath)}: components.{name}"
        npu = [img for img in manifest.users_of(name) if manifest.images[img].device == "npu"]
        if not comp.get("reason", "").strip():
            found.append(f"{where}: changed pin has no reason")
        elif old is not None and old.get("reason") == comp.get("reason"):
            found.append(f"{where}: reason is unchanged since the base; say why this bump")
        if npu and not comp.get("issue"):
            found.append(f"{where}: reaches {', '.join(npu)}: an issue link is required")
        elif npu and old is not None and old.get("issue") == comp.get("issue"):
            found.append(f"{where}: reaches {', '.join(npu)}: the issue link is unchanged since the base; "
                         f"link the issue of this change (bump: --issue)")
    return found + [stale.problem(manifest) for stale in stale_text.find(base_manifest, manifest, changed)]
