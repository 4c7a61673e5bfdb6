"""Commands that read pins.yaml and write generated files: validate, render, lock, list, show, lint."""

from __future__ import annotations

import json
import os
import sys

from .. import tables
from ..errors import UserError
from . import PLATFORMS, command, image_arg, network_args, profile_of, readme_blocks


def _validate_args(parser):
    parser.add_argument("--base", help="git ref the pin policy compares pins.yaml with (default: HEAD, so a hand "
                                       "edit not yet committed is checked; outside a git work tree: not run)")


@command("validate", "load pins.yaml and check the schema, every compatibility rule, the pins against the locks "
                     "and the pin policy against --base", _validate_args)
def _validate(inv, args):
    from ..lock import consistency
    from ..review import affected, policy
    from ..smoke import baseline

    manifest = inv.manifest
    consistency.check_pins(manifest, inv.root)
    baseline.check_committed(manifest, inv.root)
    if args.base or affected.is_work_tree(inv.root):
        ref = args.base or "HEAD"
        base = affected.manifest_at(inv.root, ref)
        if base is None:
            policy_note = f"pin policy not run: pins.yaml of {ref} does not load with this schema (lint-pins --base " \
                          f"{ref} checks every pin as new)"
        else:
            found = policy.problems(base, manifest)
            if found:
                raise UserError(found[0] + (f" (and {len(found) - 1} more: build.py lint-pins)" if len(found) > 1
                                            else ""))
            policy_note = f"pin policy against {ref}"
    else:
        policy_note = "pin policy not run: no git work tree here (pass --base)"
    print(f"{inv.pins.name}: ok ({len(manifest.components)} components, {len(manifest.images)} images; {policy_note})")
    return 0


@command("render", "render images/<name>/ and the generated tables of README.md and docs/ from pins.yaml and the locks",
         lambda p: p.add_argument("--check", action="store_true",
                                  help="write nothing; fail with a diff if a generated file or a lock is stale"))
def _render(inv, args):
    from ..lock.resolve import uv_version
    from ..render import tree
    from ..smoke import baseline

    baseline.check_committed(inv.manifest, inv.root)
    outputs = tree.render_all(inv.manifest, inv.root, readme_blocks())
    if args.check:
        problems = tree.drift(outputs, inv.manifest, inv.root) + tree.stale_locks(inv.manifest, inv.root, uv_version())
        if problems:
            sys.stdout.write("".join(problems))
            print(f"drift: {len(problems)} generated file(s) differ from pins.yaml; run `make render` "
                  f"(and `make lock` for locks)", file=sys.stderr)
            return 1
        print(f"render --check: {len(outputs)} generated files and every lock match pins.yaml")
        return 0
    changed = tree.write(outputs, inv.manifest, inv.root)
    for path in changed:
        print(f"wrote {path}")
    print(f"render: {len(changed)} file(s) changed")
    return 0


def _lock_args(parser):
    parser.add_argument("--check", action="store_true", help="resolve, write nothing, fail if a lock would change")
    parser.add_argument("--image", action="append", help="only this image (repeatable)")
    parser.add_argument("--fresh", action="store_true",
                        help="resolve from scratch: the committed locks' versions are not preferred")
    parser.add_argument("--jobs", type=int, help="locks resolved at once (default: one per core)")
    parser.add_argument("--platform", action="append", choices=PLATFORMS,
                        help="only this platform (repeatable)")
    network_args(parser)


@command("lock", "resolve every image's Python stack for each of its platforms with uv; write images/*/pylock.*.toml",
         _lock_args)
def _lock(inv, args):
    from .. import tables as t
    from ..lock.run import lock_all
    from ..files import atomic_write

    outputs = lock_all(inv.manifest, inv.root, profile_of(args), inv.cache, images=args.image,
                       platforms=args.platform, fresh=args.fresh, jobs=args.jobs)
    changed = {path: text for path, text in outputs.items() if not path.exists() or path.read_text() != text}
    if args.check:
        for path, text in changed.items():
            old = path.read_text() if path.exists() else ""
            sys.stdout.write(t.unified_diff(old, text, str(path.relative_to(inv.root)), " (fresh lock)"))
        if changed:
            print(f"lock --check: {len(changed)} lock(s) differ from a fresh resolution; run `make lock`",
                  file=sys.stderr)
            return 1
        print(f"lock --check: {len(outputs)} locks reproduce byte for byte")
        return 0
    for path, text in changed.items():
        atomic_write(path, text)
        print(f"wrote {path.relative_to(inv.root)}")
    print(f"lock: {len(changed)} of {len(outputs)} lock(s) changed")
    return 0


