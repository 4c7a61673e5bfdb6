"""Pack named tensors into fixed-size byte buckets and unpack them again."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Slice:
    name: str
    shape: tuple
    dtype: str
    offset: int
    nbytes: int


class TensorTooLarge(ValueError):
    pass


def plan(tensors: dict, bucket_bytes: int) -> list:
    """[[Slice, ...], ...]: tensors in order, greedily filling buckets of bucket_bytes."""
    buckets, current, offset = [], [], 0
    for name, tensor in tensors.items():
        nbytes = tensor.numel() * tensor.element_size()
        if nbytes > bucket_bytes:
            raise TensorTooLarge(
                f"{name} ({nbytes} bytes) does not fit a {bucket_bytes}-byte bucket: raise "
                f"update_weights_bucket_megabytes to 1.2-1.5x the largest tensor")
        if offset + nbytes > bucket_bytes:
            buckets.append(current)
            current, offset = [], 0
        current.append(Slice(name, tuple(tensor.shape), str(tensor.dtype).removeprefix("torch."), offset, nbytes))
        offset += nbytes
    if current:
        buckets.append(current)
    return buckets


def length(bucket: list) -> int:
    return bucket[-1].offset + bucket[-1].nbytes if bucket else 0


def pack(bucket: list, tensors: dict, buffer) -> None:
    import torch

    for item in bucket:
        flat = tensors[item.name].reshape(-1).view(torch.uint8)
        buffer[item.offset:item.offset + item.nbytes].copy_(flat)


def unpack(bucket: list, buffer) -> dict:
    import torch

    out = {}
    for item in bucket:
        raw = buffer[item.offset:item.offset + item.nbytes].clone()
        out[item.name] = raw.view(getattr(torch, item.dtype)).reshape(item.shape)
    return out


def to_wire(bucket: list) -> list:
    return [[s.name, list(s.shape), s.dtype, s.offset, s.nbytes] for s in bucket]


def from_wire(items: list) -> list:
    return [Slice(n, tuple(shape), dtype, offset, nbytes) for n, shape, dtype, offset, nbytes in items]
