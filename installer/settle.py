#!/usr/bin/env python3
"""End every image RUN step with the same bytes on every build; never shipped.

    python3 settle.py BEFORE [ROOT [COMPILED]]
    python3 settle.py --compile

BEFORE: a file the step wrote first (on the step's tmpfs /tmp), listing every path under RESIDUE_DIRS
then (`find /var /root -xdev`: a walk of the whole tree costs seconds under QEMU, and the first step
runs before python3 is installed). Everything the step wrote is newer than BEFORE. settle:
  1. removes run-time residue package managers leave (logs, caches, backup copies of their state)
     that the step created, and empties the residue files that were there before it (deleting those
     would leave a whiteout in the layer, and the engine stamps whiteouts with the wall clock);
  2. compiles every new .py file to a hash-checked .pyc (a timestamp .pyc records the time pip wrote
     its source; a hash-checked one records the source's hash, and Python still checks it at import);
  3. sets the time of every file, directory and link the step wrote to SOURCE_DATE_EPOCH.
Files a package brings with a time of its own (dpkg keeps the .deb's) are left as they came.
Mount points (/proc, /sys, /dev, the step's tmpfs and bind mounts) are not walked. ROOT (default /)
is the tree to settle: the tests settle a scratch tree. COMPILED: a file listing sources (one a line)
`settle.py --compile` compiled during the step, which step 2 does not compile again.

--compile: compiles each source path read from stdin as step 2 does, answering `ok` or `skip` (not Python
this interpreter reads) a line. cross_install.py has pip's compile step use it: in a process that imported
pip, a code object can marshal to other bytes (a shared constant's reference count decides whether marshal
writes it as a reference), so pip's own .pyc were written twice, once by pip and once again here.
"""

import glob
import importlib.util
import os
import py_compile
import shutil
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

RESIDUE = ("/var/log/dpkg.log", "/var/log/alternatives.log", "/var/log/apt/*", "/var/log/bootstrap.log",
           "/var/cache/ldconfig/aux-cache", "/var/cache/apt/*.bin", "/var/cache/apt/archives/*.deb",
           "/var/lib/apt/lists/*", "/var/lib/dpkg/*-old", "/var/cache/debconf/*-old", "/root/.cache",
           "/root/.wget-hsts")


RESIDUE_DIRS = ("/var", "/root")  # every RESIDUE path is under one of them


def residue(root: str) -> list:
    return sorted(path for pattern in RESIDUE for path in glob.glob(os.path.join(root, pattern.lstrip("/"))))


def written_since(root: str, start: float):
    """Every path the step wrote (mtime at or after start), the root file system only. find walks the
    tree (under QEMU, a Python walk of a full image took 38 s a step, find 3 s); the mount points it
    lists (another device: /proc, the step's tmpfs and bind mounts) are dropped, and Python keeps the
    exact comparison (find's -newermt is strict and in seconds)."""
    listing = subprocess.run(["find", root, "-xdev", "-newermt", f"@{int(start) - 1}", "-print0"],
                             capture_output=True, check=True).stdout
    paths = [path for path in listing.decode("utf-8", "surrogateescape").split("\0") if path]
    return newer(paths, start, os.lstat(root).st_dev)


def remove_residue(root: str, before: set) -> None:
    for path in residue(root):
        is_dir = os.path.isdir(path) and not os.path.islink(path)
        if path in before:
            if not is_dir and os.path.isfile(path) and os.path.getsize(path):
                os.truncate(path, 0)
        elif is_dir:
            shutil.rmtree(path)
        else:
            os.remove(path)


def compile_hash_checked(path: str) -> bool:
    try:
        py_compile.compile(path, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    except (py_compile.PyCompileError, SyntaxError, ValueError):
        return False  # not Python this interpreter reads (a template, another version's code): pip skips it too
    return True


def serve_compiles(requests, answers) -> None:
    for line in requests:
        answers.write("ok\n" if compile_hash_checked(line.rstrip("\n")) else "skip\n")
        answers.flush()


def compiled_paths(sources: list) -> set:
    """What compiling the sources wrote: each .pyc, its __pycache__ and the directory holding that."""
    out = set()
    for source in sources:
        pyc = importlib.util.cache_from_source(source)
        out.update((pyc, os.path.dirname(pyc), os.path.dirname(source)))
    return out


def newer(paths, start: float, device: int) -> list:
    out = []
    for path in paths:
        try:
            stat = os.lstat(path)
        except FileNotFoundError:
            continue
        if stat.st_dev == device and stat.st_mtime >= start:
            out.append(path)
    return out


def main() -> None:
    if sys.argv[1:] == ["--compile"]:
        return serve_compiles(sys.stdin, sys.stdout)
    start = os.lstat(sys.argv[1]).st_mtime
    root = sys.argv[2] if len(sys.argv) > 2 else "/"
    compiled = set(open(sys.argv[3]).read().splitlines()) if len(sys.argv) > 3 else set()
    with open(sys.argv[1]) as listing:
        before = set(listing.read().splitlines())
    epoch = int(os.environ["SOURCE_DATE_EPOCH"])
    remove_residue(root, before)
    written = set(written_since(root, start))  # one walk: under QEMU each costs seconds a step
    sources = sorted(p for p in written if p.endswith(".py") and os.path.isfile(p) and not os.path.islink(p))
    uncompiled = [source for source in sources if source not in compiled]
    with ProcessPoolExecutor() as pool:
        list(pool.map(compile_hash_checked, uncompiled, chunksize=64))
    written |= set(newer(compiled_paths(sources), start, os.lstat(root).st_dev))
    for path in sorted(written, reverse=True):  # children before their directories
        os.utime(path, (epoch, epoch), follow_symlinks=False)
    print(f"settle: {len(uncompiled)} sources compiled ({len(sources) - len(uncompiled)} already by settle.py "
          f"--compile), {len(written)} paths set to {epoch}", flush=True)


if __name__ == "__main__":
    main()
