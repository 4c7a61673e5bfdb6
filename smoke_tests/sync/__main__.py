"""python -m smoke_tests.sync: one sync run, locally or as one role of a cross-container pair.

  --role both                 spawn trainer and rollout here (default)
  --role trainer|rollout      one side; the trainer hosts the store at --store HOST:PORT
Exit code 0 only when every tensor of every version arrived bit for bit.
"""

import argparse
import json
import os
import sys

from . import SyncConfig
from .harness import connect, report_json, rollout, run_local, trainer
from .mooncake_sync import local_host


def parse(argv=None):
    parser = argparse.ArgumentParser(prog="python -m smoke_tests.sync", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("nccl", "mooncake"), default="nccl")
    parser.add_argument("--role", choices=("both", "trainer", "rollout"), default="both")
    parser.add_argument("--store", default="127.0.0.1:29611", help="HOST:PORT of the trainer's store")
    parser.add_argument("--versions", type=int, default=3)
    parser.add_argument("--bucket-kib", type=int, default=256)
    parser.add_argument("--payload", default="model")
    parser.add_argument("--rebuild-group", action="store_true")
    parser.add_argument("--reader-delay-ms", type=float, default=0.0)
    parser.add_argument("--no-slot-drain", action="store_true", help="reproduce verl's completion-slot bug")
    parser.add_argument("--corrupt", default="", help="VERSION:BUCKET to flip one received byte")
    parser.add_argument("--report", help="write the rollout's report as JSON here")
    return parser.parse_args(argv)


def config(args) -> SyncConfig:
    return SyncConfig(backend=args.backend, versions=args.versions, bucket_bytes=args.bucket_kib << 10,
                      payload=args.payload, rebuild_group=args.rebuild_group,
                      reader_delay_s=args.reader_delay_ms / 1000, drain_slots=not args.no_slot_drain,
                      corrupt=tuple(int(x) for x in args.corrupt.split(":")) if args.corrupt else ())


def main(argv=None) -> int:
    args = parse(argv)
    cfg = config(args)
    os.environ.setdefault("MC_LOG_LEVEL", "ERROR")
    if args.role == "both":
        report = run_local(cfg)
    else:
        host, port = args.store.rsplit(":", 1)
        store = connect(host if args.role == "rollout" else "0.0.0.0", int(port), master=args.role == "trainer")
        if args.role == "trainer":
            trainer(cfg, store, local_host())
            print("trainer: sent", cfg.versions, "versions")
            return 0
        report = rollout(cfg, store, local_host())
    print(report.summary())
    for line in report.mismatches[:20]:
        print("  " + line)
    if args.report:
        with open(args.report, "w") as handle:
            handle.write(report_json(report))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
