"""verl's own tests for the image's device, from the installed verl wheel (it ships tests/).

The cpu image runs every `tests/**/*_on_cpu.py` of the pinned verl; an NPU image, in
extended mode on an Ascend host, its `*_on_npu.py` that fit one node, with the model those
tests load (~/models/Qwen/Qwen3-8B-Base) made tiny from a config: no download. pytest and its
plugins are never in the image: the host mounts their locked wheels (the lock's test-tools
tier) at TOOLS and they are installed, hash-checked, into a scratch directory for this run.
What cannot run in a container (a GPU, a download, the network) is deselected in
verl_tests.json, each entry with its reason. Nothing else may be left out: the check passes only
when pytest exits 0, something was collected, and every collected test passed (none failed,
errored or skipped).
"""

from __future__ import annotations

import importlib.metadata as md
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from .outcome import judged

TOOLS = Path("/opt/verl-image-test-tools")
DESELECT_FILE = Path(__file__).with_name("verl_tests.json")


def test_files(device: str) -> list:
    """verl's own test files for the device, from its RECORD (other wheels may ship a tests/ too)."""
    dist = md.distribution("verl")
    suffix = f"_on_{device}.py"
    return sorted(str(f) for f in dist.files if str(f).startswith("tests/") and str(f).endswith(suffix))


def install_tools(target: Path) -> None:
    requirements = TOOLS / "requirements.txt"
    if not requirements.exists():
        raise RuntimeError(f"no test tools at {TOOLS}: run it with `python build.py verl-tests` (it mounts them)")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", "--require-hashes",
                    "--find-links", str(TOOLS / "files"), "--target", str(target), "-r", str(requirements)],
                   check=True)


def tiny_home(home: Path) -> None:
    """~/models/Qwen/Qwen3-8B-Base as verl's NPU tests expect it, made from a config (no download)."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

    path = home / "models" / "Qwen" / "Qwen3-8B-Base"
    vocab = {f"t{i}": i for i in range(1024)}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="t0"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="t0", eos_token="t1", pad_token="t2").save_pretrained(path)
    config = Qwen3Config(vocab_size=1024, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512)
    Qwen3ForCausalLM(config).save_pretrained(path)


def counts(junit: Path) -> dict:
    root = ET.parse(junit).getroot()
    suites = [root] if root.tag == "testsuite" else list(root)
    total = {key: sum(int(s.get(key, 0)) for s in suites) for key in ("tests", "failures", "errors", "skipped")}
    return {"collected": total["tests"], "failed": total["failures"], "errors": total["errors"],
            "skipped": total["skipped"], "passed": total["tests"] - total["failures"] - total["errors"] - total["skipped"]}


def problems_of(found: dict) -> list:
    """Every collected test passes; only the deselect list leaves tests out (a skip is a test left out)."""
    problems = []
    if not found["files"]:
        problems.append(f"verl {found['verl']} ships no *_on_{found['device']}.py tests")
    if not found["collected"]:
        problems.append(f"no test collected (pytest exit {found['exit_code']})")
    if found["failed"] or found["errors"]:
        problems.append(f"{found['failed']} failed, {found['errors']} error(s) (collection or setup)")
    if found["skipped"]:
        problems.append(f"{found['skipped']} skipped: only verl_tests.json's deselect list may leave a test out, "
                        f"each with its reason")
    if found["exit_code"] != 0 and not problems:
        problems.append(f"pytest exit {found['exit_code']}")
    return problems


def check(ctx):
    device = ctx.pins["device"]
    deselect = json.loads(DESELECT_FILE.read_text())["deselect"].get(device, [])
    files = test_files(device)
    site = Path(md.distribution("verl").locate_file(""))
    with tempfile.TemporaryDirectory(prefix="verl-tests-") as tmp:
        tools = Path(tmp) / "tools"
        install_tools(tools)
        env = dict(os.environ, PYTHONPATH=str(tools))
        if device == "npu":
            tiny_home(Path(tmp) / "home")
            env["HOME"] = str(Path(tmp) / "home")
        junit = Path(ctx.artifacts) / "verl-tests.junit.xml"
        cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfE", f"--junitxml={junit}",
               *files, *(f"--deselect={entry['nodeid']}" for entry in deselect)]
        result = subprocess.run(cmd, cwd=site, env=env)
    found = counts(junit) if junit.exists() else {"collected": 0, "passed": 0, "failed": 0, "errors": 1, "skipped": 0}
    found.update(verl=md.version("verl"), deselected=len(deselect), files=len(files), device=device,
                 exit_code=result.returncode)
    (Path(ctx.artifacts) / "summary.json").write_text(json.dumps(found, indent=1))
    problems = problems_of(found)
    lines = [f"verl {found['verl']}: {len(files)} files, {found['collected']} collected, {found['passed']} passed, "
             f"{found['failed']} failed, {found['skipped']} skipped, {len(deselect)} deselected (verl_tests.json)"]
    return judged("verl_tests", problems, lines, {f"verl_tests.{k}": v for k, v in found.items()
                                                  if isinstance(v, int) and k != "exit_code"})
