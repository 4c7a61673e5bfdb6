"""The README's generated blocks: tables that come from pins.yaml and the code."""

from __future__ import annotations

import re

from .errors import UserError

BEGIN = "<!-- BEGIN GENERATED: {name} (python build.py render) -->"
END = "<!-- END GENERATED: {name} -->"


def blocks(manifest) -> dict:
    from . import rules, schema
    from .cli import command_table
    from .syncdefaults import defaults_table

    return {
        "images": _images_table(manifest),
        "pins": _pins_table(manifest),
        "schema": _table(["section", "key", "required", "meaning"],
                         [[s, f"`{k}`", "yes" if r else "", d] for s, k, r, d in schema.table_rows()]),
        "rules": _table(["rule", "checks"], [[f"`{i}`", d] for i, d in rules.describe()]),
        "cli": _table(["command", "what it does"], [[f"`{c}`", d] for c, d in command_table()]),
        "sync-defaults": defaults_table(),
    }


def regenerate(text: str, manifest) -> str:
    for name, body in blocks(manifest).items():
        begin, end = BEGIN.format(name=name), END.format(name=name)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise UserError(f"missing generated block markers for {name!r}: add\n{begin}\n{end}", file="README.md")
        text = pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)
    return text


def _table(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell).replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _images_table(manifest) -> str:
    rows = []
    for img in manifest.images.values():
        torch = img.stack["torch"].version
        rows.append([f"`{img.name}`" + (" (default)" if img.default else ""), img.device,
                     img.soc_version or "-", f"`{img.base.reference}`", img.python, torch,
                     ", ".join(img.platforms), img.runner, f"`{manifest.repository}:{img.human_tag}`",
                     f"[Dockerfile](images/{img.name}/Dockerfile)"])
    return _table(["image", "device", "SoC", "base", "python", "torch", "platforms", "CI runner", "tag",
                   "file"], rows)


def _pins_table(manifest) -> str:
    rows = []
    for comp in manifest.components.values():
        users = manifest.users_of(comp.name)
        rows.append([f"`{comp.name}`", comp.source, f"[{comp.summary}]({comp.link})", ", ".join(users),
                     comp.reason])
    return _table(["component", "source", "pin", "images", "why"], rows)
