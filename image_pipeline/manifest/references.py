"""The Docker references the pipeline makes from pins.yaml: one place that spells their shapes.

build/ tags and publish/ pushes with these, and load.py checks every one of them against
Docker's limits when pins.yaml is read, so a name, tag or repository that Docker would refuse
fails there with a line number, not at the end of a build or a push.
"""

from __future__ import annotations

from dataclasses import dataclass

# content tags carry this many hex digits of the content hash (48 bits: no collision among an
# image's builds in practice, and room in Docker's 128-character tags for the rest)
HASH_CHARS = 12


@dataclass(frozen=True)
class Tags:
    """An image's tags on one platform (see build/pipeline.py for what each one means)."""
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
