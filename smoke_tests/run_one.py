"""Run one check in this (fresh) interpreter: python -m smoke_tests.run_one NAME CONTEXT.json RESULT.json"""

import json
import sys
import time
import traceback

from .checks import CHECKS, Context, Result


def main(name: str, context_path: str, result_path: str) -> int:
    started = time.monotonic()
    raw = json.loads(open(context_path).read())
    ctx = Context(raw["pins"], tuple(raw["faults"]))
    try:
        result = CHECKS[name](ctx)
    except Exception as exc:
        result = Result(name, False, f"{type(exc).__name__}: {exc}", traceback.format_exc().splitlines())
    result.seconds = round(time.monotonic() - started, 2)
    with open(result_path, "w") as handle:
        json.dump(result.as_dict(), handle)
    return 0 if result.passed else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
