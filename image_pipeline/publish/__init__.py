"""Push promoted per-architecture images by digest, write one image index per tag, move tags."""
