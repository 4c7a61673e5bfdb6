"""The bare-metal install plan of an image on one platform, completed at run time from the committed lock
and pins.json, so the install scripts in images/ hold no copy of either.

An install script carries only the image's layout (render/install_script.py: layout): each part's slug,
tier, which of the tier's locked packages it `takes`, and the components whose install the lock may leave
to install_tier.py. complete() adds what the lock and pins.json say today: the requirement lines and their
sha256, the files, the source builds, archives and externals, the git commits, patches and pins.

The rules that decide what a part installs (takes, item, compiles) are written once, here, and the build
context uses them too (render/install_plan.py), so a host install cannot pick other packages than the
image's layer does. Standard library only: baremetal/host_install.py loads this file by its path on the
host's python, before anything is installed.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

TOOL = "verl-image"  # the lock's own table, as lock/lockfile.py writes it
FETCH = "fetch"  # the key of an item that only the fetching side reads
NAME = re.compile(r"[a-z0-9][a-z0-9.-]*")
PLATFORM = re.compile(r"linux/(amd64|arm64)")


class PlanError(Exception):
    """One line naming the file and what is wrong with it."""


def takes(rule: dict, dist: str) -> bool:
    """Whether a part whose rule is {"only": [dists]} or {"except": [dists]} installs the locked `dist`."""
    return dist in rule["only"] if "only" in rule else dist not in rule["except"]


def compiles(artifact_kinds, items) -> bool:
    """Whether a part builds something from source: a locked sdist, or a source item put on no import path."""
    return any(kind == "sdist" for kind in artifact_kinds) or any(
        item["kind"] not in ("index", "wheels") and not item.get("import_path") for item in items)


def locked_source_build(spec: dict, package: dict) -> dict | None:
    """A locked sdist of a component whose build pins.yaml declares (env, SoC: a release that lost its wheel):
    install_tier.py builds it as an item, with those settings, not from the part's requirements with none.
    package: {name, kind, file: {name, sha256, url}} of the lock; both name the distribution canonically (the
    lock as uv writes it, the spec as install_plan.item_spec writes Component.dist)."""
    if package["kind"] != "sdist" or package["name"] != spec["dist"] or not (spec["env"] or spec["soc_env"]):
        return None
    common = {key: spec[key] for key in ("component", "dist", "env", "soc_env")}
    file = package["file"]
    return {**common, "kind": "sdist", "file": file["name"], "sha256": file["sha256"],
            FETCH: {"file": file["name"], "url": file["url"], "sha256": file["sha256"], "locked": package["name"]}}


def split_source_builds(specs: list, packages: list) -> tuple:
    """(packages the part's requirements install, items of the locked sdists its components build with settings)."""
    built = {}
    for spec in specs:
        for package in packages:
            found = locked_source_build(spec, package)
            if found:
                built[package["name"]] = found
    return [p for p in packages if p["name"] not in built], list(built.values())


def item(spec: dict, lock_tables: dict, pin: dict, platform: str) -> dict | None:
    """How install_tier.py installs a component the lock did not resolve (None: the lock did).

    spec: the component's layout entry (component, dist, env, soc_env, source, and for git sources the
    kind and install fields); lock_tables: the lock's source-builds, archives and externals; pin: the
    component's entry in pins.json's stack (a git source's repo, tag or branch, and commit)."""
    common = {key: spec[key] for key in ("component", "dist", "env", "soc_env")}
    source = _of(lock_tables, "source-builds", spec["component"])
    if source:
        name = source["url"].rsplit("/", 1)[1]
        return {**common, "kind": "sdist", "file": name, "sha256": source["sha256"],
                FETCH: {"file": name, "url": source["url"], "sha256": source["sha256"]}}
    if spec["source"] == "archive":
        archive = _of(lock_tables, "archives", spec["component"])
        return {**common, "kind": "wheels", "files": [f["name"] for f in archive.get("files", [])],
                FETCH: {"archive": archive["url"], "sha256": archive.get("sha256", ""), "wheels": list(archive["wheels"]),
                        "files": list(archive.get("files", []))}}
    external = _of(lock_tables, "externals", spec["component"])
    if external is None:
        return None
    if spec["source"] == "git":
        ref = {"tag": pin["tag"]} if pin.get("tag") else {"branch": pin.get("branch")}
        return {**common, **spec["git"], FETCH: {"git": pin.get("repo"), **ref, "commit": pin.get("commit")}}
    # the file the lock verified (sha256 empty: none, installed only with --allow-unverified)
    return {**common, "kind": "index", "version": external["version"], "file": external.get("file", ""),
            "sha256": external.get("sha256", ""),
            FETCH: {"index": external["origin"], "dist": external["dist"], "version": external["version"],
                    "platform": platform, "file": external.get("file", ""), "sha256": external.get("sha256", "")}}


def _of(lock_tables: dict, table: str, component: str):
    return next((row for row in lock_tables.get(table, []) if row["component"] == component), None)


def requirement_line(name: str, version: str, sha256: str) -> str:
    return f"{name}=={version} --hash=sha256:{sha256}"


# ---------------------------------------------------------------- the host's side: layout + lock + pins.json

def lock_path(repo: Path, image: str, platform: str) -> Path:
    return repo / "images" / image / f"pylock.{platform.replace('/', '-')}.toml"


def complete(layout: dict, repo: Path) -> dict:
    """The install plan host_install.py runs (format 1) from an install script's layout (format 2)."""
    image, platform = layout.get("image", ""), layout.get("platform", "")
    if not (isinstance(image, str) and NAME.fullmatch(image) and isinstance(platform, str)
            and PLATFORM.fullmatch(platform)):
        raise PlanError(f"the install script names image {image!r} on {platform!r}: not an image of this repository")
    lock = _read_lock(lock_path(repo, image, platform), image, platform)
    pins = _read_pins(repo / "images" / image / "pins.json", image)
    tables = {key: lock["meta"].get(key, []) for key in ("source-builds", "archives", "externals")}
    stack = {pin["name"]: pin for pins_of_role in pins["stack"].values() for pin in pins_of_role}
    parts = [_part(part, lock["packages"], tables, stack, platform, layout["soc_version"]) for part in layout["parts"]]
    static = {key: layout[key] for key in ("python", "device", "system_site_packages", "image_venv",
                                           "env_scripts", "env")}
    return {"format": 1, "image": image, "platform": platform, "lock_inputs": lock["meta"]["inputs"], **static,
            "patches": pins["patches"], "pins": pins, "parts": parts}


def _part(part: dict, packages: list, tables: dict, stack: dict, platform: str, soc_version: str) -> dict:
    in_part = sorted((p for p in packages if p["tier"] == part["tier"] and takes(part["takes"], p["name"])),
                     key=lambda p: p["name"])
    entries, built = split_source_builds(part["items"], in_part)
    items = built + [i for i in (item(spec, tables, stack.get(spec["component"], {}), platform)
                                 for spec in part["items"]) if i is not None]
    sources = {"items": items, "compile": compiles((p["kind"] for p in entries), items), "apt_build": [],
               "soc_version": soc_version}
    return {"slug": part["slug"],
            "requirements": [requirement_line(p["name"], p["version"], p["file"]["sha256"]) for p in entries],
            "files": [{"name": p["file"]["name"], "sha256": p["file"]["sha256"], "url": p["file"]["url"],
                       "index": p["index"], "project": p["name"]} for p in entries],
            "sources": sources}


def _read_lock(path: Path, image: str, platform: str) -> dict:
    """The lock's packages ({name, version, index, tier, kind, file}) and its own table, checked against the script."""
    try:
        data = tomllib.loads(path.read_text())
        meta = data["tool"][TOOL]
        packages = [_package(p) for p in data.get("packages", [])]
    except FileNotFoundError:
        raise PlanError(f"{path} is missing: run the script from the checkout it was rendered in") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError, IndexError) as exc:
        raise PlanError(f"{path}: not a lock this installer reads ({type(exc).__name__}: {exc})") from None
    if (meta.get("image"), meta.get("platform")) != (image, platform):
        raise PlanError(f"{path} locks {meta.get('image')} on {meta.get('platform')}, the script installs {image} on "
                        f"{platform}: re-render (`python build.py render`)")
    return {"meta": meta, "packages": packages}


def _package(package: dict) -> dict:
    file, kind = (package["wheels"][0], "wheel") if package.get("wheels") else (package["sdist"], "sdist")
    return {"name": package["name"], "version": package["version"], "index": package.get("index", ""),
            "tier": package.get("tool", {}).get(TOOL, {}).get("tier", ""), "kind": kind,
            "file": {"name": file["name"], "url": file.get("url", ""), "sha256": file["hashes"]["sha256"]}}


def _read_pins(path: Path, image: str) -> dict:
    try:
        pins = json.loads(path.read_text())
    except FileNotFoundError:
        raise PlanError(f"{path} is missing: run the script from the checkout it was rendered in") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PlanError(f"{path}: not JSON ({exc})") from None
    if not isinstance(pins, dict) or pins.get("image") != image or not isinstance(pins.get("stack"), dict) \
            or not isinstance(pins.get("patches"), list):
        raise PlanError(f"{path}: not the pins.json of image {image}")
    return pins
