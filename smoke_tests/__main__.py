"""python -m smoke_tests: run the smoke suite inside an image.

Writes to --artifacts: results.json, metrics.txt (key:value), junit.xml, and one log per
check; prints a summary table; exits 0 only when every check passed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from . import metrics
from .checks import CHECKS, FAULTS, PINS_PATH, Result

CHECK_TIMEOUT_S = 300


def parse(argv=None):
    parser = argparse.ArgumentParser(prog="python -m smoke_tests", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--artifacts", type=Path, default=Path("/artifacts"))
    parser.add_argument("--pins", type=Path, default=PINS_PATH)
    parser.add_argument("--only", default="", help="comma-separated check names or prefixes")
    parser.add_argument("--fault", action="append", default=[], choices=FAULTS,
                        help="inject a fault the suite must catch (tests of the tests)")
    parser.add_argument("--list", action="store_true", help="list the checks and exit")
    return parser.parse_args(argv)


def selected(only: str) -> list:
    if not only:
        return list(CHECKS)
    wanted = [w.strip() for w in only.split(",") if w.strip()]
    names = [n for n in CHECKS if any(n == w or n.startswith(w + ".") for w in wanted)]
    if not names:
        raise SystemExit(f"no check matches --only {only!r} (checks: {', '.join(CHECKS)})")
    return names


def run_check(name: str, context_file: Path, artifacts: Path) -> Result:
    result_file = artifacts / f"{name}.result.json"
    log_file = artifacts / f"{name}.log"
    started = time.monotonic()
    print(f"--- {name}", flush=True)
    with open(log_file, "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "smoke_tests.run_one", name, str(context_file),
                                    str(result_file)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, bufsize=1, cwd=Path(__file__).resolve().parent.parent)
        try:
            for line in process.stdout:
                log.write(line)
                print(f"    {line.rstrip()}", flush=True)
            process.wait(timeout=CHECK_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
    if result_file.exists():
        return Result(**json.loads(result_file.read_text()))
    return Result(name, False, f"the check process died (exit {process.returncode}) before reporting; see {log_file.name}",
                  seconds=round(time.monotonic() - started, 2))


def write_junit(results: list, path: Path) -> None:
    suite = ET.Element("testsuite", name="smoke_tests", tests=str(len(results)),
                       failures=str(sum(not r.passed for r in results)),
                       time=f"{sum(r.seconds for r in results):.2f}")
    for result in results:
        case = ET.SubElement(suite, "testcase", classname="smoke_tests", name=result.name, time=f"{result.seconds:.2f}")
        if not result.passed:
            ET.SubElement(case, "failure", message=result.detail).text = "\n".join(result.lines)
        ET.SubElement(case, "system-out").text = "\n".join(result.lines)
    ET.ElementTree(suite).write(path, encoding="unicode", xml_declaration=True)


def summary(results: list) -> str:
    width = max(len(r.name) for r in results)
    rows = [f"{'check':<{width}}  result  seconds  detail"]
    for r in results:
        rows.append(f"{r.name:<{width}}  {'PASS' if r.passed else 'FAIL':<6}  {r.seconds:7.1f}  {r.detail[:110]}")
    passed = sum(r.passed for r in results)
    rows.append(f"{passed}/{len(results)} passed in {sum(r.seconds for r in results):.1f} s")
    return "\n".join(rows)


def main(argv=None) -> int:
    args = parse(argv)
    if args.list:
        print("\n".join(CHECKS))
        return 0
    os.environ.setdefault("MC_LOG_LEVEL", "ERROR")
    os.environ.setdefault("GLOG_minloglevel", "2")
    args.artifacts.mkdir(parents=True, exist_ok=True)
    pins = json.loads(args.pins.read_text())
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump({"pins": pins, "faults": args.fault}, handle)
    print(f"smoke suite for image {pins['image']} ({pins['tag']}), faults: {', '.join(args.fault) or 'none'}",
          flush=True)
    results = [run_check(name, Path(handle.name), args.artifacts) for name in selected(args.only)]
    merged = {}
    for result in results:
        merged.update(result.metrics)
    (args.artifacts / "metrics.txt").write_text(metrics.format_lines(merged))
    (args.artifacts / "results.json").write_text(json.dumps([r.as_dict() for r in results], indent=1))
    write_junit(results, args.artifacts / "junit.xml")
    print(summary(results), flush=True)
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
