"""How a container reaches the host's Ascend NPUs: the device nodes and the driver paths `docker run`
needs. One description serves the smoke runner (smoke/runner.py), `build.py run` and the guide's
generated `docker run` line, so what a user types is what the smoke suite ran with.
"""

from __future__ import annotations

import glob
import os
import shlex
from dataclasses import dataclass

NPU_DEVICES = ("/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc")
# HCCL reads topology files anywhere under the driver directory: mount all of it, read-only.
# /etc/hccn.conf: the NPUs' RoCE addresses, which HCCL and Mooncake's ascend_direct transport read.
NPU_MOUNTS = ("/usr/local/Ascend/driver", "/usr/local/dcmi", "/usr/local/bin/npu-smi", "/etc/ascend_install.info",
              "/etc/hccn.conf")
HCCN_CONF = "/etc/hccn.conf"
SHM_SIZE = "2g"  # torch's shared-memory tensors (DataLoader workers, gloo) outgrow Docker's 64 MB default


@dataclass(frozen=True)
class NpuPassthrough:
    devices: tuple
    mounts: tuple

    @property
    def present(self) -> bool:
        return any(_numbered(d) for d in self.devices)


def _numbered(device: str) -> bool:
    return "davinci" in device and device[-1].isdigit()


def detect_npu(root: str = "/", exists=os.path.exists) -> NpuPassthrough:
    """Ascend device nodes and driver paths of this host (read under root), as `docker run` needs them."""
    root = root.rstrip("/")
    numbered = sorted(glob.glob(f"{root}/dev/davinci[0-9]*"), key=lambda p: int(p.rsplit("davinci", 1)[1]))
    if not numbered:
        return NpuPassthrough((), ())
    devices = [p.removeprefix(root) for p in numbered] + [d for d in NPU_DEVICES if exists(root + d)]
    return NpuPassthrough(tuple(devices), tuple(m for m in NPU_MOUNTS if exists(root + m)))


def node(npus: int) -> NpuPassthrough:
    """What a whole node of `npus` NPUs passes through when every driver path is installed: the
    documented line of an image whose host is not this one."""
    return NpuPassthrough(tuple(f"/dev/davinci{i}" for i in range(npus)) + NPU_DEVICES, NPU_MOUNTS)


def container_options(npu: NpuPassthrough) -> dict:
    """The docker SDK's `containers.run` keywords that give a container the NPUs (none: nothing)."""
    return {"devices": [f"{d}:{d}:rwm" for d in npu.devices],
            "volumes": {m: {"bind": m, "mode": "ro"} for m in npu.mounts},
            "shm_size": SHM_SIZE}


def docker_run_words(reference: str, options: dict, command=(), *, interactive=True, platform="") -> list:
    """`docker run` with exactly these container_options, as argv. The reference is checked by the caller
    (grammar.image_reference); after it docker reads no option, so the command is passed as it is."""
    words = ["docker", "run", "--rm", "-i"] + (["-t"] if interactive else []) + [f"--shm-size={options['shm_size']}"]
    words += [f"--platform={platform}"] if platform else []
    words += [f"--device={device.split(':', 1)[0]}" for device in options["devices"]]
    words += [f"--volume={source}:{bind['bind']}:{bind['mode']}" for source, bind in options["volumes"].items()]
    return words + [reference, *command]


def shell_line(words: list) -> str:
    """The words as one shell command, an option per line (`docker run --rm -i ...` first)."""
    quoted = [shlex.quote(word) for word in words]
    head = next(i for i, w in enumerate(words) if w.startswith("--shm-size"))
    options = [i for i, w in enumerate(words) if i > head and w.startswith("--")]
    last = options[-1] if options else head
    lines = [" ".join(quoted[:head + 1])] + [quoted[i] for i in range(head + 1, last + 1)] + [" ".join(quoted[last + 1:])]
    return " \\\n    ".join(lines)
