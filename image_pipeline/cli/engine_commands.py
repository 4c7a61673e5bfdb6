"""Commands that talk to the Docker Engine: engine, base, wheelhouse, image, smoke, baseline, publish."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import UserError
from . import PLATFORMS, command, image_arg, network_args, platform_arg, profile_of

ARTIFACTS = "artifacts"
STAGE_RECORDS = "stages"


def _platform(args) -> str:
    from ..builder import engine

    return args.platform or engine.host_platform()


def _smoke_args(parser):
    parser.add_argument("--only", default="", help="run only these checks (comma-separated names or prefixes)")
    parser.add_argument("--log-wait", type=float, default=60.0, help="cap of the wait for first output (s)")
    parser.add_argument("--log-poll", type=float, default=10.0, help="poll interval of that wait (s)")


def _wait_arg(parser, why):
    parser.add_argument("--wait", action="store_true",
                        help=f"wait for another pipeline of this image and platform instead of refusing ({why})")


def _image_cmd_args(parser):
    image_arg(parser, optional=True)
    platform_arg(parser)
    parser.add_argument("--alternative", help="build the image with this declared alternative component "
                                              "(images/<name>/Dockerfile.<alternative>)")
    parser.add_argument("--progress", choices=("auto", "pretty", "plain"), default="auto",
                        help="build output: one line per step, or every line with timestamps (CI)")
    parser.add_argument("--force", action="store_true", help="build and smoke-test even if the content tag exists")
    _wait_arg(parser, "make test starts the arm64 build while the tests that need it wait the same way")
    parser.add_argument("--cache-from", action="append", default=[],
                        help="image whose inline cache the build may reuse: a registry cache tag <image>-<arch>-cache "
                             "(promoted images carry no cache)")
    stage = parser.add_argument_group("CI build stage (docs/guide.md: CI)")
    stage.add_argument("--stage", choices=("build",),
                       help="build the candidate, run only its device-free checks, push it by digest to every "
                            "--registry under its candidate tag and write a stage record; no tag is promoted")
    _registries(stage, required=False)
    stage.add_argument("--record", type=Path, help="where the stage record goes "
                                                   f"(default: {STAGE_RECORDS}/<image>@<arch>-<stage>.json)")
    stage.add_argument("--write-cache", action="store_true",
                       help="also push BuildKit's own image of the candidate, holding its inline cache, as the registry "
                            "cache tag (<image>-<arch>-cache)")
    _allow_unverified_arg(parser)
    network_args(parser)
    _smoke_args(parser)


def _allow_unverified_arg(parser):
    parser.add_argument("--allow-unverified", action="append", default=[], metavar="NAME",
                        help="install component NAME although the lock holds no sha256 for its file (its index "
                             "did not answer `build.py lock`): taken as served, its sha256 in the image's labels "
                             "and pins.json (repeatable)")


@command("engine", "make sure a Docker Engine answers (as root: install docker.io, start dockerd) and that each "
                   "--platform runs here (QEMU for foreign ones)",
         lambda p: p.add_argument("--platform", action="append", default=[], choices=PLATFORMS,
                                  help="a platform builds must run for (repeatable)"))
def _engine(inv, args):
    from ..builder import engine

    engine.ensure_engine(args.platform)
    return 0


@command("base", "make an image's base exist locally for a platform: pull, else mmdebstrap (Debian), else --load",
         lambda p: (image_arg(p, optional=True), platform_arg(p),
                    p.add_argument("--load", type=Path, help="docker-save tarball of the base (CANN bases)"),
                    p.add_argument("--mirror", help="Debian mirror for mmdebstrap"),
                    p.add_argument("--no-pull", action="store_true", help="do not try the registry")))
def _base(inv, args):
    from ..builder import base, engine

    image = inv.image(args.image)
    base.ensure_base(engine.client(), image.base, _platform(args), mirror=args.mirror, load=args.load,
                     pull=not args.no_pull, cache=inv.cache)
    return 0


@command("wheelhouse", "download an image's locked files (and externals) for a platform, for the offline build; "
                       "--out DIR also lays them out for a host install (install.<platform>.sh --wheelhouse DIR)",
         lambda p: (image_arg(p, optional=True), platform_arg(p), _allow_unverified_arg(p), network_args(p),
                    p.add_argument("--out", type=Path, help="directory for images/<name>/install.*.sh --wheelhouse")))
def _wheelhouse(inv, args):
    from ..builder import wheelhouse

    image, platform, profile = inv.image(args.image), _platform(args), profile_of(args)
    house = wheelhouse.fetch(inv.manifest, image, platform, inv.root, profile, inv.cache,
                             allowed=args.allow_unverified)
    if args.out:
        wheelhouse.export(inv.manifest, image, platform, inv.root, house, inv.cache, profile, args.out.resolve())
    return 0


def _runner(api, image, args, platform, stage="", promotion=False):
    from ..smoke import runner, stage_checks

    if stage and args.only:
        raise UserError(f"the {stage} stage runs its own checks ({stage_checks.only_for(image, stage)})", key="--only")
    only = stage_checks.only_for(image, stage) if stage else args.only

    def run(reference):
        outcome = runner.run(api, image.name, reference, artifacts=Path(ARTIFACTS).resolve(), only=only,
                             faults=getattr(args, "fault", ()), platform=platform, log_wait_cap=args.log_wait,
                             log_wait_poll=args.log_poll, stage=stage, promotion=promotion)
        print(runner.summary_table(outcome))
        return outcome
    runner.validate(only, getattr(args, "fault", ()))
    return run


def _write_stage_record(args, record) -> int:
    from ..publish import ci_stages

    path = args.record or ci_stages.record_path(Path(STAGE_RECORDS), record["image"], record["platform"], record["stage"])
    ci_stages.write_record(path.resolve(), record)
    verdict = "passed" if record["passed"] else f"FAILED ({record['reason']})"
    print(f"{record['stage']} stage of {record['image']} ({record['platform']}): {verdict}; record: {path}")
    return 0 if record["passed"] else 1


@command("image", "build an image for a platform (base, wheelhouse, BuildKit), run its smoke suite, and only then "
                  "promote its tags; with --stage build, CI's build stage (device-free checks, candidate pushed by "
                  "digest, nothing promoted)", _image_cmd_args)
def _image(inv, args):
    from ..builder import engine, pipeline

    image = inv.image(args.image)
    platform = _platform(args)
    alternative = _alternative(inv, image, args.alternative)
    plain = args.progress == "plain" or (args.progress == "auto" and not sys.stdout.isatty())
    if args.stage:
        return _build_stage(inv, args, image, platform, plain)
    if args.registry or args.record or args.write_cache:
        raise UserError("--registry, --record and --write-cache belong to --stage build", key="--stage")
    api = engine.client()
    outcome = pipeline.run(api, inv.manifest, image, platform, inv.root, profile_of(args),
                           smoke_runner=_runner(api, image, args, platform, promotion=True), plain=plain, force=args.force,
                           alternative=alternative, mirror=args.apt_mirror, cache_from=args.cache_from,
                           cache=inv.cache, wait=args.wait, allow_unverified=args.allow_unverified)
    if not outcome.promoted:
        return 1
    print(f"image {image.name} ({platform}): {outcome.tags.final} ({', '.join(outcome.tags.moving)})")
    return 0


def _install_platform_arg(parser):
    parser.add_argument("--install-platform", choices=PLATFORMS,
                        help="install the layers of wheels on this platform instead of the engine's (an arm64 host's "
                             "build, under QEMU here): the layers must be the same, the configs differ in the content "
                             "hash")


@command("reproduce", "rebuild an image with no cache and compare it with the promoted one, layer by layer: exit 1 "
                      "naming the files that differ",
         lambda p: (image_arg(p, optional=True), platform_arg(p), _install_platform_arg(p), _allow_unverified_arg(p),
                    network_args(p), _wait_arg(p, "make test's workers share the repository's pipelines")))
def _reproduce(inv, args):
    from ..builder import engine, reproduce

    api = engine.client()
    same = reproduce.reproduce(api, inv.manifest, inv.image(args.image), _platform(args), inv.root, profile_of(args),
                               cache=inv.cache, allow_unverified=args.allow_unverified,
                               install_platform=args.install_platform, wait=args.wait)
    return 0 if same else 1


def _build_stage(inv, args, image, platform, plain) -> int:
    from ..builder import engine
    from ..publish import ci_stages

    if not args.registry:
        raise UserError("the build stage pushes its candidate: name at least one --registry", key="--registry")
    if args.alternative or args.force:
        raise UserError("the build stage builds the image as pinned, always", key="--alternative/--force")
    api = engine.client()
    smoke = _runner(api, image, args, platform, stage="build")
    record = ci_stages.build_stage(api, inv.manifest, image, platform, inv.root, profile_of(args), args.registry,
                                smoke=smoke, cache=inv.cache, cache_from=args.cache_from, write_cache=args.write_cache,
                                plain=plain, mirror=args.apt_mirror, allow_unverified=args.allow_unverified)
    return _write_stage_record(args, record)


def _alternative(inv, image, name):
    if name is None:
        return None
    declared = {c.name: c for c in inv.manifest.alternatives_of(image)}
    if name not in declared:
        raise UserError(f"{name!r} is not an alternative of {image.name} (declared: {', '.join(declared) or 'none'})",
                        key="--alternative")
    return declared[name]


@command("smoke", "run the smoke suite inside a built image (default: its promoted tag for the platform); with "
                  "--digest, CI's device stage: the device checks in a candidate pulled by digest",
         lambda p: (image_arg(p, optional=True), platform_arg(p), _smoke_args(p),
                    p.add_argument("--tag", help="image reference to test instead of <repository>:<image>-<arch>"),
                    p.add_argument("--fault", action="append", default=[],
                                   help="inject a fault the suite must catch (smoke_tests/checks.json lists them)"),
                    p.add_argument("--extended", action="store_true",
                                   help="also run the optional checks (verl's own tests for the device)"),
                    _device_stage_args(p)))
def _smoke(inv, args):
    from ..builder import engine
    from ..manifest.model import arch_of
    from ..smoke import runner

    image = inv.image(args.image)
    platform = _platform(args)
    if args.digest or args.registry or args.record:
        return _device_stage(inv, args, image, platform)
    runner.validate(args.only, args.fault)  # before anything touches the engine
    reference = args.tag or f"{inv.manifest.repository}:{image.name}-{arch_of(platform)}"
    api = engine.client()
    runner.require_reference(api, reference)
    outcome = runner.run(api, image.name, reference, artifacts=Path(ARTIFACTS).resolve(), only=args.only,
                         faults=args.fault, extended=args.extended, platform=platform,
                         log_wait_cap=args.log_wait, log_wait_poll=args.log_poll)
    print(runner.summary_table(outcome))
    return 0 if outcome.passed else 1


def _device_stage_args(parser):
    group = parser.add_argument_group("CI device stage (docs/guide.md: CI)")
    group.add_argument("--digest", help="pull this candidate (sha256:...) from --registry and run the device checks "
                                        "in it; writes a stage record against that digest")
    group.add_argument("--registry", help="the registry the build stage pushed the candidate to")
    group.add_argument("--record", type=Path, help="where the stage record goes "
                                                   f"(default: {STAGE_RECORDS}/<image>@<arch>-device.json)")


def _device_stage(inv, args, image, platform) -> int:
    from ..builder import engine
    from ..manifest import grammar
    from ..publish import ci_stages

    if not (args.digest and args.registry):
        raise UserError("the device stage pulls a candidate: give both --digest and --registry", key="--digest")
    if args.tag or args.extended:
        raise UserError("the device stage runs the device checks of the pulled digest only", key="--tag/--extended")
    try:
        grammar.image_digest(args.digest)
    except ValueError as exc:
        raise UserError(str(exc), key="--digest") from None
    api = engine.client()
    smoke = _runner(api, image, args, platform, stage="device")
    record = ci_stages.device_stage(api, inv.manifest, image, platform, args.registry, args.digest, smoke=smoke)
    return _write_stage_record(args, record)


@command("baseline", "show (or --update) the image's smoke-training baseline from a fresh run of its whole smoke suite; "
                     "refused unless every check passed but for the baseline comparison",
         lambda p: (image_arg(p, optional=True), platform_arg(p),
                    p.add_argument("--update", action="store_true", help="write the baseline file in this repo"),
                    p.add_argument("--tag", help="image reference (default: <repository>:<image>-<arch>)")))
def _baseline(inv, args):
    from .. import tables
    from ..builder import engine
    from ..manifest.model import arch_of
    from ..smoke import baseline, runner

    image = inv.image(args.image)
    platform = _platform(args)
    arch = arch_of(platform)
    reference = args.tag or f"{inv.manifest.repository}:{image.name}-{arch}"
    api = engine.client()
    runner.require_reference(api, reference)
    baseline.require_image_of(api.images.get(reference).labels or {}, reference, image, platform)
    outcome = runner.run(api, image.name, reference, artifacts=Path(ARTIFACTS).resolve(), echo=False,
                         platform=platform)
    print(runner.summary_table(outcome))
    new = baseline.candidate_of(outcome)
    path = runner.baseline_file(inv.root, image, platform)
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
    from ..builder import engine
    from ..publish import publish

    publish.publish(engine.client(), inv.manifest, inv.image(args.image), args.registry)
    return 0


def _registries(parser, required=True):
    parser.add_argument("--registry", action="append", required=required, default=[],
                        help="a registry named in pins.yaml, or host[:port][/namespace] (repeatable)")


@command("merge", "CI step after both stages of every platform: check their records (a passed build and device "
                  "stage for the same digest, or a waiver), then content tags, one image index per registry and the "
                  "moving tags",
         lambda p: (image_arg(p), _registries(p),
                    p.add_argument("--records", type=Path, default=Path(STAGE_RECORDS),
                                   help="directory of the stage records, <image>@<arch>-<stage>.json (default: "
                                        f"{STAGE_RECORDS})")))
def _merge(inv, args):
    from ..publish import ci_stages, records

    image = inv.image(args.image)
    ci_stages.merge_stages(inv.manifest, image, args.registry, records.read_directory(args.records, image.name))
    return 0


@command("verl-tests", "run verl's own tests for the image's device inside its promoted image, with the locked "
                       "test tools mounted for that run only; --record writes the counts docs/reference.md shows",
         lambda p: (image_arg(p, optional=True), platform_arg(p), network_args(p),
                    p.add_argument("--tag", help="image reference (default: <repository>:<image>-<arch>)"),
                    p.add_argument("--record", action="store_true",
                                   help="write the counts into records/verl_tests.json")))
def _verl_tests(inv, args):
    from ..builder import engine, wheelhouse
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


def _doctor_args(parser):
    image_arg(parser, optional=True)
    platform_arg(parser, "the platform to build or run (default: this host's; another needs QEMU)")
    parser.add_argument("--host-root", type=Path, default=Path("/"),
                        help="read the host's files under this directory (a fake host tree; default: /)")
    parser.add_argument("--build-only", action="store_true",
                        help="this host only builds (as CI's hosted build runners): skip the device, driver and "
                             "hccn.conf checks")
    network_args(parser)


@command("doctor", "check this host before building or running an image: engine, BuildKit, disk, QEMU, the Ascend "
                   "devices, driver and hccn.conf an NPU image needs, and whether every input host answers "
                   "(exit 1 when anything is missing)", _doctor_args)
def _doctor(inv, args):
    from ..host import doctor

    image = inv.image(args.image)
    if not args.host_root.is_dir():
        raise UserError(f"{args.host_root} is not a directory", key="--host-root")
    host = doctor.Host(root=args.host_root)
    platform = args.platform or host.platform
    found = doctor.examine(host, inv.manifest, image, platform, profile_of(args), build_only=args.build_only)
    for finding in found:
        print(finding.line())
    failed = sum(f.level == "FAIL" for f in found)
    print(f"doctor {image.name} {platform}: {failed} problem(s)" + (", each with its fix above" if failed else ""))
    return 1 if failed else 0


def _run_args(parser):
    image_arg(parser)
    platform_arg(parser)
    parser.add_argument("--tag", help="run this reference (default: the image's promoted tag for the platform)")
    parser.add_argument("--print", action="store_true",
                        help="print the docker run line and run nothing; on a host without the image's NPUs, the line "
                             "for a whole node of its runner")
    parser.set_defaults(takes_command=True)  # `run IMAGE -- COMMAND...`: the container's command (default: bash)


@command("run", "run an image (`run IMAGE -- COMMAND`, default bash) with the devices, driver mounts and shared "
                "memory its smoke suite runs with (--print: the docker run line)", _run_args)
def _run(inv, args):
    import os
    import shutil
    import subprocess

    from ..host import passthrough
    from ..manifest import grammar
    from ..manifest.model import arch_of

    image = inv.image(args.image)
    platform = _platform(args)
    native = platform == _platform_of_host()
    reference = args.tag or f"{inv.manifest.repository}:{image.name}" + ("" if native else f"-{arch_of(platform)}")
    try:
        grammar.image_reference(reference)
    except ValueError as exc:
        raise UserError(str(exc), key="--tag") from None
    npu = passthrough.detect_npu()
    if image.device == "npu" and not npu.present:
        if not args.print:
            print(f"run: no Ascend NPU on this host (/dev/davinci*): `python build.py doctor {image.name}` says what "
                  "is missing; --print shows the line to use on an Ascend host", file=sys.stderr)
            return 1
        npu = passthrough.node(image.runner.npus)
    words = passthrough.docker_run_words(reference, passthrough.container_options(npu), args.after_dashes or ["bash"],
                                         interactive=sys.stdin.isatty(),
                                         platform="" if native else platform)
    if args.print:
        print(passthrough.shell_line(words))
        return 0
    if shutil.which("docker") is None:
        raise UserError("no docker command on this host: as root, `python build.py engine` installs Debian's docker.io")
    from ..builder import engine
    from ..smoke import runner

    runner.require_reference(engine.client(), reference)  # never a pull of a name we did not build
    if image.device == "npu" and "mooncake" in image.stack and passthrough.HCCN_CONF not in npu.mounts:
        print(f"run: no {passthrough.HCCN_CONF} on this host: Mooncake's ascend_direct transport will not start",
              file=sys.stderr)
    os.environ.setdefault("DOCKER_CLI_HINTS", "false")
    return subprocess.run(words).returncode


def _platform_of_host() -> str:
    from ..builder import engine

    return engine.host_platform()
