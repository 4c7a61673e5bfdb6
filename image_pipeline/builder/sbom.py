"""A CycloneDX 1.6 bill of materials (JSON) for one image on one platform, made on the host.

metadata.component is the image itself (a container; its version is the content hash, its content
tag and platform are properties). The components:
- every Python distribution of the platform's lock: purl, the locked artifact's sha256 and URL, its
  tier; the lock's test tools, locked with the image but never installed in it, have scope `excluded`;
- the lock's externals: index wheels (sha256 where the lock recorded one) and git sources (version =
  commit, a VCS reference); its source builds (the pinned sdist); its archives of wheels (the archive
  and, where the lock could download it, each wheel inside). Each says `verl-image:verified`: false for
  a file the lock holds no sha256 for, which a build installs only as served (--allow-unverified);
- every Debian package dpkg's status file says is installed (`pkg:deb/<distro>/...`);
- the base image (its reference; its image id as hash and property) and the patches the image applies
  (each diff with its sha256).

Nothing depends on the clock or on chance: the timestamp is SOURCE_DATE_EPOCH, the serial number a
uuid5 of the content hash and platform, every bom-ref a name; cyclonedx keeps components sorted by
type, name and version. The same inputs give the same bytes.
"""

from __future__ import annotations

import functools
import hashlib
import uuid
from datetime import datetime, timezone
from pathlib import Path

from cyclonedx.model import ExternalReference, ExternalReferenceType, HashAlgorithm, HashType, Property, XsUri
from cyclonedx.model.bom import Bom, BomMetaData
from cyclonedx.model.component import Component, ComponentScope, ComponentType
from cyclonedx.output import make_outputter
from cyclonedx.schema import OutputFormat, SchemaVersion
from packageurl import PackageURL
from packaging.utils import parse_wheel_filename

from ..lock.request import TEST_TIER
from ..manifest.model import arch_of
from ..manifest.references import tags_of
from ..lock.lockfile import unverified_components

SCHEMA = SchemaVersion.V1_6  # written and validated against the same schema
PROPERTY_PREFIX = "verl-image"
PYPI_INDEX = "pypi"  # the manifest's index of every package no pin sends elsewhere
DISTROS = ("ubuntu", "debian")  # the deb purl namespaces a base reference may name; debian when it names none


class InvalidSbom(ValueError):
    """The text is not a CycloneDX JSON document of SCHEMA."""


def dpkg_packages(status_text: str) -> list[tuple[str, str, str]]:
    """(package, version, architecture) of every package a dpkg status file says is installed, sorted.

    Installed is dpkg's flag `ok` and state `installed`, whatever the selection: `install ok installed`
    and `hold ok installed` are in the image alike; `deinstall ok config-files` is not."""
    return sorted((fields["Package"], fields.get("Version", ""), fields.get("Architecture", ""))
                  for fields in _paragraphs(status_text)
                  if fields.get("Status", "").split()[1:] == ["ok", "installed"])


def _paragraphs(text: str):
    """The fields of each deb822 paragraph, continuation lines (Description, Conffiles) left out."""
    fields: dict = {}
    for line in text.splitlines():
        if not line.strip():
            if fields:
                yield fields
            fields = {}
        elif not line[0].isspace():
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    if fields:
        yield fields


def build_sbom(manifest, image, platform: str, lock, *, dpkg_status: str, base_reference: str, base_id: str,
               content_hash: str, source_date_epoch: int) -> str:
    """The SBOM of `image` built for `platform` from `lock`, as CycloneDX JSON text (SCHEMA)."""
    components = [
        *_python_components(manifest, lock),
        *_external_components(manifest, lock),
        *(_source_build_component(item) for item in lock.source_builds),
        *_archive_components(lock),
        *_deb_components(image, dpkg_status),
        _base_component(base_reference, base_id),
        *(_patch_component(manifest, patch) for patch in image.patches),
    ]
    subject = _image_component(manifest, image, platform, content_hash)
    bom = Bom(components=components, serial_number=_serial_number(content_hash, platform),
              metadata=BomMetaData(component=subject, timestamp=datetime.fromtimestamp(source_date_epoch, timezone.utc)))
    bom.register_dependency(subject, bom.components)  # the image holds them all; the graph inside is not drawn
    return make_outputter(bom, OutputFormat.JSON, SCHEMA).output_as_string(indent=2) + "\n"


