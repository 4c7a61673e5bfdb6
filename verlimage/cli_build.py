"""Commands that talk to the Docker Engine: engine, base, wheelhouse, image, smoke, baseline."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from .cli import image_arg, command
from .errors import UserError


def _network_args(parser):
    group = parser.add_argument_group("network profile (default: the host's pip and apt settings)")
    group.add_argument("--index-url", help="pip index for the build stage")
    group.add_argument("--extra-index-url", action="append", help="extra pip index (repeatable)")
    group.add_argument("--ca-bundle", help="CA bundle handed to the build stage (default: pip's `cert`)")
    group.add_argument("--apt-mirror", help="apt mirror URL (no credentials)")


def _profile(args):
    from . import netprofile

    return netprofile.from_host(index_url=args.index_url, extra_index_urls=args.extra_index_url,
                                ca_bundle=args.ca_bundle, apt_mirror=args.apt_mirror)


def _smoke_args(parser):
    parser.add_argument("--only", default="", help="run only these checks (comma-separated names or prefixes)")
    parser.add_argument("--log-wait", type=float, default=60.0, help="cap of the wait for first output (s)")
    parser.add_argument("--log-poll", type=float, default=10.0, help="poll interval of that wait (s)")


def _image_cmd_args(parser):
    image_arg(parser, optional=True)
    parser.add_argument("--progress", choices=("auto", "pretty", "plain"), default="auto",
                        help="build output: one line per step, or every line with timestamps (CI)")
    parser.add_argument("--force", action="store_true", help="build and smoke-test even if the tag exists")
    parser.add_argument("--cache-from", action="append", default=[],
                        help="local image whose layers the build may reuse (e.g. pulled from the registry)")
    _network_args(parser)
    _smoke_args(parser)


def _resolve_image(ctx, args):
    return ctx.manifest.image(args.image) if args.image else ctx.manifest.default_image


@command("engine", "make sure a Docker Engine answers: as root, install docker.io and start dockerd if none does")
def _engine(ctx, args):
    from . import engine

    engine.ensure_engine()
    return 0


@command("base", "make an image's base exist locally: pull, else debootstrap (Debian), else --load a tarball",
         lambda p: (image_arg(p, optional=True),
                    p.add_argument("--load", type=Path, help="docker-save tarball of the base (CANN bases)"),
                    p.add_argument("--mirror", help="Debian mirror for debootstrap"),
                    p.add_argument("--no-pull", action="store_true", help="do not try the registry")))
def _base(ctx, args):
    from . import base, engine

    image = _resolve_image(ctx, args)
    base.ensure_base(engine.client(), image.base, mirror=args.mirror, load=args.load, pull=not args.no_pull)
    return 0


@command("wheelhouse", "download the image's pinned wheels (and url artifacts) on the host, for offline installs",
         lambda p: (image_arg(p, optional=True),
                    p.add_argument("--platform", choices=("linux/amd64", "linux/arm64"),
                                   help="target platform (default: this host's)")))
def _wheelhouse(ctx, args):
    from . import wheelhouse

    image = _resolve_image(ctx, args)
    wheelhouse.ensure_wheelhouse(image, args.platform)
    wheelhouse.ensure_artifacts(image)
    return 0


@command("image", "build an image (base, wheelhouse, build), run its smoke suite, and only then promote its tags",
         _image_cmd_args)
def _image(ctx, args):
    from . import engine, pipeline, smoke

    image = _resolve_image(ctx, args)
    api = engine.client()
    plain = args.progress == "plain" or (args.progress == "auto" and not sys.stdout.isatty())

    def smoke_runner(reference):
        outcome = smoke.run(api, image.name, reference, only=args.only, log_wait_cap=args.log_wait,
                            log_wait_poll=args.log_poll)
        print(smoke.summary_table(outcome))
        return outcome

    outcome = pipeline.run(api, ctx.manifest, image, ctx.root, _profile(args), smoke_runner=smoke_runner,
                           plain=plain, force=args.force, cache_from=args.cache_from, mirror=args.apt_mirror)
    if not outcome.promoted:
        return 1
    print(f"image {image.name}: {outcome.tags.final} ({', '.join(outcome.tags.moving)})")
    return 0


@command("smoke", "run the smoke suite inside a built image (default: its promoted tag)",
         lambda p: (image_arg(p, optional=True), _smoke_args(p),
                    p.add_argument("--tag", help="image reference to test instead of <repository>:<image>"),
                    p.add_argument("--fault", action="append", default=[],
                                   help="inject a fault the suite must catch: no-slot-drain | corrupt-byte")))
def _smoke(ctx, args):
    from . import engine, smoke

    image = _resolve_image(ctx, args)
    reference = args.tag or f"{ctx.manifest.repository}:{image.name}"
    api = engine.client()
    smoke.require_reference(api, reference)
    outcome = smoke.run(api, image.name, reference, only=args.only, faults=args.fault,
                        log_wait_cap=args.log_wait, log_wait_poll=args.log_poll)
    print(smoke.summary_table(outcome))
    return 0 if outcome.passed else 1


@command("baseline", "show (or --update) the image's smoke-training baseline from a fresh run in the image",
         lambda p: (image_arg(p, optional=True),
                    p.add_argument("--update", action="store_true", help="write the baseline file in this repo"),
                    p.add_argument("--tag", help="image reference (default: <repository>:<image>)")))
def _baseline(ctx, args):
    from smoke_tests import metrics

    from . import engine, smoke

    image = _resolve_image(ctx, args)
    reference = args.tag or f"{ctx.manifest.repository}:{image.name}"
    api = engine.client()
    smoke.require_reference(api, reference)
    outcome = smoke.run(api, image.name, reference, only="train", echo=False)
    if not outcome.metrics:
        raise UserError(f"the training run produced no metrics ({outcome.reason}); see {outcome.directory}")
    device = "npu" if smoke.detect_npu().present else "cpu"
    path = metrics.baseline_path(image.name, device, ctx.root / "smoke_tests" / "baselines")
    new = metrics.baseline_text(image.name, device, outcome.metrics)
    old = path.read_text() if path.exists() else ""
    diff = "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{path.name}", f"b/{path.name}"))
    print(diff or f"{path.name}: unchanged")
    if args.update and diff:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(new)
        print(f"wrote {path.relative_to(ctx.root)}")
    return 0


@command("publish", "push a promoted image to a registry by digest, then move its tags there",
         lambda p: (image_arg(p, optional=True),
                    p.add_argument("--registry", required=True, help="e.g. quay.io/ascend or 127.0.0.1:5000")))
def _publish(ctx, args):
    from . import engine, publish

    publish.publish(engine.client(), ctx.manifest, _resolve_image(ctx, args), args.registry)
    return 0
