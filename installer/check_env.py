#!/usr/bin/env python3
"""Prove the image's ENV already holds what the base's set_env scripts export; never shipped.

    python3 check_env.py SCRIPT...

Launchers that bypass the entrypoint (a Kubernetes `command:`, `docker run --entrypoint`)
never source set_env.sh, so the image must not need it: sourcing every script must change
no variable. Each difference is printed as the ENV line pins.yaml's base `env` needs.
"""

import subprocess
import sys


def environment(script: str) -> dict:
    result = subprocess.run(["bash", "-c", f"{script} env -0"], capture_output=True, check=True)
    pairs = (item.split(b"=", 1) for item in result.stdout.split(b"\0") if b"=" in item)
    return {key.decode(): value.decode(errors="replace") for key, value in pairs}


def main(scripts) -> int:
    before = environment("")
    after = environment("".join(f"source {s} >/dev/null 2>&1; " for s in scripts))
    changed = sorted(key for key in after.keys() | before.keys()
                     if before.get(key) != after.get(key) and key not in ("SHLVL", "_", "OLDPWD", "PWD"))
    for key in changed:
        print(f"check_env: {key}: ENV has {before.get(key)!r}, set_env exports {after.get(key)!r}", file=sys.stderr)
    if changed:
        print(f"check_env: {len(changed)} variable(s) need the entrypoint: add them to the base's `env` in "
              f"pins.yaml", file=sys.stderr)
        return 1
    print(f"check_env: ENV already holds what {', '.join(scripts)} export", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
