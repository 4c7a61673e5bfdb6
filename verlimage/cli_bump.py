"""Commands for bumping pins and for CI: bump, affected, matrix, lint-pins, pr-body, outdated, patch-check."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .cli import command


def _bump_args(parser):
    parser.add_argument("component", help="component name in pins.yaml")
    parser.add_argument("version", nargs="?", help="new version (pypi/url), or new tag (image)")
    parser.add_argument("--reason", required=True, help="why the pin moves (required)")
    parser.add_argument("--issue", help="link explaining the bump (required for pins reaching NPU images)")
    parser.add_argument("--tag", help="git: new tag")
    parser.add_argument("--branch", help="git: new branch")
    parser.add_argument("--commit", help="git: full sha the ref must resolve to")
    parser.add_argument("--url", help="url: new download URL")
    parser.add_argument("--sha256", help="url: checksum of the new download")
    parser.add_argument("--also", action="append", default=[], metavar="COMPONENT=VERSION",
                        help="bump another pin in the same change (pins that must move together, e.g. torch_npu)")
    parser.add_argument("--dry-run", action="store_true", help="show the diff, write nothing")


@command("bump", "change one pin in place (comments kept), check the rules, re-render, list affected images",
         _bump_args)
def _bump(ctx, args):
    from . import bump

    result = bump.bump(ctx.root, args.component, version=args.version, tag=args.tag, branch=args.branch,
                       commit=args.commit, url=args.url, sha256=args.sha256, reason=args.reason,
                       issue=args.issue, also=[_pair(item) for item in args.also], dry_run=args.dry_run)
    sys.stdout.write(bump.diff_text(result))
    verb = "would change" if args.dry_run else "changed"
    print(f"{verb}: pins.yaml" + "".join(f", {p}" for p in result.changed_files))
    print(f"affected images: {', '.join(result.affected) or 'none'}")
    return 0


def _pair(item: str):
    from .errors import UserError

    name, sep, version = item.partition("=")
    if not (sep and name and version):
        raise UserError(f"expected COMPONENT=VERSION, got {item!r}", key="--also")
    return name, version


def _base_arg(parser):
    parser.add_argument("--base", default="origin/main", help="git ref to compare with (default: origin/main)")


@command("affected", "list the images whose Dockerfile, build context or smoke tests changed against --base",
         _base_arg)
def _affected(ctx, args):
    from . import affected

    change = affected.compare(ctx.root, args.base)
    for name in change.changed:
        print(name)
    for name in change.added:
        print(f"{name} (new)")
    for name in change.removed:
        print(f"{name} (removed)")
    return 0


@command("matrix", "the CI job matrix (image, runner) of the affected images",
         lambda p: (_base_arg(p), p.add_argument("--json", action="store_true", help="print JSON (for CI)")))
def _matrix(ctx, args):
    from . import affected

    result = affected.matrix(affected.compare(ctx.root, args.base))
    if args.json:
        print(json.dumps(result, separators=(",", ":")))
    else:
        for job in result["include"]:
            print(f"{job['image']:<10} {job['runner']:<12} runs-on: {', '.join(job['runs_on'])}")
    return 0


@command("lint-pins", "fail when a pin changed against --base without a reason (or, for NPU images, an issue)",
         _base_arg)
def _lint_pins(ctx, args):
    from . import affected, policy

    change = affected.compare(ctx.root, args.base)
    found = policy.problems(change.base_manifest, change.manifest)
    for line in found:
        print(line)
    changed = policy.changed_pins(change.base_manifest, change.manifest)
    print(f"lint-pins: {len(changed)} changed pin(s), {len(found)} problem(s)")
    return 1 if found else 0


@command("pr-body", "write the pull-request body (Markdown) for the changes against --base",
         lambda p: (_base_arg(p), p.add_argument("--artifacts", type=Path, help="smoke artifacts directory")))
def _pr_body(ctx, args):
    from . import affected, prbody

    change = affected.compare(ctx.root, args.base)
    sys.stdout.write(prbody.body(ctx.root, change, args.artifacts))
    return 0


@command("outdated", "list pins that have a newer release on their source (PyPI, git tags)")
def _outdated(ctx, args):
    from . import outdated

    print(outdated.table(outdated.check(ctx.manifest)))
    return 0


@command("patch-check", "check every declared patch against the pinned upstream (or a local install: --site)",
         lambda p: p.add_argument("--site", type=Path, help="site-packages directory to check instead"))
def _patch_check(ctx, args):
    from . import patches

    return patches.check_all(ctx.manifest, ctx.root, args.site)
