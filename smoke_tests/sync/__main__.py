"""python -m smoke_tests.sync: one rank of a sync between two containers.

  --role trainer   rank 0; hosts the coordination store at --store HOST:PORT
  --role rollout   rank 1; writes its report (JSON) to --report
The Mooncake sync runs with sync.mooncake's parameters (an even number of buckets, a slow reader),
which catch a stale completion slot; the report counts the buckets verl's engine received.
Exit code 0 only when every tensor of every version arrived bit for bit.
"""

import argparse
import json
import os
import sys

from . import SyncConfig, SyncReport
from .checks import slow_reader_config
from .harness import connect, run_rank


def parse(argv=None):
    parser = argparse.ArgumentParser(prog="python -m smoke_tests.sync", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("collective", "mooncake"), default="collective")
    parser.add_argument("--role", choices=("trainer", "rollout"), required=True)
    parser.add_argument("--store", default="trainer:29611", help="HOST:PORT of the trainer's store")
    parser.add_argument("--versions", type=int, default=3)
    parser.add_argument("--bucket-kib", type=int, default=256,
                        help="collective only; mooncake runs sync.mooncake's slow-reader parameters")
    parser.add_argument("--device", default=json.load(open("/etc/verl-image/pins.json"))["device"])
    parser.add_argument("--report", help="write the rollout's report as JSON here")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv)
    os.environ.setdefault("MC_LOG_LEVEL", "ERROR")
    if args.backend == "mooncake":
        cfg = SyncConfig(**{**slow_reader_config().as_dict(), "versions": args.versions})
    else:
        cfg = SyncConfig(backend=args.backend, versions=args.versions, bucket_bytes=args.bucket_kib << 10)
    host, port = args.store.rsplit(":", 1)
    store = connect("0.0.0.0" if args.role == "trainer" else host, int(port), master=args.role == "trainer")
    try:
        report = run_rank(cfg, 0 if args.role == "trainer" else 1, store, args.device, loopback=False)
    except Exception as exc:  # the rollout's report names the cause; the trainer's traceback is in its log
        if args.role == "trainer":
            raise
        report = SyncReport(ok=False, backend=cfg.backend, error=f"rollout: {type(exc).__name__}: {exc}")
    if report is None:
        print(f"trainer: sent {cfg.versions} versions")
        return 0
    print(report.summary())
    for line in report.mismatches[:20]:
        print("  " + line)
    if args.report:
        with open(args.report, "w") as handle:
            json.dump({**report.__dict__, "gbps": report.gbps}, handle)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
