"""What a change re-ships: the compressed layers of one image that a registry holding another lacks.

Measured by pushing both to a registry (a loopback one in tests and benchmarks): the manifest's
layer digests and sizes are exactly what a `docker pull` of the new image downloads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..errors import UserError
from .registry import Registry


@dataclass(frozen=True)
class Reship:
    layers: int
    changed: int
    total_bytes: int
    changed_bytes: int

    @property
    def share(self) -> float:
        return self.changed_bytes / self.total_bytes if self.total_bytes else 0.0


def pushed_layers(api, image_id: str, address: str, tag: str, repository: str = "reship") -> list:
    """[(digest, compressed size)] of an image as pushed to the registry at address."""
    remote = f"{address}/{repository}"
    api.images.get(image_id).tag(remote, tag)
    try:
        for event in api.api.push(remote, tag=tag, stream=True, decode=True):
            if "error" in event:
                raise UserError(f"push of {remote}:{tag} failed: {event['error']}")
    finally:
        api.images.remove(f"{remote}:{tag}", noprune=True)
    layers = json.loads(Registry(address).manifest(repository, tag)[1])["layers"]
    return [(layer["digest"], layer["size"]) for layer in layers]


def compare(before: list, after: list) -> Reship:
    known = {digest for digest, _ in before}
    changed = [size for digest, size in after if digest not in known]
    return Reship(len(after), len(changed), sum(size for _, size in after), sum(changed))
