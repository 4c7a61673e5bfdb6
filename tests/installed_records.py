"""Print what a python environment holds, as JSON: run inside a container by tests/test_host_install.py.

    python3 installed_records.py SITE_PACKAGES

{dist: {"version", "record": {path: RECORD hash}, "disk": {path: sha256 of the file as it is now}}}
for every *.dist-info; bytecode is left out (RECORD lists it without a hash: it is written at install).
"""

import base64
import csv
import hashlib
import json
import sys
from pathlib import Path


def digest(path: Path) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(path.read_bytes()).digest()).rstrip(b"=").decode()


def main(site: str) -> None:
    site_packages = Path(site)
    out = {}
    for info in sorted(site_packages.glob("*.dist-info")):
        metadata = (info / "METADATA").read_text(errors="replace").splitlines()
        name = next(line.split(":", 1)[1].strip() for line in metadata if line.startswith("Name:"))
        version = next(line.split(":", 1)[1].strip() for line in metadata if line.startswith("Version:"))
        record, disk = {}, {}
        with open(info / "RECORD", newline="") as handle:
            for row in csv.reader(handle):
                if not row or row[0].endswith(".pyc") or "__pycache__" in row[0]:
                    continue
                record[row[0]] = row[1] if len(row) > 1 else ""
                path = (site_packages / row[0]).resolve()
                disk[row[0]] = digest(path) if path.is_file() else "missing"
        out[name.lower()] = {"version": version, "record": record, "disk": disk}
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
