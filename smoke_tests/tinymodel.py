"""A tiny causal LM built from a transformers config: no download, fixed seeds."""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")

VOCAB = 1024
HIDDEN = 128
LAYERS = 2


def build(seed: int = 0, attn_implementation: str = "eager", dtype=None):
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(vocab_size=VOCAB, hidden_size=HIDDEN, intermediate_size=4 * HIDDEN,
                         num_hidden_layers=LAYERS, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=256, tie_word_embeddings=False)
    config._attn_implementation = attn_implementation
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    return model.to(dtype) if dtype is not None else model


def synthetic_batch(batch: int, length: int, seed: int):
    import torch

    generator = torch.Generator().manual_seed(seed)
    return torch.randint(0, VOCAB, (batch, length), generator=generator)


def weights_for_version(version: int, seed: int = 0) -> dict:
    """The trainer's weights after `version` updates: every tensor changes between versions.

    Both sides of a sync compute this independently, so the receiver can check every
    byte without the reference being shipped alongside the data.
    """
    import torch

    state = build(seed).state_dict()
    generator = torch.Generator().manual_seed(1000 + version)
    return {name: (t + 0.01 * (version + 1) * torch.randn(t.shape, generator=generator)).contiguous()
            for name, t in state.items()}
