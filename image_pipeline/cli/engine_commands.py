"""Commands that talk to the Docker Engine: engine, base, wheelhouse, image, smoke, baseline, publish."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import UserError
from . import command, image_arg, network_args, platform_arg, profile_of

ARTIFACTS = "artifacts"


def _platform(args) -> str:
    from ..build import engine

    return args.platform or engine.host_platform()


def _smoke_args(parser):
    parser.add_argument("--only", default="", help="run only these checks (comma-separated names or prefixes)")
    parser.add_argument("--log-wait", type=float, default=60.0, help="cap of the wait for first output (s)")
    parser.add_argument("--log-poll", type=float, default=10.0, help="poll interval of that wait (s)")


def _image_cmd_args(parser):
    image_arg(parser, optional=True)
    platform_arg(parser)
    parser.add_argument("--alternative", help="build the image with this declared alternative component "
                                              "(images/<name>/Dockerfile.<alternative>)")
    parser.add_argument("--progress", choices=("auto", "pretty", "plain"), default="auto",
                        help="build output: one line per step, or every line with timestamps (CI)")
    parser.add_argument("--force", action="store_true", help="build and smoke-test even if the content tag exists")
    parser.add_argument("--cache-from", action="append", default=[],
                        help="image whose layers the build may reuse (e.g. the registry's current one)")
    network_args(parser)
    _smoke_args(parser)


@command("engine", "make sure a Docker Engine answers (as root: install docker.io, start dockerd) and that each "
                   "--platform runs here (QEMU for foreign ones)",
         lambda p: p.add_argument("--platform", action="append", default=[], choices=("linux/amd64", "linux/arm64"),
                                  help="a platform builds must run for (repeatable)"))
def _engine(inv, args):
    from ..build import engine

    engine.ensure_engine(args.platform)
    return 0


@command("base", "make an image's base exist locally for a platform: pull, else debootstrap (Debian), else --load",
         lambda p: (image_arg(p, optional=True), platform_arg(p),
                    p.add_argument("--load", type=Path, help="docker-save tarball of the base (CANN bases)"),
                    p.add_argument("--mirror", help="Debian mirror for debootstrap"),
                    p.add_argument("--no-pull", action="store_true", help="do not try the registry")))
def _base(inv, args):
    from ..build import base, engine

    image = inv.image(args.image)
    base.ensure_base(engine.client(), image.base, _platform(args), mirror=args.mirror, load=args.load,
                     pull=not args.no_pull, cache=inv.cache)
    return 0


@command("wheelhouse", "download an image's locked files (and externals) for a platform, for the offline build",
         lambda p: (image_arg(p, optional=True), platform_arg(p), network_args(p)))
def _wheelhouse(inv, args):
    from ..build import wheelhouse

    wheelhouse.fetch(inv.manifest, inv.image(args.image), _platform(args), inv.root, profile_of(args), inv.cache)
    return 0


def _runner(api, image, args, platform):
    from ..smoke import runner

    def run(reference):
        outcome = runner.run(api, image.name, reference, artifacts=Path(ARTIFACTS).resolve(), only=args.only,
                             platform=platform, log_wait_cap=args.log_wait, log_wait_poll=args.log_poll)
        print(runner.summary_table(outcome))
        return outcome
    runner.validate(args.only, ())
    return run


@command("image", "build an image for a platform (base, wheelhouse, BuildKit), run its smoke suite, and only then "
                  "promote its tags", _image_cmd_args)
def _image(inv, args):
    from ..build import engine, pipeline

    image = inv.image(args.image)
    platform = _platform(args)
    alternative = _alternative(inv, image, args.alternative)
    api = engine.client()
    plain = args.progress == "plain" or (args.progress == "auto" and not sys.stdout.isatty())
    outcome = pipeline.run(api, inv.manifest, image, platform, inv.root, profile_of(args),
                           smoke_runner=_runner(api, image, args, platform), plain=plain, force=args.force,
                           alternative=alternative, mirror=args.apt_mirror, cache_from=args.cache_from,
                           cache=inv.cache)
    if not outcome.promoted:
        return 1
    print(f"image {image.name} ({platform}): {outcome.tags.final} ({', '.join(outcome.tags.moving)})")
    return 0


def _alternative(inv, image, name):
    if name is None:
        return None
    declared = {c.name: c for c in inv.manifest.alternatives_of(image)}
    if name not in declared:
        raise UserError(f"{name!r} is not an alternative of {image.name} (declared: {', '.join(declared) or 'none'})",
                        key="--alternative")
    return declared[name]


@command("smoke", "run the smoke suite inside a built image (default: its promoted tag for the platform)",
         lambda p: (image_arg(p, optional=True), platform_arg(p), _smoke_args(p),
                    p.add_argument("--tag", help="image reference to test instead of <repository>:<image>-<arch>"),
                    p.add_argument("--fault", action="append", default=[],
                                   help="inject a fault the suite must catch (smoke_tests/checks.json lists them)"),
                    p.add_argument("--extended", action="store_true",
                                   help="also run the optional checks (verl's own tests for the device)")))
def _smoke(inv, args):
    from ..build import engine
    from ..manifest.model import arch_of
    from ..smoke import runner

    image = inv.image(args.image)
    platform = _platform(args)
    runner.validate(args.only, args.fault)  # before anything touches the engine
    reference = args.tag or f"{inv.manifest.repository}:{image.name}-{arch_of(platform)}"
    api = engine.client()
    runner.require_reference(api, reference)
    outcome = runner.run(api, image.name, reference, artifacts=Path(ARTIFACTS).resolve(), only=args.only,
                         faults=args.fault, extended=args.extended, platform=platform,
                         log_wait_cap=args.log_wait, log_wait_poll=args.log_poll)
    print(runner.summary_table(outcome))
    return 0 if outcome.passed else 1


@command("baseline", "show (or --update) the image's smoke-training baseline from a fresh run of its whole smoke suite; "
                     "refused unless every check passed but for the baseline comparison",
         lambda p: (image_arg(p, optional=True), platform_arg(p),
                    p.add_argument("--update", action="store_true", help="write the baseline file in this repo"),
                    p.add_argument("--tag", help="image reference (default: <repository>:<image>-<arch>)")))
def _baseline(inv, args):
    from .. import tables
    from ..build import engine
    from ..manifest.model import arch_of
    from ..smoke import baseline, runner

    image = inv.image(args.image)
    platform = _platform(args)
    arch = arch_of(platform)
    reference = args.tag or f"{inv.manifest.repository}:{image.name}-{arch}"
    api = engine.client()
    runner.require_reference(api, reference)
    outcome = runner.run(api, image.name, reference, artifacts=Path(ARTIFACTS).resolve(), echo=False,
                         platform=platform)
    print(runner.summary_table(outcome))
    new = baseline.candidate_of(outcome)
    path = inv.root / "smoke_tests" / "baselines" / f"{image.name}.{image.device}.{arch}.txt"
    old = path.read_text() if path.exists() else ""
    print(tables.unified_diff(old, new, path.name) or f"{path.name}: unchanged")
    if args.update and new != old:
        from ..files import atomic_write

        atomic_write(path, new)
        print(f"wrote {path.relative_to(inv.root)}")
    return 0


@command("publish", "push every promoted architecture of an image by digest to each registry, write one image "
                    "index per tag, then move the tags",
         lambda p: (image_arg(p, optional=True),
                    p.add_argument("--registry", action="append", required=True,
                                   help="a registry named in pins.yaml, or host[:port][/namespace] (repeatable)")))
def _publish(inv, args):
    from ..build import engine
    from ..publish import publish

    publish.publish(engine.client(), inv.manifest, inv.image(args.image), args.registry)
    return 0


def _registries(parser):
    parser.add_argument("--registry", action="append", required=True,
                        help="a registry named in pins.yaml, or host[:port][/namespace] (repeatable)")


@command("push", "CI per-architecture step of publish: push this platform's promoted image to each registry and "
                 "write the digests (JSON) for `merge`",
         lambda p: (image_arg(p, optional=True), platform_arg(p), _registries(p),
                    p.add_argument("--out", type=Path, required=True, help="where the digests JSON goes")))
def _push(inv, args):
    import json

    from ..build import engine
    from ..files import atomic_write
    from ..publish import publish

    pushed = publish.push(engine.client(), inv.manifest, inv.image(args.image), args.registry,
                          platforms=[_platform(args)])
    atomic_write(args.out, json.dumps(pushed, indent=1, sort_keys=True) + "\n")
    return 0


@command("merge", "CI step after every per-architecture job passed: one image index per registry from the pushed "
                  "digests, then move the tags",
         lambda p: (image_arg(p, optional=True), _registries(p),
                    p.add_argument("digests", nargs="+", type=Path, help="JSON files written by `push`")))
def _merge(inv, args):
    import json

    from ..publish import publish

    pushed: dict = {}
    for path in args.digests:
        for registry, platforms in json.loads(path.read_text()).items():
            pushed.setdefault(registry, {}).update(platforms)
    publish.merge(inv.manifest, inv.image(args.image), args.registry, pushed)
    return 0


@command("verl-tests", "run verl's own tests for the image's device inside its promoted image, with the locked "
                       "test tools mounted for that run only; --record writes the counts the README shows",
         lambda p: (image_arg(p, optional=True), platform_arg(p), network_args(p),
                    p.add_argument("--tag", help="image reference (default: <repository>:<image>-<arch>)"),
                    p.add_argument("--record", action="store_true",
                                   help="write the counts into records/verl_tests.json")))
def _verl_tests(inv, args):
    from ..build import engine, wheelhouse
    from ..manifest.model import arch_of
    from ..smoke import runner

    image = inv.image(args.image)
    platform = _platform(args)
    reference = args.tag or f"{inv.manifest.repository}:{image.name}-{arch_of(platform)}"
    api = engine.client()
    runner.require_reference(api, reference)
    tools = wheelhouse.test_tools(inv.manifest, image, platform, inv.root, profile_of(args), inv.cache)
    outcome = runner.run(api, image.name, reference, artifacts=Path(ARTIFACTS).resolve(), only="verl_tests",
                         platform=platform, extra_volumes={str(tools): {"bind": runner.TEST_TOOLS, "mode": "ro"}})
    print(runner.summary_table(outcome))
    summary = outcome.directory / "summary.json"
    if args.record and summary.exists():
        runner.record_verl_tests(inv.root, image.name, platform, summary)
    return 0 if outcome.passed else 1
