#!/usr/bin/env python3
"""Apply the image's declared patches: python apply_patches.py DIR [--markers DIR].

DIR holds patches.json and the diffs. Run by the image build with the image's python;
markers go to <sys.prefix>/verl-image-patches/ unless --markers says otherwise. A
fingerprint mismatch fails the build with one line naming the file and both sha256s.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from verl_image.patching import PatchError, apply, locate  # noqa: E402



def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--markers", type=Path, default=Path(sys.prefix) / "verl-image-patches")
    args = parser.parse_args(argv)
    root = args.directory
    for patch in json.loads((root / "patches.json").read_text()):
        try:
            path = locate(patch["package"], patch["file"])
            state = apply(patch["name"], path, patch["sha256"], (root / patch["diff"]).read_text(), args.markers)
        except PatchError as exc:
            print(f"apply_patches: {exc}", file=sys.stderr)
            return 1
        notes = {"applied": "applied", "already": "already applied (no-op)",
                 "obsolete": "upstream already contains the fix: skipped; the patch is obsolete, remove it"}
        print(f"apply_patches: {patch['name']} on {patch['package']}/{patch['file']}: {notes[state]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
