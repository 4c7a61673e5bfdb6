"""The command line that starts verl's SFT trainer for a training check, from training.json.

verl starts it with `torchrun --nproc_per_node N -m verl.trainer.sft_trainer KEY=VALUE...`;
so does this, with smoke_tests.observe in front of the entry module (it runs it unchanged and
names, per rank and step, the trainer and engine classes that did the step). The rendezvous is
static on the loopback: the smoke container has no network, so its hostname does not resolve
(torchrun --standalone would wait for it). Importing this needs no torch.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

SETTINGS_FILE = Path(__file__).with_name("training.json")
SETTINGS = json.loads(SETTINGS_FILE.read_text())
OBSERVER = "smoke_tests.observe"


@dataclass(frozen=True)
class Launch:
    argv: tuple
    env: dict  # added to the suite's environment
    overrides: tuple  # the Hydra overrides, also in argv

    def shell(self) -> str:
        """The command as one would type it (for the log)."""
        exports = " ".join(f"{key}={value}" for key, value in sorted(self.env.items()))
        return f"{exports} {' '.join(self.argv)}".strip()


def checks() -> list:
    return list(SETTINGS["checks"])


def overrides(check: str, device: str, scratch: Path, no_learn: bool = False) -> tuple:
    """Hydra overrides in the order they apply: every check's, the check's, the device's, a fault's."""
    if check not in SETTINGS["checks"]:
        raise KeyError(f"{check}: not a training check of {SETTINGS_FILE.name} ({', '.join(checks())})")
    if device not in SETTINGS["checks"][check]["engine_class"]:
        raise KeyError(f"{check}: {SETTINGS_FILE.name} names no engine class for device {device!r}")
    values = {"scratch": str(scratch), "device": device, "steps": SETTINGS["steps"], "check": check}
    listed = [*SETTINGS["overrides"], *SETTINGS["checks"][check]["overrides"], *SETTINGS["devices"][device]["overrides"],
              *(SETTINGS["faults"]["no-learn"] if no_learn else ())]
    return tuple(item.format(**values) for item in listed)


def command(check: str, device: str, scratch: Path, port: int, file_log: Path, no_learn: bool = False,
            python: str = sys.executable) -> Launch:
    hydra = overrides(check, device, scratch, no_learn)
    torchrun = str(Path(python).with_name("torchrun"))
    argv = (torchrun, "--nnodes=1", f"--nproc_per_node={SETTINGS['ranks']}", "--master_addr=127.0.0.1",
            f"--master_port={port}", "-m", OBSERVER, SETTINGS["entry"], *hydra)
    env = {"PYTHONUNBUFFERED": "1", "HYDRA_FULL_ERROR": "1", "VERL_FILE_LOGGER_PATH": str(file_log),
           **SETTINGS["devices"][device]["env"]}
    return Launch(argv, env, hydra)


def environment(launch: Launch) -> dict:
    return {**os.environ, **launch.env}