def _serial_number(content_hash: str, platform: str) -> uuid.UUID:
    return uuid.uuid5(uuid.NAMESPACE_URL, f"urn:{PROPERTY_PREFIX}:sbom:{content_hash}:{platform}")


def validate(text: str) -> None:
    """Raise InvalidSbom unless `text` conforms to the strict CycloneDX JSON schema of SCHEMA."""
    error = _validator().validate_str(text)
    if error is not None:
        raise InvalidSbom(f"not a CycloneDX {SCHEMA.to_version()} document: {error.data.json_path}: {error.data.message}")


@functools.cache
def _validator():
    from cyclonedx.validation.json import JsonStrictValidator  # imports jsonschema: only for those who validate

    return JsonStrictValidator(SCHEMA)


def _python_components(manifest, lock) -> list:
    pypi = manifest.indexes[PYPI_INDEX].url
    return [_python_component(entry, pypi) for entry in lock.packages]


def _python_component(entry, pypi: str) -> Component:
    purl = _pypi_purl(entry.name, entry.version, entry.index, pypi)
    return Component(name=entry.name, version=entry.version, purl=purl, bom_ref=purl.to_string(),
                     hashes=_sha256(entry.artifact.sha256), external_references=_distribution(entry.artifact.url),
                     scope=ComponentScope.EXCLUDED if entry.tier == TEST_TIER else None,
                     properties=_properties(**{"locked-as": "package", "tier": entry.tier}))


def _external_components(manifest, lock) -> list:
    pypi = manifest.indexes[PYPI_INDEX].url
    unverified = set(unverified_components(lock))
    return [_git_component(item) if item.get("commit")
            else _index_external_component(item, pypi, verified=item["component"] not in unverified)
            for item in lock.externals]


def _index_external_component(item: dict, pypi: str, *, verified: bool) -> Component:
    return Component(name=item["dist"], version=item["version"], bom_ref=f"external:{item['component']}",
                     purl=_pypi_purl(item["dist"], item["version"], item["origin"], pypi),
                     hashes=_sha256(item.get("sha256", "")),
                     properties=_properties(**{"locked-as": "external", "component": item["component"],
                                               "tier": item["tier"], "verified": verified,
                                               "file": item.get("file", "")}))


def _git_component(item: dict) -> Component:
    """A git source: the commit is what the build checks the tree out at and proves, so it is the version."""
    origin, commit = item["origin"], item["commit"]
    purl = PackageURL(type="generic", name=item["dist"], version=commit, qualifiers={"vcs_url": f"git+{origin}@{commit}"})
    return Component(name=item["dist"], version=commit, purl=purl, bom_ref=f"external:{item['component']}",
                     external_references=[ExternalReference(type=ExternalReferenceType.VCS, url=XsUri(origin),
                                                            comment=f"{item['version']} at commit {commit}")],
                     properties=_properties(**{"locked-as": "external", "component": item["component"],
                                               "tier": item["tier"], "verified": True, "git-ref": item["version"]}))


def _source_build_component(item: dict) -> Component:
    """A pinned sdist built in the image: its sha256 is part of the pin, so always verified."""
    return Component(name=item["dist"], version=item["version"], bom_ref=f"source-build:{item['component']}",
                     purl=PackageURL(type="pypi", name=item["dist"], version=item["version"]),
                     hashes=_sha256(item["sha256"]), external_references=_distribution(item["url"]),
                     properties=_properties(**{"locked-as": "source-build", "component": item["component"],
                                               "tier": item["tier"], "verified": True}))


def _archive_components(lock) -> list:
    unverified = set(unverified_components(lock))
    return [_archive_component(item, verified=item["component"] not in unverified) for item in lock.archives]


