"""The safe pattern for runtime (monkey) patches of upstream Python code.

  1. fingerprint the target's source before replacing it: an upstream that changed raises
     UnknownUpstream instead of being patched blindly;
  2. mark the replacement, so applying the patch again (a second import) is a no-op;
  3. spawned children start from fresh imports and would run unpatched code: start them with
     `spawn()`, whose child entry point applies every registered patch before the target runs.

A patch is an idempotent function `apply()` in an importable module, registered by its
"module:function" name.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import textwrap

MARK = "__verl_image_patch__"
REGISTERED: list = []


class UnknownUpstream(RuntimeError):
    pass


def fingerprint(obj) -> str:
    return hashlib.sha256(textwrap.dedent(inspect.getsource(obj)).encode()).hexdigest()


def replace(owner, name: str, replacement, *, expect_sha256: str, patch_id: str):
    """Replace owner.name with replacement if (and only if) upstream is the expected code."""
    current = getattr(owner, name)
    if getattr(current, MARK, None) == patch_id:
        return current
    found = fingerprint(current)
    if found != expect_sha256:
        raise UnknownUpstream(f"{getattr(owner, '__name__', owner)}.{name}: upstream source sha256 {found}, "
                              f"patch {patch_id} was made for {expect_sha256}; re-derive the patch")
    setattr(replacement, MARK, patch_id)
    replacement.__wrapped__ = current
    setattr(owner, name, replacement)
    return replacement


def register(apply_path: str) -> None:
    """Remember a patch ("module:function") so that spawned children apply it too."""
    if apply_path not in REGISTERED:
        REGISTERED.append(apply_path)


def apply_registered(paths) -> None:
    for path in paths:
        module, _, function = path.partition(":")
        getattr(importlib.import_module(module), function)()


def _child_entry(patches, target, args, kwargs):
    apply_registered(patches)
    return target(*args, **kwargs)


def spawn(context, target, args=(), kwargs=None, patches=None):
    """A multiprocessing Process (from `context`) whose child applies the patches first."""
    return context.Process(target=_child_entry,
                           args=(list(REGISTERED if patches is None else patches), target, tuple(args), kwargs or {}))
