"""CI's two stages per image and platform, and the merge that promotes only after both passed.

build stage  (`build.py image NAME --stage build`, on the hosted runner of the platform's architecture):
    base, wheelhouse, the BuildKit candidate (fed by the registry cache), the device-free checks in it;
    when they pass, the candidate is pushed by digest under its candidate tag only, to the first registry,
    and copied from there to the others.
device stage (`build.py smoke NAME --registry R --digest D`, on the runner pins.yaml names for the
    image's device and platform): that digest pulled, the device checks run in it.
merge        (`build.py merge NAME --registry ... --records DIR`): for every platform the image publishes, a passed build
    record and a passed device record for the same digest, or pins.yaml's waiver of the device stage
    for that platform with a candidate labelled so; only then content tags, the index, the moving tags.

Each stage writes a record (JSON, a CI artifact) naming the image, platform, stage, the digest it
built or pulled, the image id (config digest), and each check's result. Nothing here moves a tag
before the merge: the build stage tags the candidate, and the cache tag when asked to.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..builder import engine, image_config, pipeline
from ..errors import UserError
from ..files import atomic_write
from ..manifest.model import arch_of
from ..smoke import stage_checks
from .publish import merge, push_everywhere, remote, resolve_registry


def record_path(directory: Path, image_name: str, platform: str, stage: str) -> Path:
    """stages/<image>@<arch>-<stage>.json ('@' is in no image name, so a glob per image is exact)."""
    return directory / f"{image_name}@{arch_of(platform)}-{stage}.json"


def cache_tag(image, platform: str) -> str:
    return f"{image.name}-{arch_of(platform)}-cache"


def cache_reference(manifest, image, platform: str, target: str) -> str:
    """The registry cache of an image and platform: BuildKit's own image of the last candidate a build
    stage wrote the cache from (its config holds the inline cache), which a fresh runner's build reads
    with --cache-from."""
    return f"{target}/{manifest.repository}:{cache_tag(image, platform)}"


def _record(image, platform: str, stage: str, content_hash: str, image_id: str, outcome, digests=None) -> dict:
    return {"image": image.name, "platform": platform, "stage": stage, "content_hash": content_hash,
            "image_id": image_id, "digests": digests or {}, "checks": stage_checks.checks_of(image, stage),
            "results": {r["name"]: r["status"] for r in outcome.results}, "passed": outcome.passed,
            "reason": outcome.reason}


def write_record(path: Path, record: dict) -> None:
    atomic_write(path, json.dumps(record, indent=1, sort_keys=True) + "\n")


def build_stage(api, manifest, image, platform: str, root: Path, profile, registries: list, *, smoke, cache: Path,
                cache_from=(), write_cache=False, plain=False, mirror=None, allow_unverified=(), log=print) -> dict:
    """Build the candidate, run `smoke(reference)` (the device-free checks) in it and, when they pass, push
    it by digest to every registry under its candidate tag. Returns the record; moves no promoted tag."""
    targets = [resolve_registry(manifest, r) for r in registries]
    with pipeline.image_lock(image.name, platform, cache):
        prepared = pipeline.prepare(api, manifest, image, platform, root, profile, mirror=mirror, cache=cache, log=log,
                                    allow_unverified=allow_unverified)
        feeds = [cache_reference(manifest, image, platform, targets[0]), *cache_from]
        carrier = f"{manifest.repository}:{cache_tag(image, platform)}" if write_cache else None
        try:  # the carrier's tag goes whatever fails after BuildKit made it (the SBOM, the stamp, the checks)
            built = pipeline.build_candidate(api, manifest, image, platform, root, profile, prepared, plain=plain,
                                             cache_from=feeds, cache=cache, log=log, cache_carrier=carrier)
            outcome = smoke(prepared.tags.candidate)
            stage_checks.judge(outcome, image, "build")
            digests = {}
            if outcome.passed:
                digests = push_everywhere(api, built, prepared.tags.candidate, targets, log)
                if carrier:
                    push_everywhere(api, engine.image_id(api, carrier), carrier, targets, log)
            else:
                log(f"build stage FAILED for {prepared.tags.candidate} ({outcome.reason}): nothing was pushed")
        finally:
            if carrier and engine.image_id(api, carrier):
                api.images.remove(carrier, noprune=True)
        return _record(image, platform, "build", prepared.digest, built, outcome, digests)


def device_stage(api, manifest, image, platform: str, registry: str, digest: str, *, smoke, log=print) -> dict:
    """Pull exactly `digest` of the image from the registry and run `smoke(reference)` (the device checks)
    in it. Returns the record, against that digest."""
    target = resolve_registry(manifest, registry)
    reference = f"{target}/{manifest.repository}@{digest}"
    log(f"device stage: pulling {reference} ({platform})")
    try:
        pulled = api.images.pull(f"{target}/{manifest.repository}", tag=digest, platform=platform)
    except Exception as exc:  # the SDK raises several types for a missing manifest or an unreachable registry
        raise UserError(f"cannot pull {reference}: {str(exc).splitlines()[0]}") from None
    if reference not in (pulled.attrs.get("RepoDigests") or []):
        raise UserError(f"the engine pulled {pulled.id}, which is not {reference}")
    labels = pulled.labels or {}
    if labels.get(image_config.PLATFORM_LABEL) != platform or labels.get(image_config.CONTENT_LABEL) is None:
        raise UserError(f"{reference} is no {platform} candidate of {image.name} (its label "
                        f"{image_config.PLATFORM_LABEL} is {labels.get(image_config.PLATFORM_LABEL)!r})")
    outcome = smoke(reference)
    stage_checks.judge(outcome, image, "device")
    return _record(image, platform, "device", labels[image_config.CONTENT_LABEL], pulled.id, outcome, {target: digest})


# ---------------------------------------------------------------- merge: both stages, one digest

def gate(manifest, image, records: list, registries: list) -> dict:
    """{platform: build record} of every platform the image publishes, when both of its stages passed for
    one digest (or its device stage is waived in pins.yaml); else one line naming the first missing or
    failed stage. Reads nothing but the records: the registry side is verified by verify_candidates."""
    targets = [resolve_registry(manifest, r) for r in registries]
    found = {}
    for record in records:
        if record["image"] != image.name:
            raise UserError(f"a stage record of {record['image']} was given to the merge of {image.name}")
        key = (record["platform"], record["stage"])
        if key in found:
            raise UserError(f"{image.name} {record['platform']}: two {record['stage']} stage records")
        found[key] = record
    passed = {}
    for platform in image.platforms:
        where = f"{image.name} {platform}"
        build = found.get((platform, "build"))
        if build is None:
            raise UserError(f"{where}: no build stage result (its job did not run or did not finish): nothing is "
                            f"promoted")
        _passed(build, image, where)
        absent = [t for t in targets if t not in build["digests"]]
        if absent:
            raise UserError(f"{where}: the build stage pushed nothing to {', '.join(absent)}: nothing is promoted")
        device = found.get((platform, "device"))
        if device is None and platform in image.waivers:
            passed[platform] = build
            continue
        tested = next(iter(build["digests"].values()))
        if device is None:
            raise UserError(f"{where}: no device stage result for {tested} (device runner {image.runner.name}): "
                            f"nothing is promoted")
        if len(device["digests"]) != 1:
            raise UserError(f"{where}: a device stage record names one pulled digest, this one "
                            f"{len(device['digests'])}")
        (registry, digest), = device["digests"].items()
        if build["digests"].get(registry) != digest:
            raise UserError(f"{where}: the device stage tested {registry}@{digest}, the build stage pushed "
                            f"{build['digests'].get(registry, 'nothing there')}: nothing is promoted")
        for field in ("image_id", "content_hash"):
            if device[field] != build[field]:
                raise UserError(f"{where}: the device stage record names {field} {device[field]}, the build stage "
                                f"record {build[field]} (both for {digest}): nothing is promoted")
        _passed(device, image, where)
        passed[platform] = build
    return passed


def _passed(record: dict, image, where: str) -> None:
    stage = record["stage"]
    if not record["passed"]:
        on = next(iter(record["digests"].values()), record["image_id"])  # a failed build pushed nothing
        raise UserError(f"{where}: the {stage} stage failed on {on} ({record['reason'] or 'no reason recorded'}): "
                        f"nothing is promoted")
    want = stage_checks.checks_of(image, stage)
    bad = [f"{name} {record['results'].get(name, 'missing')}" for name in want
           if record["results"].get(name) not in ("PASS", "MEASURED")]
    bad += [f"{name} {status}" for name, status in sorted(record["results"].items()) if name not in want]
    if bad or record["checks"] != want:
        raise UserError(f"{where}: the {stage} stage record does not show its checks passed "
                        f"({', '.join(bad) or 'it ran another list'}): nothing is promoted")


def verify_candidates(manifest, image, passed: dict) -> None:
    """Every registry holds, at the recorded digest, the very image the stages ran (its config digest),
    labelled with what pins.yaml says about its device checks."""
    for platform, build in passed.items():
        want = image_config.device_checks_label(image, platform)
        for target, digest in build["digests"].items():
            registry, repository = remote(target, manifest.repository)
            config_digest, config = registry.image_config(repository, digest)
            if config_digest != build["image_id"]:
                raise UserError(f"{image.name} {platform}: {target} holds {config_digest} at {digest}, not the "
                                f"tested {build['image_id']}: nothing is promoted")
            labels = (config.get("config") or {}).get("Labels") or {}
            expected = {image_config.DEVICE_CHECKS_LABEL: (want, "rebuild it: pins.yaml says"),
                        image_config.CONTENT_LABEL: (build["content_hash"], "the stage records say"),
                        image_config.PLATFORM_LABEL: (platform, "the stage records say")}
            for label, (value, who) in expected.items():
                if labels.get(label) != value:
                    raise UserError(f"{image.name} {platform}: the candidate's label {label} is "
                                    f"{labels.get(label)!r}, {who} {value!r}: nothing is promoted")


def merge_stages(manifest, image, registries: list, records: list, log=print) -> dict:
    """The gate, then the promotion: content tags, one index per registry, the moving tags."""
    passed = gate(manifest, image, records, registries)
    verify_candidates(manifest, image, passed)
    targets = [resolve_registry(manifest, r) for r in registries]
    pushed = {t: {platform: build["digests"][t] for platform, build in passed.items()} for t in targets}
    content = {platform: f"{image.name}-{build['content_hash'][:12]}-{arch_of(platform)}"
               for platform, build in passed.items()}
    for platform in passed:
        if platform in image.waivers:
            log(f"{image.name} {platform}: published without device checks (waived: {image.waivers[platform]})")
    return merge(manifest, image, registries, pushed, log=log, content_tags=content)
