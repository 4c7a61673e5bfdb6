"""Run one check in this (fresh) interpreter: python -m smoke_tests.run_one NAME INPUT.json RESULT.json"""

import importlib
import json
import sys
import time
import traceback

from .outcome import CheckInput, Result
from .plan import load_checks


def main(name: str, input_path: str, result_path: str) -> int:
    started = time.monotonic()
    raw = json.loads(open(input_path).read())
    check = next(c for c in load_checks() if c.name == name)
    module, _, function = check.run.partition(":")
    try:
        result = getattr(importlib.import_module(module), function)(CheckInput(raw["pins"], tuple(raw["faults"]), raw["artifacts"]))
    except Exception as exc:  # a check that crashes fails, with its traceback in the log
        traceback.print_exc()
        result = Result(name, "FAIL", f"{type(exc).__name__}: {exc}", traceback.format_exc().splitlines())
    result.seconds = round(time.monotonic() - started, 2)
    with open(result_path, "w") as handle:
        json.dump(result.as_dict(), handle)
    return 0 if result.passed else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
