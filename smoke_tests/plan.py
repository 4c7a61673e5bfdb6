"""The checks table (checks.json), which checks a run selects and what they import. Importing this needs no torch."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

CHECKS_FILE = Path(__file__).with_name("checks.json")
WHERE = ("image", "exported")
_TABLE = json.loads(CHECKS_FILE.read_text())
FAULTS = {fault["name"]: fault for fault in _TABLE["faults"]}
MODULES = _TABLE["modules"]  # module -> {where: modules it imports in turn}
DISTRIBUTIONS = _TABLE["distributions"]  # top-level module -> distributions that install it
EVERY_IMAGE = "all"  # the `imports` key that applies whatever the image's device and roles


@dataclass(frozen=True)
class Check:
    name: str
    run: str  # module:function
    needs_device: bool  # runs only where the image's device is present
    timeout_s: float
    proves: str
    image_devices: tuple = ("cpu", "npu")  # the devices of the images it is a check of
    roles: tuple = ()  # stack roles the image must have (a vllm-ascend check is not one for an sglang image)
    kind: str = "check"  # check | measurement
    optional: bool = False
    promotion: bool = True  # false: a local promotion (--promotion) leaves it to CI's device stage
    imports: tuple = ()  # (where, modules): where is EVERY_IMAGE, a device or a stack role
    engine: str = ""  # the verl checkpoint engine a sync check drives (registry name)
    closes: str = ""  # the runtime difference from upstream's images this check holds the image to
    concurrent: bool = False  # only imports and reads: runs beside the concurrent checks next to it in run order

    def applies_to(self, device: str, roles) -> bool:
        """Is this a check of an image of `device` whose stack has `roles`?"""
        return device in self.image_devices and set(self.roles) <= set(roles)

    def imports_for(self, device: str, roles) -> list:
        return _applicable(self.imports, device, roles)
    where: tuple = WHERE  # image: only inside an image; exported: also in an environment a host install made


def _applicable(by_where, device: str, roles) -> list:
    return [m for where, modules in by_where for m in modules if where in (EVERY_IMAGE, device) or where in roles]


def _pairs(by_where: dict) -> tuple:
    return tuple((where, tuple(modules)) for where, modules in by_where.items())


def load_checks(table: dict = _TABLE) -> list:
    return [Check(**{**item, "image_devices": tuple(item.get("image_devices", ("cpu", "npu"))),
                     "roles": tuple(item.get("roles", ())), "imports": _pairs(item.get("imports", {})),
                     "where": tuple(item.get("where", WHERE))})
            for item in table["checks"]]


def alternatives(module: str) -> list:
    """"a|b" -> [a, b]: verl imports the first of them that exists."""
    return module.split("|")


def required_imports(checks, device: str, roles) -> dict:
    """module -> names of the checks that need it, for an image of `device` with stack `roles`: each
    check's imports and, through MODULES, what those import in turn (in first-seen order)."""
    needed = {}
    for check in checks:
        pending = list(check.imports_for(device, roles))
        while pending:
            module = pending.pop(0)
            users = needed.setdefault(module, [])
            if check.name in users:
                continue
            users.append(check.name)
            pending += _applicable(_pairs(MODULES.get(module, {})), device, roles)
    return needed


def select(checks: list, device: str, only: str, extended: bool, roles=(), promotion=False) -> list:
    """The checks of a run: those for the image's device and stack roles, narrowed by --only (names or
    prefixes); promotion: without the checks a local promotion leaves to CI's device stage."""
    applicable = [c for c in checks if c.applies_to(device, roles)]
    if not only:
        return [c for c in applicable if (extended or not c.optional) and (c.promotion or not promotion)]
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
