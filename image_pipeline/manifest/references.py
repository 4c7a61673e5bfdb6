"""The Docker references the pipeline makes from pins.yaml: one place that spells their shapes.

builder/ tags and publish/ pushes with these, and load.py checks every one of them against
Docker's limits when pins.yaml is read, so a name, tag or repository that Docker would refuse
fails there with a line number, not at the end of a build or a push.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import grammar
from .model import arch_of

# content tags carry this many hex digits of the content hash (48 bits: no collision among an
# image's builds in practice, and room in Docker's 128-character tags for the rest)
HASH_CHARS = 12


@dataclass(frozen=True)
class Tags:
    """An image's tags on one platform (see builder/pipeline.py for what each one means)."""
    repository: str
    name: str
    short_hash: str
    human: str | None  # None: only the tags named after the image
    arch: str
    host: bool  # a build of this host's own platform also moves the plain tags

    @property
    def final(self) -> str:
        return f"{self.repository}:{self.name}-{self.short_hash}-{self.arch}"

    @property
    def candidate(self) -> str:
        return f"{self.final}-candidate"

    @property
    def moving(self) -> list:
        names = [self.name] + ([self.human] if self.human is not None else [])
        tags = [f"{self.repository}:{name}-{self.arch}" for name in names]
        if self.host:
            tags += [f"{self.repository}:{name}" for name in names]
        return tags

    @property
    def every(self) -> list:
        return [self.final, self.candidate, *self.moving]


def variant_name(image, alternative=None) -> str:
    """What an image (or its build with an alternative component) is tagged and locked as."""
    return image.name if alternative is None else f"{image.name}-{alternative.name}"


def tags_of(repository: str, image, arch: str, content_hash: str, *, host: bool, alternative=None) -> Tags:
    return Tags(repository, variant_name(image, alternative), content_hash[:HASH_CHARS], image.human_tag, arch, host)


def base_reference(image: str, tag: str, arch: str) -> str:
    """The per-platform local name of a base image: one engine can hold a base for every platform."""
    return f"{image}:{tag}-{arch}"


def every_tag(manifest, image, human: str | None) -> list:
    """Every tag the pipeline can give the image (each platform, each alternative; the content hash at
    its full length); human=None leaves out the tags named after its human tag."""
    placeholder = "0" * HASH_CHARS
    return [tag for alternative in [None, *manifest.alternatives_of(image)] for platform in image.platforms
            for tag in Tags(manifest.repository, variant_name(image, alternative), placeholder, human,
                            arch_of(platform), host=True).every]


def tag_problem(references: list) -> str | None:
    """Why Docker would refuse the tag of one of these repository:tag references, or None."""
    for reference in references:
        try:
            grammar.docker_tag(reference.rsplit(":", 1)[1])
        except ValueError as exc:
            return str(exc)
    return None


def check(manifest) -> None:
    """Raise, as a one-line error at its pins.yaml key, the first reference Docker would refuse: a
    repository name too long with a registry in front, a base's per-platform tag, an image's tags."""
    for name, registry in manifest.registries.items():
        try:
            grammar.repository_name(f"{registry.url}/{manifest.repository}")
        except ValueError as exc:
            raise manifest.error(("repository",), f"pushed to registry {name!r}: {exc}") from None
    for image in manifest.images.values():
        base = image.base
        problem = tag_problem([base_reference(base.get("image"), base.get("tag"), arch_of(p)) for p in image.platforms])
        if problem:
            raise manifest.error(base.keypath + ("tag",), f"{problem} (the per-platform local tag of the base, "
                                                          f"-<arch> added, of image {image.name!r})")
        problem = tag_problem(every_tag(manifest, image, None))
        if problem:
            raise manifest.error(image.keypath, f"{problem} (the content hash, the architecture and -candidate "
                                                f"the pipeline adds to the image's name)")
