"""`build.py reproduce`: rebuild an image with no cache next to the promoted one and compare them.

The same inputs must give the same bytes: the same layers (by diff id) and the same config (so the
same image id). With --install-platform, the rebuild installs its layers of wheels on that platform
(installer/cross_install.py, as a host of that platform builds): every layer but the SBOM must be
the same (the SBOM and the config name the content hash, which counts the install platform). Where a
layer differs, the files that differ in it are named: diffoscope's report where Debian's diffoscope
is installed, else a listing of each file's type, mode, owner, time, size and sha256 that differs.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from ..errors import UserError
from . import engine, image_config, pipeline

DIFFOSCOPE_LINES = 200


def reproduce(api, manifest, image, platform: str, root: Path, profile, *, cache: Path, log=print,
              allow_unverified=(), install_platform: str | None = None, wait=False) -> bool:
    with pipeline.image_lock(image.name, platform, cache, wait):
        prepared = pipeline.prepare(api, manifest, image, platform, root, profile, cache=cache, log=log,
                                    allow_unverified=allow_unverified)
        promoted = engine.image_id(api, prepared.tags.final)
        if not promoted:
            raise UserError(f"{prepared.tags.final} does not exist: build it first (`build.py image {image.name} "
                            f"--platform {platform}`)")
        elsewhere = install_platform and install_platform != prepared.buildargs["INSTALL_PLATFORM"]
        if elsewhere:
            log(f"reproduce: the rebuild installs its layers of wheels on {install_platform}")
            prepared = pipeline.prepare(api, manifest, image, platform, root, profile, cache=cache, log=log,
                                        allow_unverified=allow_unverified, install_platform=install_platform)
        rebuilt = pipeline.build_candidate(api, manifest, image, platform, root, profile, prepared, plain=True,
                                           cache=cache, log=log, no_cache=True)
        try:
            return compare(api, promoted, rebuilt, cache, log, layers_only=bool(elsewhere))
        finally:  # a rebuild is no candidate: nothing may promote it; compare named it by id
            api.images.remove(prepared.tags.candidate, noprune=True)


def compare(api, first: str, second: str, scratch: Path, log=print, layers_only=False) -> bool:
    """True when both ids are equal (layers_only: both images' layers); else log each layer that differs, the
    files in it that differ, and whether the configs differ beyond their layers."""
    if first == second:
        layers = api.images.get(first).attrs["RootFS"]["Layers"]
        log(f"reproduce: {first}: the rebuild is the same image ({len(layers)} layers)")
        return True
    a, b, steps = layers_and_steps(api, first, second)
    differing = differing_layers(a, b, steps, layers_only)
    log(f"reproduce: {first} and its rebuild {second} differ: {len(differing)} of {len(a)} layers")
    if not differing:
        configs = [json.loads(engine.raw_config(api, ref)) for ref in (first, second)]
        log("reproduce: every layer is the same; the configs differ: " + ", ".join(config_differences(*configs)))
        if layers_only:
            return True
    with tempfile.TemporaryDirectory(dir=scratch, prefix="reproduce-") as tmp:
        pairs = zip(*(_layer_tars(api, ref, differing, Path(tmp) / name) for name, ref in (("a", first), ("b", second))))
        for index, (a_tar, b_tar) in zip(differing, pairs):
            step = steps[index] if index < len(steps) else "?"
            log(f"reproduce: layer {index} ({step[:120]}):")
            for line in layer_differences(a_tar, b_tar):
                log(f"  {line}")
    return False


def layers_and_steps(api, first: str, second: str) -> tuple:
    """Both images' layers (diff ids) and what made each of the first's, from its history."""
    a, b = (api.images.get(ref).attrs["RootFS"]["Layers"] for ref in (first, second))
    steps = [h["CreatedBy"] for h in reversed(api.api.history(first)) if _makes_layer(h["CreatedBy"])]
    return a, b, steps


def differing_layers(first: list, second: list, steps: list, layers_only=False) -> list:
    """The indexes of the layers (diff ids) that differ; layers_only: but build.py's own layer, the SBOM,
    which names the content hash (steps: what made each layer, from the first image's history)."""
    differing = [i for i in range(max(len(first), len(second)))
                 if i >= min(len(first), len(second)) or first[i] != second[i]]
    if layers_only:
        both = min(len(first), len(second), len(steps))
        differing = [i for i in differing if not (i < both and steps[i].endswith(image_config.ADDED_BY))]
    return differing


def _makes_layer(created_by: str) -> bool:
    return created_by.startswith(("RUN ", "COPY ", "ADD ", "WORKDIR "))


def config_differences(first: dict, second: dict, prefix: str = "") -> list:
    """Each key that differs, down to the label: `config.Labels.<label>: <first> -> <second>`."""
    found = []
    for key in sorted(set(first) | set(second)):
        a, b = first.get(key), second.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            found += config_differences(a, b, f"{prefix}{key}.")
        else:
            found.append(f"{prefix}{key}: {_short(a)} -> {_short(b)}")
    return found


def _short(value, limit=80) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def layer_differences(*paths: Path) -> list:
    """What differs between two layer tars, a line per file."""
    if shutil.which("diffoscope") and all(paths):
        result = subprocess.run(["diffoscope", "--text", "-", "--exclude-directory-metadata", "no", *map(str, paths)],
                                capture_output=True, text=True)
        return result.stdout.splitlines()[:DIFFOSCOPE_LINES]
    listings = [_listing(path) for path in paths]
    names = sorted(set(listings[0]) | set(listings[1]))
    return [f"{name}: {_what_differs(listings[0].get(name), listings[1].get(name))}" for name in names
            if listings[0].get(name) != listings[1].get(name)]


def _layer_tars(api, reference: str, indexes: list, directory: Path) -> list:
    """Those layers of the image, as the uncompressed tars `docker save` holds (None past its last)."""
    directory.mkdir(parents=True)
    saved = directory / "image.tar"
    with open(saved, "wb") as handle:
        for chunk in api.images.get(reference).save(named=False):
            handle.write(chunk)
    with tarfile.open(saved) as tar:
        layers = json.load(tar.extractfile("manifest.json"))[0]["Layers"]
        wanted = [layers[i] if i < len(layers) else None for i in indexes]
        for member in filter(None, wanted):
            tar.extract(member, directory)
    saved.unlink()
    return [directory / member if member else None for member in wanted]


def _listing(layer: Path | None) -> dict:
    entries = {}
    if layer is None:
        return entries
    with tarfile.open(layer) as tar:
        for member in tar:
            content = hashlib.sha256(tar.extractfile(member).read()).hexdigest()[:16] if member.isfile() else ""
            entries["/" + member.name] = {"type": member.type.decode(), "mode": oct(member.mode),
                                          "owner": f"{member.uid}:{member.gid}", "time": member.mtime,
                                          "size": member.size, "sha256": content, "link": member.linkname}
    return entries


def _what_differs(first, second) -> str:
    if first is None or second is None:
        return "only in the " + ("rebuild" if first is None else "promoted image")
    return ", ".join(f"{key} {first[key]} -> {second[key]}" for key in first if first[key] != second[key])
