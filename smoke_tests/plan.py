"""The checks table (checks.json) and which checks a run selects. Importing this needs no torch."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

CHECKS_FILE = Path(__file__).with_name("checks.json")
WHERE = ("image", "exported")
FAULTS = {fault["name"]: fault for fault in json.loads(CHECKS_FILE.read_text())["faults"]}


@dataclass(frozen=True)
class Check:
    name: str
    run: str  # module:function
    device: bool  # needs the image's device
    timeout_s: float
    proves: str
    devices: tuple = ("cpu", "npu")
    roles: tuple = ()  # stack roles the image must have (a vllm-ascend check is not one for an sglang image)
    kind: str = "check"  # check | measurement
    optional: bool = False
    where: tuple = WHERE  # image: only inside an image; exported: also in an environment a host install made


def load_checks() -> list:
    raw = json.loads(CHECKS_FILE.read_text())["checks"]
    return [Check(**{**item, "devices": tuple(item.get("devices", ("cpu", "npu"))),
                     "roles": tuple(item.get("roles", ())), "where": tuple(item.get("where", WHERE))}) for item in raw]


def select(checks: list, device: str, only: str, extended: bool, roles=()) -> list:
    """The checks of a run: those for the image's device and stack roles, narrowed by --only (names or prefixes)."""
    applicable = [c for c in checks if device in c.devices and set(c.roles) <= set(roles)]
    if not only:
        return [c for c in applicable if extended or not c.optional]
    wanted = [w.strip() for w in only.split(",") if w.strip()]
    unknown = [w for w in wanted if not any(c.name == w or c.name.startswith(w + ".") for c in checks)]
    if unknown:
        raise ValueError(f"no check matches {', '.join(unknown)!r}")
    chosen = [c for c in applicable if any(c.name == w or c.name.startswith(w + ".") for w in wanted)]
    inapplicable = [w for w in wanted if not any(c.name == w or c.name.startswith(w + ".") for c in chosen)]
    if inapplicable:
        raise ValueError(f"{', '.join(inapplicable)!r} does not apply to this image ({device}, roles "
                         f"{', '.join(sorted(roles)) or 'none'})")
    return chosen
