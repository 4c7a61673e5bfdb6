"""python -m smoke_tests.observe MODULE ARGS...: run MODULE as `python -m MODULE ARGS...` would, and
print one line per training step naming the verl classes that did it, on this rank:

  verl-observe rank=0 step=3 trainer=SFTTrainer worker=TrainingWorker engine=FSDPEngineWithLMHead
      calls=train_batch,forward_backward_batch,optimizer_step seconds=0.0412

It only watches (a profile hook, as a debugger would): verl's code runs unchanged. A step is one
return of verl's TrainingWorker.train_batch; `calls` are the engine methods that ran inside it;
`seconds` is its wall time on this rank.
"""

from __future__ import annotations

import importlib
import os
import runpy
import sys
import time
import warnings

PREFIX = "verl-observe"
TRAINER = ("fit", os.sep + os.path.join("verl", "trainer", "sft_trainer.py"))
WORKER = ("train_batch", os.sep + os.path.join("verl", "workers", "engine_workers.py"))
ENGINE_DIR = os.sep + os.path.join("verl", "workers", "engine") + os.sep
ENGINE_CALLS = ("train_batch", "forward_backward_batch", "optimizer_step")
NAMES = frozenset((TRAINER[0], WORKER[0], *ENGINE_CALLS))


class Observer:
    def __init__(self, rank: str, out=None):
        self.rank = rank
        self.out = out or sys.stdout
        self.trainer = "?"
        self.step = 0
        self.step_started = None
        self.worker = "?"
        self.calls = []

    def __call__(self, frame, event, arg):
        if event != "call" and event != "return":
            return
        code = frame.f_code
        if code.co_name not in NAMES:
            return
        path = code.co_filename
        if code.co_name == TRAINER[0] and path.endswith(TRAINER[1]) and event == "call":
            self.on_fit(frame.f_locals.get("self"))
        elif code.co_name == WORKER[0] and path.endswith(WORKER[1]):
            self.on_worker(event, frame.f_locals.get("self"))
        elif ENGINE_DIR in path and self.step_started is not None and event == "call":
            self.calls.append((type(frame.f_locals.get("self")).__name__, code.co_name))

    def on_fit(self, trainer) -> None:
        self.trainer = type(trainer).__name__
        engine = type(getattr(trainer, "engine", None)).__name__
        self.emit(f"trainer={self.trainer} engine={engine} fit starts")

    def on_worker(self, event: str, worker) -> None:
        if event == "call":
            self.worker, self.calls, self.step_started = type(worker).__name__, [], time.perf_counter()
            return
        seconds = time.perf_counter() - self.step_started
        self.step, self.step_started = self.step + 1, None
        engines = sorted({owner for owner, _ in self.calls}) or ["none"]
        calls = ",".join(dict.fromkeys(name for _, name in self.calls)) or "none"
        self.emit(f"step={self.step} trainer={self.trainer} worker={self.worker} engine={'+'.join(engines)} "
                  f"calls={calls} seconds={seconds:.4f}")

    def emit(self, text: str) -> None:
        self.out.write(f"{PREFIX} rank={self.rank} {text}\n")
        self.out.flush()


def main(argv: list) -> None:
    if not argv:
        raise SystemExit("usage: python -m smoke_tests.observe MODULE [ARGS...]")
    module, *args = argv
    observer = Observer(os.environ.get("RANK", "?"))
    sys.argv = [module, *args]
    warnings.filterwarnings("ignore", message=".*found in sys.modules after import of package", category=RuntimeWarning)
    try:
        importlib.import_module(module)  # its imports happen once, unobserved (they are not steps)
        sys.setprofile(observer)
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        sys.setprofile(None)
        observer.emit(f"done steps={observer.step}")


if __name__ == "__main__":
    main(sys.argv[1:])
