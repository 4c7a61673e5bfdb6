"""Command line: `python build.py COMMAND ...`. Thin: parse, call the library, print."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import EXIT_USAGE, UserError
from .paths import REPO

COMMANDS = []  # (name, help, add_arguments, run)


def command(name: str, help_text: str, args=None):
    """Register a sub-command; args(parser) adds its arguments."""
    def register(func):
        COMMANDS.append((name, help_text, args or (lambda parser: None), func))
        return func
    return register


class Context:
    """What every command gets: the repository root and a lazily loaded manifest."""

    def __init__(self, root: Path):
        self.root = root
        self._manifest = None

    @property
    def pins(self) -> Path:
        return self.root / "pins.yaml"

    @property
    def manifest(self):
        if self._manifest is None:
            from .manifest import load_manifest

            self._manifest = load_manifest(self.pins)
        return self._manifest


def image_arg(parser, optional=False):
    if optional:
        parser.add_argument("image", nargs="?", help="image name (default: the default image)")
    else:
        parser.add_argument("image", help="image name (see `list`)")


# ---------------------------------------------------------------- manifest and render

@command("validate", "load pins.yaml and check the schema and every compatibility rule")
def _validate(ctx, args):
    manifest = ctx.manifest
    print(f"{ctx.pins.name}: ok ({len(manifest.components)} components, {len(manifest.images)} images)")
    return 0


@command("render", "render images/<name>/ and the README's generated tables from pins.yaml",
         lambda p: p.add_argument("--check", action="store_true",
                                  help="write nothing; fail with a diff if images/ or README differ"))
def _render(ctx, args):
    from . import render

    outputs = render.render_all(ctx.manifest, ctx.root / "templates", ctx.root)
    if args.check:
        problems = render.drift(outputs, ctx.manifest, ctx.root)
        if problems:
            sys.stdout.write("".join(problems))
            print(f"drift: {len(problems)} generated file(s) differ from pins.yaml; run `make render`",
                  file=sys.stderr)
            return 1
        print(f"render --check: {len(outputs)} generated files match pins.yaml")
        return 0
    changed = render.write(outputs, ctx.manifest, ctx.root)
    for path in changed:
        print(f"wrote {path}")
    print(f"render: {len(changed)} file(s) changed")
    return 0


@command("list", "list the images with their tags")
def _list(ctx, args):
    manifest = ctx.manifest
    rows = [("IMAGE", "DEVICE", "RUNNER", "TAG")]
    for img in manifest.images.values():
        rows.append((img.name + (" *" if img.default else ""), img.device, img.runner,
                     f"{manifest.repository}:{img.human_tag}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    return 0


@command("show", "show an image's resolved pins",
         lambda p: (image_arg(p), p.add_argument("--json", action="store_true", help="print pins.json")))
def _show(ctx, args):
    img = ctx.manifest.image(args.image)
    if args.json:
        print(json.dumps(img.pins(ctx.manifest.repository), indent=2, sort_keys=True))
        return 0
    print(f"{img.name}: {img.device}, python {img.python}, tag {ctx.manifest.repository}:{img.human_tag}")
    print(f"  {'base':<13} {img.base.summary}")
    for role, comp in img.stack.items():
        print(f"  {role:<13} {comp.name:<18} {comp.source:<5} {comp.summary}")
    for key, value in img.env.items():
        print(f"  env {key}={value!r}")
    for patch in img.patches:
        print(f"  patch {patch.name}: {patch.package}/{patch.file}")
    return 0


@command("lint", "run hadolint (with .hadolint.yaml) on every rendered Dockerfile")
def _lint(ctx, args):
    from . import lint

    return lint.hadolint_all(ctx.manifest, ctx.root)


def command_table():
    _load_commands()
    return [(f"build.py {name}", text) for name, text, _, _ in COMMANDS]


def parser() -> argparse.ArgumentParser:
    _load_commands()
    top = argparse.ArgumentParser(prog="build.py", description="Build, test and bump the verl Ascend images.")
    top.add_argument("--root", type=Path, default=REPO,
                     help="repository root holding pins.yaml, templates/ and images/ (default: this repo)")
    subs = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text, add, run in COMMANDS:
        sub = subs.add_parser(name, help=text, description=text)
        add(sub)
        sub.set_defaults(run=run)
    return top


def _load_commands():
    """Command modules register themselves on import."""
    from . import cli_build, cli_bump  # noqa: F401


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    ctx = Context(args.root.resolve())
    try:
        return args.run(ctx, args) or 0
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted: no tag was moved", file=sys.stderr)
        return 130
