"""pins.yaml: read (ruamel.yaml), shape-checked (JSON Schema), modelled, and rule-checked."""

from .load import build_manifest, load_manifest
from .model import Component, Image, Manifest, Patch, Tier

__all__ = ["build_manifest", "load_manifest", "Component", "Image", "Manifest", "Patch", "Tier"]
