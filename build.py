#!/usr/bin/env python3
"""Build, test and bump the verl Ascend images. See README.md, or `python build.py --help`."""

import sys

from image_pipeline.cli import main

if __name__ == "__main__":
    sys.exit(main())
