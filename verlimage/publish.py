"""`build.py publish`: push a promoted image by digest, then move the registry's tags to it.

The content tag <name>-<hash> is pushed first and its digest read back; the moving tags are
pushed only after that push succeeded, so a registry never shows a moving tag whose content
was not completely uploaded.
"""

from __future__ import annotations

from .engine import image_id
from .errors import UserError


def content_tag(api, repository: str, name: str) -> str:
    """The promoted content tag (<repository>:<name>-<hash>) the moving tag <name> points at."""
    promoted = image_id(api, f"{repository}:{name}")
    if not promoted:
        raise UserError(f"{repository}:{name} does not exist: run `make image IMAGE={name}` first")
    tags = [t for t in api.images.get(promoted).tags
            if t.startswith(f"{repository}:{name}-") and not t.endswith("-candidate")]
    hashed = [t for t in tags if len(t.rsplit("-", 1)[1]) == 12]
    if not hashed:
        raise UserError(f"{repository}:{name} has no content tag: it was not promoted by `build.py image`")
    return hashed[0]


def push(api, reference: str) -> str:
    """Push and return the digest the registry reports."""
    repository, tag = reference.rsplit(":", 1)
    digest = None
    for event in api.api.push(repository, tag=tag, stream=True, decode=True):
        if "error" in event:
            raise UserError(f"push of {reference} failed: {event['error']}")
        digest = (event.get("aux") or {}).get("Digest", digest)
    if not digest:
        raise UserError(f"push of {reference} reported no digest")
    return digest


def publish(api, manifest, image, registry: str, log=print) -> dict:
    registry = registry.rstrip("/")
    local = content_tag(api, manifest.repository, image.name)
    target = api.images.get(local)
    remote_content = f"{registry}/{local}"
    target.tag(*remote_content.rsplit(":", 1))
    digest = push(api, remote_content)
    log(f"pushed {remote_content}@{digest}")
    pushed = {remote_content: digest}
    for tag in (image.name, image.human_tag):
        remote = f"{registry}/{manifest.repository}:{tag}"
        target.tag(*remote.rsplit(":", 1))
        moved = push(api, remote)
        if moved != digest:
            raise UserError(f"{remote} got digest {moved}, expected {digest}")
        pushed[remote] = moved
        log(f"tagged {remote} -> {digest}")
    return pushed
