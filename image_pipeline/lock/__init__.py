"""Every image's complete Python stack, resolved per platform by uv into committed locks.

  request    what pins.yaml asks the resolver for (pure: its fingerprint marks a lock stale)
  resolve    uv runs and their results as a LockFile
  lockfile   images/<name>/pylock.<os>-<arch>.toml (PEP 751 plus our per-package tiers)
  artifacts  fetching pinned files by sha256 (mirrors first)
  metadata   a wheel's Requires-Dist without downloading the wheel
  check      offline: stale locks, and pins the locked packages' requirements reject
"""
