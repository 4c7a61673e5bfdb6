"""Where things live in the repository."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PINS = REPO / "pins.yaml"
TEMPLATES_DIR = REPO / "templates"
IMAGES_DIR = REPO / "images"
README = REPO / "README.md"
PAYLOAD_DIR = REPO / "payload"
SMOKE_DIR = REPO / "smoke_tests"
PATCHES_DIR = REPO / "patches"
CACHE_DIR = REPO / ".cache"
ARTIFACTS_DIR = REPO / "artifacts"
