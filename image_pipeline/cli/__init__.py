"""Command line: `python build.py COMMAND ...`. Thin: parse, call the library, print.

Commands live in three modules by what they touch: manifest (pins, locks, renders: no
engine), engine (bases, builds, smoke runs, publishing) and review (what a change does).
Nothing below this package imports it.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from pathlib import Path

from .. import tables
from ..errors import EXIT_USAGE, UserError
from ..paths import CACHE, PINS, REPO

COMMANDS = []  # (name, help, add_arguments, run)


def command(name: str, help_text: str, args=None):
    """Register a sub-command; args(parser) adds its arguments."""
    def register(func):
        COMMANDS.append((name, help_text, args or (lambda parser: None), func))
        return func
    return register


class Invocation:
    """What every command gets: the repository root and a lazily loaded manifest."""

    def __init__(self, root: Path):
        self.root = root
        self.cache = root / CACHE
        self._manifest = None

    @property
    def pins(self) -> Path:
        return self.root / PINS

    @property
    def manifest(self):
        if self._manifest is None:
            from ..manifest import load_manifest

            self._manifest = load_manifest(self.pins)
        return self._manifest

    def image(self, name: str | None):
        return self.manifest.image(name) if name else self.manifest.default_image


def image_arg(parser, optional=False):
    if optional:
        parser.add_argument("image", nargs="?", help="image name (default: the default image)")
    else:
        parser.add_argument("image", help="image name (see `list`)")


PLATFORMS = ("linux/amd64", "linux/arm64")


def platform_arg(parser, help_text="target platform (default: this host's)"):
    parser.add_argument("--platform", choices=PLATFORMS, help=help_text)


def network_args(parser):
    group = parser.add_argument_group("network profile (default: the host's pip settings)")
    group.add_argument("--index-url", help="PyPI mirror (pip index) for downloads")
    group.add_argument("--extra-index-url", action="append", help="extra pip index (repeatable)")
    group.add_argument("--mirror", action="append", default=[], metavar="INDEX=URL",
                       help="mirror of a pinned index: a simple index URL or a directory (repeatable)")
    group.add_argument("--ca-bundle", help="CA bundle downloads trust (default: pip's `cert`)")
    group.add_argument("--apt-mirror", help="apt mirror URL for image builds (no credentials)")


def profile_of(args):
    from .. import network

    return network.from_host(index_url=getattr(args, "index_url", None),
                             extra_index_urls=getattr(args, "extra_index_url", None),
                             ca_bundle=getattr(args, "ca_bundle", None), apt_mirror=getattr(args, "apt_mirror", None),
                             mirrors=getattr(args, "mirror", None) or ())


def command_table() -> str:
    """The reference's CLI block (docs/reference.md)."""
    _load_commands()
    return tables.markdown(["command", "what it does"], [[f"`build.py {n}`", t] for n, t, _, _ in COMMANDS])


def readme_blocks() -> dict:
    return {"cli": command_table()}


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
    from . import manifest_commands, engine_commands, review_commands  # noqa: F401  (help order)


@contextlib.contextmanager
def termination_as_interrupt():
    """SIGTERM (a CI cancel's second signal) unwinds like Ctrl-C: children are stopped, locks released."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread (main() called from a worker): leave signals alone
        previous = interrupt
    try:
        yield
    finally:
        if previous is not interrupt:
            signal.signal(signal.SIGTERM, previous)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # what follows `--` is a command for a container (`run IMAGE -- COMMAND`), never options of ours
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser().parse_args(argv[:split])
    args.after_dashes = argv[split + 1:]
    if args.after_dashes and not getattr(args, "takes_command", False):
        parser().error(f"{args.command} takes no command after --")
    invocation = Invocation(args.root.resolve())
    try:
        with termination_as_interrupt():
            return args.run(invocation, args) or 0
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted: no tag was moved", file=sys.stderr)
        return 130
