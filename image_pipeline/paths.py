"""Where things live in a checkout (every path is relative to a repository root)."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PINS = "pins.yaml"
TEMPLATES = "templates"
IMAGES = "images"
README = "README.md"
# The documents that hold generated blocks, in this order; each block lives in exactly one of them.
DOCUMENTS = (README, "docs/guide.md", "docs/reference.md")
PAYLOAD = "payload"
SMOKE = "smoke_tests"
PATCHES = "patches"
CACHE = ".cache"
ARTIFACTS = "artifacts"
INSTALLER = "installer"
RECORDS = "records"  # what runs in images measured, for docs/reference.md; not a build input
VERL_TESTS_RECORD = "records/verl_tests.json"
