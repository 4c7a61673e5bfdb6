"""Waiting for a log that another process writes, and what to show when it stays empty.

Upstream's nightly Ascend job learned that a training log tee'd to a file sometimes reads empty
at check time: it waits a bounded time for the file to have content (`test -s`, 60 s cap,
10 s polls) and on failure shows `ls -l`, `wc -c` and `tail -c 4096` of it, each of which may
fail on its own. The training checks wait for verl's logs with this; the host waits for the
container's LOG the same way (image_pipeline.smoke.runner.wait_for_log: the host never imports
the in-image suite). Importing this needs nothing outside the standard library.
"""

from __future__ import annotations

import time
from pathlib import Path

CAP_S = 60.0
POLL_S = 10.0
TAIL_BYTES = 4096


def wait_for_content(path: Path, cap: float = CAP_S, poll: float = POLL_S, sleep=time.sleep,
                     clock=time.monotonic) -> bool:
    """Bounded wait for `path` to exist and be non-empty, checked every `poll` seconds."""
    deadline = clock() + cap
    while True:
        if path.exists() and path.stat().st_size > 0:
            return True
        remaining = deadline - clock()
        if remaining <= 0:
            return False
        sleep(min(poll, remaining))


def tail(path: Path, count: int = TAIL_BYTES) -> str:
    with open(path, "rb") as handle:
        handle.seek(max(0, path.stat().st_size - count))
        return handle.read().decode(errors="replace")


def describe(path: Path) -> str:
    """ls -l, wc -c and tail -c 4096 of `path`; each says why when it cannot be had."""
    sections = [(f"ls -l {path.name}", lambda: _listing(path)), (f"wc -c {path.name}", lambda: f"{path.stat().st_size}"),
                (f"tail -c {TAIL_BYTES} {path.name}", lambda: tail(path))]
    lines = []
    for title, produce in sections:
        try:
            body = produce()
        except OSError as exc:
            body = f"(unavailable: {type(exc).__name__}: {exc})"
        lines += [f"=== {title}", body.rstrip()]
    return "\n".join(lines) + "\n"


def _listing(path: Path) -> str:
    stat = path.stat()
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(stat.st_mtime))
    return f"{stat.st_size} bytes, modified {stamp} UTC: {path}"