def _archive_component(item: dict, *, verified: bool) -> Component:
    ref = f"archive:{item['component']}"
    inside = ([_archive_wheel(ref, file) for file in item.get("files") or ()]
              or [Component(name=dist, bom_ref=f"{ref}:{dist}") for dist in item["wheels"]])
    return Component(type=ComponentType.FILE, name=item["component"], version=item["version"], bom_ref=ref,
                     hashes=_sha256(item.get("sha256", "")), external_references=_distribution(item["url"]),
                     components=inside,
                     properties=_properties(**{"locked-as": "archive", "component": item["component"],
                                               "tier": item["tier"], "verified": verified,
                                               "external": item.get("external", "")}))


def _archive_wheel(archive_ref: str, file: dict) -> Component:
    dist, version, *_ = parse_wheel_filename(file["name"])
    return Component(name=dist, version=str(version), bom_ref=f"{archive_ref}:{dist}", hashes=_sha256(file["sha256"]),
                     properties=_properties(file=file["name"]))


def _deb_components(image, dpkg_status: str) -> list:
    distro = _deb_distro(image.base.reference)
    return [_deb_component(distro, *package) for package in dpkg_packages(dpkg_status)]


def _deb_distro(base_reference: str) -> str:
    """The deb purl namespace of a base: the distribution its reference names, else debian."""
    return next((name for name in DISTROS if name in base_reference.lower()), "debian")


def _deb_component(distro: str, name: str, version: str, arch: str) -> Component:
    purl = PackageURL(type="deb", namespace=distro, name=name, version=version, qualifiers={"arch": arch})
    return Component(name=name, version=version, purl=purl, bom_ref=purl.to_string())


def _base_component(base_reference: str, base_id: str) -> Component:
    algorithm, _, digest = base_id.partition(":")
    if algorithm != "sha256":
        raise ValueError(f"base image id {base_id!r} is not sha256:<hex>")
    return Component(type=ComponentType.CONTAINER, name=base_reference, bom_ref=f"base:{base_reference}",
                     hashes=_sha256(digest), properties=_properties(**{"image-id": base_id}))


def _patch_component(manifest, patch) -> Component:
    diff = Path(manifest.path).parent / patch.diff
    return Component(type=ComponentType.FILE, name=patch.diff, bom_ref=f"patch:{patch.name}",
                     hashes=_sha256(hashlib.sha256(diff.read_bytes()).hexdigest()),
                     properties=_properties(**{"patch": patch.name, "patched-package": patch.package,
                                               "patched-file": patch.file,
                                               "patched-file-sha256": patch.sha256}))


def _image_component(manifest, image, platform: str, content_hash: str) -> Component:
    tags = tags_of(manifest.repository, image, arch_of(platform), content_hash, host=False)
    name = f"{manifest.repository}/{image.name}"
    return Component(type=ComponentType.CONTAINER, name=name, version=content_hash, bom_ref=f"image:{name}",
                     properties=_properties(**{"platform": platform, "content-tag": tags.final,
                                               "tag": image.human_tag, "device": image.device,
                                               "python": image.python}))


def _pypi_purl(name: str, version: str, index: str, pypi: str) -> PackageURL:
    elsewhere = {"repository_url": index} if index and index.rstrip("/") != pypi.rstrip("/") else {}
    return PackageURL(type="pypi", name=name, version=version, qualifiers=elsewhere)


def _sha256(hexdigest: str) -> list:
    return [HashType(alg=HashAlgorithm.SHA_256, content=hexdigest)] if hexdigest else []


def _distribution(url: str) -> list:
    return [ExternalReference(type=ExternalReferenceType.DISTRIBUTION, url=XsUri(url))] if url else []


def _properties(**values) -> list:
    """verl-image:<key> properties; empty values left out, booleans as true/false."""
    text = {key: ("true" if value else "false") if isinstance(value, bool) else value for key, value in values.items()}
    return [Property(name=f"{PROPERTY_PREFIX}:{key}", value=value) for key, value in text.items() if value]
