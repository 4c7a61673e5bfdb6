#!/usr/bin/env python3
"""Prove the image's ENV already holds what the base's set_env scripts export; never shipped.

    python3 check_env.py SCRIPT...

Launchers that bypass the entrypoint (a Kubernetes `command:`, `docker run --entrypoint`)
never source set_env.sh, so the image must not need it: sourcing every script must change
no variable. Each difference is printed as the ENV line pins.yaml's base `env` needs. A path
list is compared by its entries in lookup order: CANN's scripts prepend their directories
whether or not they are there already, which changes nothing a lookup finds.
A script that is missing, or that exports nothing when sourced into an empty environment,
fails the check: sourcing it would change nothing, and the check would prove nothing.
"""

import os
import subprocess
import sys

IGNORED = ("SHLVL", "_", "OLDPWD", "PWD")


def environment(script: str, clean: bool = False) -> dict:
    prefix = ["env", "-i"] if clean else []
    result = subprocess.run([*prefix, "bash", "--noprofile", "--norc", "-c", f"{script} env -0"],
                            capture_output=True, check=True)
    pairs = (item.split(b"=", 1) for item in result.stdout.split(b"\0") if b"=" in item)
    return {key.decode(): value.decode(errors="replace") for key, value in pairs if key.decode() not in IGNORED}


def lookup_order(value):
    """a:b:a -> (a, b): the entries of a path list as a lookup sees them."""
    return tuple(dict.fromkeys(value.split(":"))) if value is not None else None


def sourced(scripts) -> str:
    return "".join(f"source {s} >/dev/null 2>&1; " for s in scripts)


def unusable(scripts) -> list:
    """Scripts that cannot prove anything: absent, or exporting nothing into an empty environment."""
    problems = [f"{s} does not exist in the base (pins.yaml's env_scripts names it)"
                for s in scripts if not os.path.isfile(s)]
    if problems:
        return problems
    empty = environment("", clean=True)
    return [f"{s} exports nothing when sourced into an empty environment" for s in scripts
            if environment(sourced([s]), clean=True) == empty]


def main(scripts) -> int:
    problems = unusable(scripts) if scripts else ["no set_env script named"]
    for problem in problems:
        print(f"check_env: {problem}", file=sys.stderr)
    if problems:
        return 1
    before = environment("")
    after = environment(sourced(scripts))
    changed = sorted(key for key in after.keys() | before.keys()
                     if lookup_order(before.get(key)) != lookup_order(after.get(key)))
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
