"""The one list of an image's build inputs, and the content hash (tag) made from it.

Both `build.py image` (is the tag already built?) and `build.py affected` (which images does
a change touch?) call build_inputs: the rendered Dockerfile and pins.json, the platform's
lock (whose sha256 of every locked file stands in for the files, so locally built bytes never
reach the hash), the trees shipped into or run in the build, the declared patches, and the
code that assembles the context. The content hash adds the base image's id, the platform
and the build args; no download is needed to compute it. Everything build.py writes into the image
(labels, config times, the SBOM) derives from these inputs alone, never from git or the clock: one
content tag names one image id, across clones and across commits that leave the inputs alone.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
from pathlib import Path

from ..lock import lockfile
from ..paths import INSTALLER, PAYLOAD, REPO, SMOKE

TREES = (INSTALLER, PAYLOAD, SMOKE)
# The build path: this module and everything of image_pipeline it imports, transitively, assemble the
# context and write the config, labels and SBOM around the built layers, so all of it is an input. Found
# from the imports themselves (assembly_code), not from a list a new module could be missing from.
BUILD_PATH = "image_pipeline.builder.pipeline"
PACKAGE = "image_pipeline"
IGNORED = ("__pycache__", ".pytest_cache", ".mypy_cache")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def tree_hash(root: Path, tree: str) -> str:
    digest = hashlib.sha256()
    for path in sorted((root / tree).rglob("*")):
        if path.is_file() and not any(part in IGNORED for part in path.parts) and path.suffix != ".pyc":
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def module_path(code_root: Path, module: str) -> Path | None:
    path = code_root / Path(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(code_root: Path, module: str, path: Path) -> set:
    """The modules of the package `module` (at `path`) imports, as dotted names."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.ImportFrom):
            parts = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(parts + ([node.module] if node.module else []))
            if target.split(".")[0] == PACKAGE:
                found.add(target)  # `from .x import y`: y may be a module of x too
                found.update(f"{target}.{alias.name}" for alias in node.names
                             if module_path(code_root, f"{target}.{alias.name}"))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE)
    return found


def assembly_code(code_root: Path) -> tuple:
    """The files of every module the build path imports (itself included), relative to code_root, sorted."""
    signature = tuple((p.as_posix(), p.stat().st_mtime_ns, p.stat().st_size)
                      for p in sorted((code_root / PACKAGE).rglob("*.py")))
    return _assembly_code(code_root, signature)


@functools.lru_cache(maxsize=8)
def _assembly_code(code_root: Path, signature: tuple) -> tuple:
    seen, pending = {}, [BUILD_PATH]
    while pending:
        module = pending.pop()
        path = module_path(code_root, module)
        if module in seen or path is None:
            continue
        seen[module] = path.relative_to(code_root).as_posix()
        pending.extend(_imports(code_root, module, path))
    return tuple(sorted(seen.values()))


def build_inputs(root: Path, image, platform: str, rendered: dict) -> dict:
    """name -> sha256 of everything that decides what the image holds, for one platform.

    rendered: {"Dockerfile": text, "pins.json": text} of the image (or of an alternative)."""
    from . import image_config

    # a tree holding the code (a checkout of another revision) is hashed with its own code
    code_root = root if module_path(root, BUILD_PATH) else REPO
    lock_path = lockfile.path_for(root, image.name, platform)
    inputs = {
        "Dockerfile": sha256_bytes(rendered["Dockerfile"].encode()),
        "pins.json": sha256_bytes(rendered["pins.json"].encode()),
        "lock": sha256_bytes(lock_path.read_bytes()) if lock_path.exists() else "missing",
        "platform": sha256_bytes(platform.encode()),
        # every label the config gets that is not itself a hash of these inputs (content, base, pins)
        "config": sha256_bytes(json.dumps(image_config.declared_labels(image, platform), sort_keys=True).encode()),
    }
    for tree in TREES:
        inputs[f"tree:{tree}"] = tree_hash(root, tree)
    for patch in image.patches:
        inputs[f"patch:{patch.name}"] = sha256_bytes((root / patch.diff).read_bytes())
    for module in assembly_code(code_root):
        inputs[f"code:{module}"] = sha256_bytes((code_root / module).read_bytes())
    return inputs


def tree_digest(inputs: dict) -> str:
    """The digest of what a tree holds of one image and platform (build_inputs: no base, no build args):
    an image carries it as a label, a smoke run records it, and a PR body counts a run as evidence of
    the tree it reviews only where the two agree (review/prbody.py)."""
    return sha256_bytes(json.dumps(inputs, sort_keys=True).encode())


def content_hash(inputs: dict, base_id: str, buildargs: dict) -> str:
    payload = json.dumps({"inputs": inputs, "base": base_id, "buildargs": buildargs}, sort_keys=True)
    return sha256_bytes(payload.encode())
