"""Commands for bumping pins and for CI: bump, affected, matrix, lint-pins, pr-body, pr-body-examples, outdated,
patch-check."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import tables
from ..errors import UserError
from . import command, network_args, profile_of, readme_blocks


def _bump_args(parser):
    parser.add_argument("component", help="component name in pins.yaml")
    parser.add_argument("version", nargs="?", help="new version (pypi/url/git with a version), or new tag (image)")
    parser.add_argument("--reason", required=True, help="why the pin moves (one line; required)")
    parser.add_argument("--issue", help="https link explaining the bump (required for pins reaching NPU images)")
    parser.add_argument("--tag", help="git or image: new tag")
    parser.add_argument("--branch", help="git: new branch")
    parser.add_argument("--commit", help="git: full sha the ref must resolve to")
    parser.add_argument("--url", help="url: new download URL")
    parser.add_argument("--sha256", help="url: checksum of the new download")
    parser.add_argument("--also", action="append", default=[], metavar="COMPONENT=VERSION",
                        help="bump another pin in the same change (pins that move together, e.g. torch-npu)")
    parser.add_argument("--keep-text", metavar="REASON",
                        help="why text in pins.yaml that names the old release stays (one line; recorded as the pin's "
                             "keeps_text and shown in the PR body); without it such text refuses the bump")
    parser.add_argument("--dry-run", action="store_true", help="resolve and show the diff, write nothing")
    parser.add_argument("--jobs", type=int, help="locks resolved at once (default: one per core)")
    network_args(parser)


@command("bump", "change pins in place (comments kept), check the rules, re-lock and re-render: all or nothing",
         _bump_args)
def _bump(inv, args):
    from ..review import bump

    edits = [(args.component, {"version": args.version, "tag": args.tag, "branch": args.branch,
                               "commit": args.commit, "url": args.url, "sha256": args.sha256})]
    edits += [(name, {"version": version}) for name, version in (_pair(item) for item in args.also)]
    result = bump.bump(inv.root, edits, reason=args.reason, issue=args.issue, keep_text=args.keep_text,
                       profile=profile_of(args),
                       cache=inv.cache, extra_blocks=readme_blocks(), dry_run=args.dry_run,
                       jobs=args.jobs)
    sys.stdout.write(tables.unified_diff(result.old_text, result.new_text, "pins.yaml"))
    verb = "would change" if args.dry_run else "changed"
    print(f"{verb}: {', '.join(result.changes) or 'nothing'}")
    print(f"affected images: {', '.join(result.affected) or 'none'}")
    return 0


def _pair(item: str):
    name, sep, version = item.partition("=")
    if not (sep and name and version):
        raise UserError(f"expected COMPONENT=VERSION, got {item!r}", key="--also")
    return name, version


def _base_arg(parser):
    parser.add_argument("--base", default="origin/main", help="git ref to compare with (default: origin/main)")


@command("affected", "list the images (and platforms) whose build inputs differ from --base", _base_arg)
def _affected(inv, args):
    from ..review import affected

    change = affected.compare(inv.root, args.base)
    for name, platforms in change.changed.items():
        for platform, inputs in platforms.items():
            print(f"{name} {platform}: {', '.join(inputs)}")
    for name in change.added:
        print(f"{name} (new)")
    for name in change.removed:
        print(f"{name} (removed)")
    return 0


@command("matrix", "the CI job matrix of the affected images: one job per (image, platform, stage) on its runner",
         lambda p: (_base_arg(p), p.add_argument("--json", action="store_true", help="print JSON (for CI)")))
def _matrix(inv, args):
    from ..review import affected

    result = affected.matrix(affected.compare(inv.root, args.base))
    if args.json:
        print(json.dumps(result, separators=(",", ":")))
    else:
        print(tables.text(("IMAGE", "PLATFORM", "STAGE", "RUNNER", "RUNS-ON"),
                          [(j["image"], j["platform"], j["stage"], j["runner"], ", ".join(j["runs_on"]))
                           for j in result["include"]]))
    return 0


@command("lint-pins", "fail when a pin changed against --base without a reason (for NPU images an issue), or left text naming its old release",
         _base_arg)
def _lint_pins(inv, args):
    from ..review import affected, policy

    change = affected.compare(inv.root, args.base)
    found = policy.problems(change.base_manifest, change.manifest)
    for line in found:
        print(line)
    changed = policy.changed_pins(change.base_manifest, change.manifest)
    print(f"lint-pins: {len(changed)} changed pin(s), {len(found)} problem(s)")
    return 1 if found else 0


@command("pr-body", "write the pull-request body (Markdown) for the changes against --base",
         lambda p: (_base_arg(p), p.add_argument("--artifacts", type=Path, help="smoke artifacts directory")))
def _pr_body(inv, args):
    from ..review import affected, prbody

    change = affected.compare(inv.root, args.base)
    sys.stdout.write(prbody.body(inv.root, change, args.artifacts))
    return 0


@command("pr-body-examples", "regenerate docs/examples/*/pr-body.md: each example bump's patch replayed on its base "
                             "commit, today's pr-body run on it (--check: exit 1 naming each that differs)",
         lambda p: p.add_argument("--check", action="store_true", help="write nothing; fail when one differs"))
def _pr_body_examples(inv, args):
    from ..review import examples

    stale = examples.write_or_check(inv.root, check=args.check)
    for example in stale:
        print(f"{example.relative_to(inv.root)}/{examples.BODY}: "
              + ("differs from today's pr-body (run build.py pr-body-examples)" if args.check else "rewritten"))
    return 1 if stale and args.check else 0


@command("outdated", "list pins with a newer release on the index (or git repository) each comes from: a release, "
                     "one without a wheel for a platform, a pre-release; or that the index is not reachable from here",
         network_args)
def _outdated(inv, args):
    from ..review import outdated

    print(outdated.table(outdated.check(inv.manifest, profile_of(args))))
    return 0


@command("patch-check", "check every declared patch against the pinned upstream (or a local install: --site)",
         lambda p: p.add_argument("--site", type=Path, help="site-packages directory to check instead"))
def _patch_check(inv, args):
    from ..review import patches

    return patches.check_all(inv.manifest, inv.root, args.site)
