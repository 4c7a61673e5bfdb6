"""What each layer of an image installs on one platform, from its lock: one description that
both the build context (builder/context.py) and the bare-metal install script
(render/install_script.py) are made from, so a host install cannot differ from the image's.

A part is one run of installer/install_tier.py, one layer of the image, in tiers/<n>-<tier>/<layer>/
(dockerfile.layers_of): deps and pins; in a tier pins.yaml splits, deps-<dist> for each large
dependency (dockerfile.own_layers), deps for the others and pins-<component> for each component.
Each part has:
  entries  the locked packages it installs (requirements.txt: `name==version --hash=sha256:...`)
  items    what the lock did not resolve, as install_tier.py's sources.json lists them; each
           also says under `fetch` where its file or tree comes from (the build context drops
           that key: the host has already fetched it)
"""

from __future__ import annotations

from dataclasses import dataclass

from .dockerfile import Layer, TierView, layers_of, needs_builder, tiers_of

FETCH = "fetch"  # the key of an item that only the fetching side reads


@dataclass(frozen=True)
class Part:
    tier: TierView
    layer: Layer
    entries: tuple  # lock Entries
    items: tuple  # dicts: install_tier.py items plus `fetch`

    @property
    def slug(self) -> str:
        return f"{self.tier.slug}/{self.layer.name}"

    def requirements(self) -> str:
        return "".join(requirement_line(entry) + "\n" for entry in self.entries)

    def sources(self, image, items=None) -> dict:
        """sources.json of the part; `items` as materialized (file names filled, `fetch` dropped)."""
        items = [_without_fetch(item) for item in (self.items if items is None else items)]
        compiles = any(e.artifact.kind == "sdist" for e in self.entries) or any(
            i["kind"] not in ("index", "wheels") and not i.get("import_path") for i in items)
        return {"items": items, "compile": compiles, "apt_build": list(image.apt_build) if compiles else [],
                "soc_version": image.soc_version}


def requirement_line(entry) -> str:
    return f"{entry.name}=={entry.version} --hash=sha256:{entry.artifact.sha256}"


def parts(image, platform: str, lock, own: dict) -> list:
    """Every part of the image on `platform`, one per layer the Dockerfile has (layers_of, in its
    order), also where it installs nothing on this platform. own: dockerfile.own_layers."""
    installed = {c.name for c in image.on(platform).components}
    out = []
    for tier in tiers_of(image):
        entries = sorted((e for e in lock.packages if e.tier == tier.name), key=lambda e: e.name)
        taken = {c.dist for c in tier.components if c.name in installed} | set(own.get(tier.name, ()))
        for layer in layers_of(tier, own):
            if layer.components:
                comps = [c for c in layer.components if c.name in installed]
                out.append(_pinned_part(image, tier, layer, comps, entries, lock, platform))
            else:
                mine = [e for e in entries if e.name == layer.dist] if layer.dist else \
                    [e for e in entries if e.name not in taken]
                out.append(Part(tier, layer, tuple(mine), ()))
    return out


def _pinned_part(image, tier, layer: Layer, comps: list, entries, lock, platform: str) -> Part:
    """The layer of components: their locked entries, and how install_tier installs what the lock did not
    resolve (empty where they are all for another platform)."""
    items = tuple(i for i in (_item(image, comp, lock, platform) for comp in comps) if i is not None)
    dists = {comp.dist for comp in comps}
    return Part(tier, layer, tuple(e for e in entries if e.name in dists), items)


def _item(image, comp, lock, platform: str):
    """How install_tier.py installs a component the lock did not resolve (None: the lock did)."""
    build = comp.build
    common = {"component": comp.name, "dist": comp.dist, "env": dict(build.get("env", {})),
              "soc_env": build.get("soc_env", "")}
    source = next((b for b in lock.source_builds if b["component"] == comp.name), None)
    if source:
        name = source["url"].rsplit("/", 1)[1]
        return {**common, "kind": "sdist", "file": name, "sha256": source["sha256"],
                FETCH: {"file": name, "url": source["url"], "sha256": source["sha256"]}}
    if comp.source == "archive":
        archive = next(a for a in lock.archives if a["component"] == comp.name)
        return {**common, "kind": "wheels", "files": [f["name"] for f in archive.get("files", [])],
                FETCH: {"archive": archive["url"], "sha256": archive.get("sha256", ""), "wheels": list(archive["wheels"]),
                        "files": list(archive.get("files", []))}}
    external = next((x for x in lock.externals if x["component"] == comp.name), None)
    if external is None:
        return None
    if comp.source == "git":
        ref = {"tag": comp.get("tag")} if comp.get("tag") else {"branch": comp.get("branch")}
        fetch = {"git": comp.get("repo"), **ref, "commit": comp.get("commit")}
        if needs_builder(comp):
            return {**common, "kind": "built", FETCH: fetch}
        import_path = {"import_path": comp.import_path} if comp.import_path else {}
        return {**common, "kind": "git", **comp.install, **import_path, FETCH: fetch}
    # the file the lock verified (sha256 empty: none, installed only with --allow-unverified)
    return {**common, "kind": "index", "version": external["version"], "file": external.get("file", ""),
            "sha256": external.get("sha256", ""),
            FETCH: {"index": external["origin"], "dist": external["dist"], "version": external["version"],
                    "platform": platform, "file": external.get("file", ""), "sha256": external.get("sha256", "")}}


def _without_fetch(item: dict) -> dict:
    return {key: value for key, value in item.items() if key != FETCH}
