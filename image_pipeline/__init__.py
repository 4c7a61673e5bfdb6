"""The verl Ascend image pipeline: pins.yaml -> lock/render -> build -> smoke -> publish.

Subpackages are layers; each imports only the ones before it:
  manifest  load, validate and model pins.yaml (schema, rules)
  lock      resolve every image's Python stack per platform with uv; read the locks
  render    Dockerfiles, pins.json and the generated tables of README.md and docs/
  build     Docker Engine, bases, wheelhouse, build context, content hash, candidate -> promote
  smoke     run the in-image smoke suite from the host and judge it
  publish   push per-architecture images by digest, write image indexes, move tags
  review    what a change does: bump, affected images, pin policy, PR body, outdated pins
  cli       `python build.py ...` on top of all of them
"""