@command("list", "list the images with their platforms and tags")
def _list(inv, args):
    manifest = inv.manifest
    rows = [(img.name + (" *" if img.default else ""), img.device, ",".join(img.platforms), img.runner.name,
             f"{manifest.repository}:{img.human_tag}") for img in manifest.images.values()]
    print(tables.text(("IMAGE", "DEVICE", "PLATFORMS", "RUNNER", "TAG"), rows))
    return 0


@command("show", "show an image's resolved pins",
         lambda p: (image_arg(p), p.add_argument("--json", action="store_true", help="print pins.json")))
def _show(inv, args):
    manifest = inv.manifest
    img = manifest.image(args.image)
    if args.json:
        print(json.dumps(img.pins(manifest.repository), indent=2, sort_keys=True))
        return 0
    print(f"{img.name}: {img.device}, python {img.python}, {', '.join(img.platforms)}, "
          f"tag {manifest.repository}:{img.human_tag}")
    rows = [("base", "", img.base.name, img.base.source, img.base.summary)]
    rows += [(tier.name, role, comp.name, comp.source, comp.summary) for tier, role, comp in img.installs()]
    rows += [("", "constraint", comp.name, comp.source, comp.summary) for comp in img.constraints]
    print(tables.text(("LAYER", "ROLE", "COMPONENT", "SOURCE", "PIN"), rows))
    for key, value in img.env.items():
        print(f"env {key}={value!r}")
    for patch in img.patches:
        print(f"patch {patch.name}: {patch.package}/{patch.file}")
    return 0


@command("lint", "run hadolint (with .hadolint.yaml) on every rendered Dockerfile, alternatives included, and "
                 "shellcheck on every install script")
def _lint(inv, args):
    from ..render import lint

    dockerfiles = lint.hadolint_all(inv.manifest, inv.root)
    scripts = lint.shellcheck_all(inv.manifest, inv.root)
    return dockerfiles or scripts


def _export_args(parser):
    image_arg(parser)
    parser.add_argument("--platform", choices=PLATFORMS,
                        help="only this platform's script (default: every platform of the image)")


@command("export", "write an image's bare-metal install scripts (images/<name>/install.<platform>.sh, rendered from "
                   "the same pins and layers as its Dockerfile; they read the lock at run time) and say how to run "
                   "them", _export_args)
def _export(inv, args):
    from ..files import atomic_write
    from ..render import dockerfile, install_script

    manifest = inv.manifest
    image = manifest.image(args.image)
    if args.platform and args.platform not in image.platforms:
        raise UserError(f"{image.name} is not built for {args.platform} (platforms: {', '.join(image.platforms)})",
                        key="--platform")
    env = dockerfile.environment(inv.root / "templates")
    rendered = dockerfile.render_image(env, manifest, image)["Dockerfile"]
    scripts = install_script.render_scripts(env, manifest, image, inv.root, rendered)
    for platform in [args.platform] if args.platform else image.platforms:
        name = install_script.script_name(platform)
        if name not in scripts:
            raise UserError(f"{image.name} has no lock for {platform}: run `python build.py lock --image {image.name}`")
        path = inv.root / "images" / image.name / name
        if not path.exists() or path.read_text() != scripts[name] or not os.access(path, os.X_OK):
            atomic_write(path, scripts[name])
            print(f"wrote {path.relative_to(inv.root)}")
        print(f"{path.relative_to(inv.root)}: on a {platform} host, from this checkout:\n"
              f"    {path.relative_to(inv.root)} [--venv DIR] [--wheelhouse DIR]   (--help for the rest)\n"
              f"  air-gapped: `python build.py wheelhouse {image.name} --platform {platform} --out DIR` where the "
              f"indexes answer, then copy DIR and this checkout over")
    return 0
