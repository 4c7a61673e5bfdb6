"""The example PR bodies under docs/examples/: the format, as a reviewer receives it, reviewed by people.

Each example is a bump made for real by the README's recipe in a scratch clone: `example.json` names the
commit of this repository it was made on (`base`), `change.patch` is the bump's commit (`git diff base
HEAD`: pins.yaml, locks, images/), `artifacts/` keeps what `make image` left that `pr-body` reads, and
`pr-body.md` is what `pr-body --base BASE --artifacts artifacts/` printed. Regenerating replays the patch
on the base in a temporary clone and runs today's `pr-body` on it, so a change to the body's format shows
as a diff of these files (drift gate), never as a silently different body.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import tempfile
from pathlib import Path

from ..errors import UserError
from ..files import atomic_write
from . import affected, prbody

BODY = "pr-body.md"
_COMMIT = re.compile(r"[0-9a-f]{40}")


def examples(root: Path) -> list:
    return sorted(p for p in (root / "docs" / "examples").glob("*") if (p / "example.json").is_file())


def base_of(example: Path) -> str:
    """The full commit the example's bump was made on (a field of a committed file: still checked)."""
    meta = example / "example.json"
    try:
        base = json.loads(meta.read_text()).get("base")
    except (OSError, ValueError, AttributeError) as exc:
        raise UserError(f"{meta}: not an example's example.json ({exc})", key="base") from None
    if not isinstance(base, str) or not _COMMIT.fullmatch(base):
        raise UserError(f"{meta}: base must be a full commit sha, got {base!r}", key="base")
    return base


def regenerate(root: Path, example: Path) -> str:
    """The PR body today's pr-body writes for the example's bump."""
    base = base_of(example)
    artifacts = example / "artifacts"
    with _bumped_tree(root, base, example / "change.patch") as tree:
        change = affected.compare(tree, base)
        return prbody.body(tree, change, artifacts if artifacts.is_dir() else None)


@contextlib.contextmanager
def _bumped_tree(root: Path, base: str, patch: Path):
    """A temporary clone of `root` at `base` with the example's patch applied (root's own files untouched)."""
    with tempfile.TemporaryDirectory(prefix="example-") as tmp:
        tree = Path(tmp) / "tree"
        history = "an example's base must be a commit of this clone's history; a shallow clone lacks it"
        _git(root, history, "clone", "--quiet", "--shared", "--no-checkout", "--", str(root), str(tree))
        _git(tree, history, "checkout", "--quiet", "--detach", base)
        _git(tree, f"{patch} must apply to the base it was made on", "apply", "--whitespace=nowarn", "--",
             str(patch.resolve()))
        yield tree


def _git(where: Path, hint: str, *args: str) -> None:
    result = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True)
    if result.returncode:
        raise UserError(f"git {args[0]} failed in {where}: {result.stderr.strip().splitlines()[-1:]} ({hint})", key="base")


def write_or_check(root: Path, check: bool) -> list:
    """[example directories whose pr-body.md differs from today's]; without `check`, rewrites them."""
    stale = []
    for example in examples(root):
        text = regenerate(root, example)
        path = example / BODY
        if not path.is_file() or path.read_text() != text:
            stale.append(example)
            if not check:
                atomic_write(path, text)
    return stale
