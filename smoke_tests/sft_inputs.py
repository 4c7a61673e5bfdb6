"""What verl's SFT trainer reads, written into a scratch directory: nothing comes from a hub.

  model/          the tiny Qwen2 (tinymodel) saved as a Hugging Face checkpoint, with a word-level
                  tokenizer built here with the `tokenizers` library and a chat template
  train.parquet   ROWS conversations in verl's multi-turn format (`messages`: user, assistant); the
                  assistant answers each word with a fixed other word, so the loss can fall fast
"""

from __future__ import annotations

import random
from pathlib import Path

from . import tinymodel

ROWS = 64
WORDS = 200
WORDS_PER_TURN = 6
SPECIAL = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
ROLES = ("system", "user", "assistant")
CHAT_TEMPLATE = ("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
                 "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def write(scratch: Path, seed: int = 0) -> dict:
    """Write the model directory and the dataset; returns their paths."""
    model_dir, data = scratch / "model", scratch / "train.parquet"
    tinymodel.build(seed=seed).save_pretrained(model_dir)
    tokenizer().save_pretrained(model_dir)
    write_dataset(data, seed)
    return {"model": model_dir, "data": data}


def tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {token: index for index, token in enumerate((*SPECIAL, *ROLES, *(word(i) for i in range(WORDS))))}
    assert len(vocab) <= tinymodel.VOCAB, "the tokenizer must fit the model's embedding"
    core = Tokenizer(models.WordLevel(vocab, unk_token=SPECIAL[0]))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    core.add_special_tokens(list(SPECIAL))
    wrapped = PreTrainedTokenizerFast(tokenizer_object=core, pad_token=SPECIAL[0], eos_token=SPECIAL[2])
    wrapped.chat_template = CHAT_TEMPLATE
    return wrapped


def word(index: int) -> str:
    return f"w{index}"


def conversations(seed: int = 0) -> list:
    rng = random.Random(seed)
    rows = []
    for _ in range(ROWS):
        asked = [rng.randrange(WORDS) for _ in range(WORDS_PER_TURN)]
        rows.append([{"role": "user", "content": " ".join(word(i) for i in asked)},
                     {"role": "assistant", "content": " ".join(word((7 * i + 3) % WORDS) for i in asked)}])
    return rows


def write_dataset(path: Path, seed: int = 0) -> None:
    import pandas

    pandas.DataFrame({"messages": conversations(seed)}).to_parquet(path)
