"""python -m smoke_tests: run the smoke suite inside an image (any working directory), or in an
environment a host install made (images/<name>/install.*.sh), the same way.

Each check runs in a fresh interpreter (several set process-global state), killed with its
process group when it outlives its timeout. Consecutive checks marked `concurrent` in checks.json (they
only import and read) run side by side, as many at once as this process has CPUs; every other check
runs alone, after all before it finished. A check is PASS or FAIL; a device check on an
image whose device is absent (an NPU image on a host without NPUs) is NOT RUN, never PASS,
and the suite only passes when every selected check passed. A check that applies only inside an
image (checks.json: where) is NOT RUN in an exported environment and does not count against it.
Writes to --artifacts:
results.json, metrics.txt (key:value), junit.xml, one log per check, and baseline.txt when a
training check ran soundly.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
import xml.etree.ElementTree as ET
from pathlib import Path

from . import metrics
from .device import pinned_device_present
from .outcome import Result
from .plan import CHECKS_FILE, FAULTS, Check, load_checks, select

PINS = Path("/etc/verl-image/pins.json")
EXPORT = Path(sys.prefix) / "verl-image" / "export.json"  # written by baremetal/host_install.py, never in an image


PLACES = {"image": "inside an image", "exported": "in an environment a host install made"}


def where() -> str:
    """image, or exported: the environment a host install made (its pins.json is beside the record)."""
    return "exported" if EXPORT.exists() else "image"


def parse(argv=None):
    parser = argparse.ArgumentParser(prog="python -m smoke_tests", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    exported = where() == "exported"
    parser.add_argument("--artifacts", type=Path, default=Path("smoke-artifacts" if exported else "/artifacts"))
    parser.add_argument("--pins", type=Path, default=EXPORT.with_name("pins.json") if exported else PINS)
    parser.add_argument("--only", default="", help="comma-separated check names or prefixes")
    parser.add_argument("--fault", action="append", default=[], choices=sorted(FAULTS),
                        help="inject a fault the suite must catch (tests of the tests)")
    parser.add_argument("--extended", action="store_true", help="also run the optional checks (verl's own tests)")
    parser.add_argument("--promotion", action="store_true",
                        help="the checks a local promotion waits for: all but those CI's device stage measures "
                             "(checks.json `promotion: false`)")
    parser.add_argument("--list", action="store_true", help="list the checks and exit")
    return parser.parse_args(argv)


def run_check(check: Check, context_file: Path, artifacts: Path, beside_others: bool = False) -> Result:
    """beside_others: other checks run at the same time, so each line it prints is tagged with its name."""
    result_file = artifacts / f"{check.name}.result.json"
    log_file = artifacts / f"{check.name}.log"
    timeout = check.timeout_s * float(os.environ.get("SMOKE_TIMEOUT_SCALE", "1"))
    started = time.monotonic()
    print(f"--- {check.name}", flush=True)
    process = subprocess.Popen([sys.executable, "-m", "smoke_tests.run_one", check.name, str(context_file),
                                str(result_file)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               errors="replace", start_new_session=True)
    prefix = f"    {check.name}| " if beside_others else "    "
    reader = threading.Thread(target=_tee, args=(process.stdout, log_file, prefix), daemon=True)
    reader.start()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        reader.join(timeout=5)
        return Result(check.name, "FAIL", f"timed out after {timeout:.0f} s: killed (see {log_file.name})",
                      seconds=round(time.monotonic() - started, 2))
    reader.join(timeout=30)
    if result_file.exists():
        return Result(**json.loads(result_file.read_text()))
    return Result(check.name, "FAIL", f"the check process died (exit {process.returncode}) before reporting; "
                                      f"see {log_file.name}", seconds=round(time.monotonic() - started, 2))


def _tee(stream, log_file: Path, prefix: str) -> None:
    with open(log_file, "w") as log:
        for line in stream:
            log.write(line)
            log.flush()
            print(f"{prefix}{line.rstrip()}", flush=True)


def side_by_side(checks: list) -> list:
    """The run order cut into groups: consecutive concurrent checks together, every other check alone."""
    groups = []
    for check in checks:
        if check.concurrent and groups and groups[-1][-1].concurrent:
            groups[-1].append(check)
        else:
            groups.append([check])
    return groups


def run_all(checks: list, run, workers: int) -> list:
    """run(check, beside_others) for every check, a group at a time (side_by_side), at most `workers`
    of a group at once; the results in run order."""
    results = []
    for group in side_by_side(checks):
        if len(group) == 1:
            results.append(run(group[0], False))
            continue
        with ThreadPoolExecutor(max_workers=max(1, min(workers, len(group)))) as pool:
            results += list(pool.map(lambda check: run(check, True), group))
    return results


def not_run(check: Check, reason: str) -> Result:
    return Result(check.name, "NOT RUN", reason)


def write_junit(results: list, path: Path) -> None:
    suite = ET.Element("testsuite", name="smoke_tests", tests=str(len(results)),
                       failures=str(sum(r.status == "FAIL" for r in results)),
                       skipped=str(sum(r.status == "NOT RUN" for r in results)),
                       time=f"{sum(r.seconds for r in results):.2f}")
    for result in results:
        case = ET.SubElement(suite, "testcase", classname="smoke_tests", name=result.name, time=f"{result.seconds:.2f}")
        if result.status == "FAIL":
            ET.SubElement(case, "failure", message=result.detail).text = "\n".join(result.lines)
        elif result.status == "NOT RUN":
            ET.SubElement(case, "skipped", message=result.detail)
        ET.SubElement(case, "system-out").text = "\n".join(result.lines)
    ET.ElementTree(suite).write(path, encoding="unicode", xml_declaration=True)


def summary(results: list, wall_s: float) -> str:
    width = max(len(r.name) for r in results)
    rows = [f"{'check':<{width}}  result    seconds  detail"]
    rows += [f"{r.name:<{width}}  {r.status:<8}  {r.seconds:7.1f}  {r.detail[:110]}" for r in results]
    counts = ", ".join(f"{sum(r.status == s for r in results)} {s}" for s in ("PASS", "FAIL", "NOT RUN", "MEASURED")
                       if any(r.status == s for r in results))
    rows.append(f"{counts} in {wall_s:.1f} s ({sum(r.seconds for r in results):.1f} s of checks)")
    return "\n".join(rows)


def write_baseline_candidate(artifacts: Path, pins: dict) -> None:
    """baseline.txt: what `build.py baseline --update` commits, merged from the training checks whose
    run was sound (each writes <check>.baseline.txt only then; the host decides whether the suite
    passed enough to use it)."""
    candidates = sorted(artifacts.glob("*.baseline.txt"))
    if candidates:
        text = metrics.merge_candidates(pins["image"], pins["device"], metrics.this_arch(),
                                        [path.read_text() for path in candidates])
        (artifacts / metrics.CANDIDATE).write_text(text)


def main(argv=None) -> int:
    args = parse(argv)
    checks = load_checks()
    if args.list:
        print("\n".join(c.name for c in checks))
        return 0
    pins = json.loads(args.pins.read_text())
    try:
        chosen = select(checks, pins["device"], args.only, args.extended, roles=pins["stack"], promotion=args.promotion)
    except ValueError as exc:
        print(f"smoke_tests: {exc} (see {CHECKS_FILE.name})", file=sys.stderr)
        return 2
    os.environ.setdefault("MC_LOG_LEVEL", "ERROR")
    os.environ.setdefault("GLOG_minloglevel", "2")
    args.artifacts.mkdir(parents=True, exist_ok=True)
    present, why = pinned_device_present(pins["device"])
    here = where()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump({"pins": pins, "faults": args.fault, "artifacts": str(args.artifacts)}, handle)
    print(f"smoke suite for image {pins['image']} ({pins['tag']}, device {pins['device']}: "
          f"{'present' if present else 'absent'}, {'in the image' if here == 'image' else 'exported: ' + sys.prefix}), "
          f"faults: {', '.join(args.fault) or 'none'}", flush=True)
    if args.promotion and not args.only:
        left = [c.name for c in select(checks, pins["device"], "", args.extended, roles=pins["stack"]) if c not in chosen]
        print(f"a local promotion's run: {', '.join(left) or 'nothing'} left to CI's device stage", flush=True)
    elsewhere = {c.name for c in chosen if here not in c.where}

    def run(c: Check, beside_others: bool) -> Result:
        if c.name in elsewhere:
            return not_run(c, f"applies only {' or '.join(PLACES[w] for w in c.where)}; this run is {PLACES[here]}")
        if c.needs_device and not present:
            return not_run(c, why)
        return run_check(c, Path(handle.name), args.artifacts, beside_others)
    started = time.monotonic()
    results = run_all(chosen, run, len(os.sched_getaffinity(0)))
    merged = {}
    for result in results:
        merged.update(result.metrics)
    (args.artifacts / "metrics.txt").write_text(metrics.format_lines(merged))
    write_baseline_candidate(args.artifacts, pins)
    (args.artifacts / "results.json").write_text(json.dumps([r.as_dict() for r in results], indent=1))
    write_junit(results, args.artifacts / "junit.xml")
    print(summary(results, time.monotonic() - started), flush=True)
    passed = all(r.status in ("PASS", "MEASURED") or r.name in elsewhere for r in results)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
