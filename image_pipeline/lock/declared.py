"""What a checked-out source tree declares it needs, against what its pin says it needs.

A git pin is installed --no-deps; its `requires` (copied by hand from the tree's pyproject.toml,
e.g. sglang's python/pyproject_npu.toml with the all_npu extra) is what the lock resolves in
its place. Where the tree can be fetched, the build first proves the copy is still right: every
requirement the pyproject declares for the pinned extras must be in `requires` with the same
specifier and marker, or left out on purpose in `without`. `requires` may hold more (what
upstream's image adds by hand).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name


def declared(pyproject: Path, extras) -> list:
    """The requirements of the project and of the extras (self-references such as sglang[diffusion] expanded)."""
    project = tomllib.loads(pyproject.read_text())["project"]
    name = canonicalize_name(project["name"])
    optional = project.get("optional-dependencies") or {}
    out, seen, pending = [], set(), ["", *extras]
    while pending:
        extra = pending.pop(0)
        if extra in seen:
            continue
        seen.add(extra)
        for line in (project.get("dependencies") or []) if extra == "" else optional.get(extra, []):
            requirement = Requirement(line)
            if canonicalize_name(requirement.name) == name:
                pending += sorted(requirement.extras)
            else:
                out.append(requirement)
    return out


def pyproject_of(comp) -> str:
    """The tree's file that says what the pin installs: the swapped-in pyproject, or the subdirectory's."""
    install = comp.install
    return install.get("pyproject") or str(Path(install.get("subdirectory", "")) / "pyproject.toml")


def problems(comp, tree: Path) -> list:
    """One line per declared requirement the pin's `requires` lacks or states differently."""
    pyproject = tree / pyproject_of(comp)
    if not pyproject.is_file():
        return [f"{pyproject.relative_to(tree)} is not in the tree"]
    try:
        wanted = declared(pyproject, comp.get("extras") or ())
    except (KeyError, InvalidRequirement, tomllib.TOMLDecodeError) as exc:
        return [f"{pyproject.relative_to(tree)} cannot be read: {exc}"]
    pinned = {canonicalize_name(r.name): r for r in map(Requirement, comp.get("requires") or ())}
    left_out = {canonicalize_name(d) for d in comp.get("without") or {}}
    found = []
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        if name in left_out:
            continue
        mine = pinned.get(name)
        if mine is None:
            found.append(f"declares {requirement}, which `requires` lacks")
        elif (mine.specifier, mine.marker and str(mine.marker)) != (requirement.specifier,
                                                                    requirement.marker and str(requirement.marker)):
            found.append(f"declares {requirement}, `requires` says {mine}")
    return found
