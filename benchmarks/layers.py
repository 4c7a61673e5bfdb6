#!/usr/bin/env python3
"""What a weekly bump re-ships: build.py's tiered image vs the hand-written Dockerfile, same bumps.

    python benchmarks/layers.py [COMPONENT ...] [--hand-only | --ours-only] [--second-chain]
                                                                   (default: transformers verl)

For each component: bump it to the nearest other release of its line in a scratch copy (with
`build.py bump`, so the locks re-resolve), build the bumped image on top of the current one's layer
cache, and push before and after to a loopback registry (Debian's docker-registry): re-shipped bytes
are the compressed layers the registry did not have. The hand-written Dockerfile, rendered with the
same releases, gets the same treatment; --hand-only and --ours-only measure one side alone.
--second-chain first rebuilds the current image with no cache, so the engine's cache holds a second
chain of the same steps when the bumps build (a cache that held such a chain once made a verl bump
re-ship 94% of the image, when the layers were not yet byte-reproducible). Needs `make image` first (but
for --hand-only), the engine and PyPI.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "tests"))

import handwritten  # noqa: E402
from conftest import LoopbackRegistry, copy_repo  # noqa: E402
from image_pipeline import network  # noqa: E402
from image_pipeline.builder import engine, pipeline  # noqa: E402
from image_pipeline.manifest import document, load_manifest  # noqa: E402
from image_pipeline.publish import reship  # noqa: E402
from image_pipeline.review import patches  # noqa: E402
from test_layers import another_release  # noqa: E402

QUIET = {"log": lambda _: None}
SHARED_WITH = {"verl": ["verl-npu"]}  # pins the cpu-shares-npu-releases rule moves together


def bumped_copy(component, tmp: Path) -> tuple:
    comp = load_manifest(REPO / "pins.yaml").components[component]
    release = another_release(comp.dist, comp.version)
    root = copy_repo(tmp / f"bump-{component}")
    also = [arg for other in SHARED_WITH.get(component, []) for arg in ("--also", f"{other}={release}")]
    result = subprocess.run([sys.executable, str(REPO / "build.py"), "--root", str(root), "bump", component, release,
                             *also, "--reason", "benchmark", "--issue", "https://example.org/benchmark",
                             "--keep-text", "a benchmark, not a bump"],
                            capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"bump {component} {release} failed: {result.stderr.strip()}")
    retire_patches_that_no_longer_apply(root)
    return root, f"{comp.version} -> {release}"


def retire_patches_that_no_longer_apply(root: Path) -> None:
    """What the bump's PR would do with a patch whose upstream file the new release changed and whose bug
    it does not have (verl 0.9.0's process-group setup needs no cpu patch): drop it, and say so."""
    m = load_manifest(root / "pins.yaml")
    failing = [name for name, patch in m.patches.items() if not patches.applies(m, root, patch)]
    if not failing:
        return
    doc = document.load(root / "pins.yaml")
    _drop_from_patch_lists(doc.tree, set(failing))
    for name in failing:
        print(f"patch {name}: does not apply to the bumped release: dropped in the bumped copy")
        del doc.tree["patches"][name]
    (root / "pins.yaml").write_text(doc.dumps())
    subprocess.run([sys.executable, str(REPO / "build.py"), "--root", str(root), "render"], check=True,
                   capture_output=True)


def _drop_from_patch_lists(node, names: set) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "patches" and isinstance(value, list):
                value[:] = [item for item in value if item not in names]
            else:
                _drop_from_patch_lists(value, names)
    elif isinstance(node, list):
        for item in node:
            _drop_from_patch_lists(item, names)


def ours(api, root: Path, platform: str, no_cache: bool = False):
    """(image id, its candidate tag) of build.py's build of the default image in `root`."""
    m = load_manifest(root / "pins.yaml")
    profile = network.from_host()
    prepared = pipeline.prepare(api, m, m.default_image, platform, root, profile, cache=REPO / ".cache", **QUIET)
    built = pipeline.build_candidate(api, m, m.default_image, platform, root, profile, prepared, plain=True,
                                     cache=REPO / ".cache", no_cache=no_cache, **QUIET)
    return built, prepared.tags.candidate


def second_chain(api, platform: str) -> str:
    """A no-cache build of the current default image: its steps' second chain stays in the engine's cache."""
    rebuilt, candidate = ours(api, REPO, platform, no_cache=True)
    api.images.remove(candidate, noprune=True)
    return rebuilt


def hand(api, root: Path, platform: str, tag: str, tmp: Path) -> str:
    m = load_manifest(root / "pins.yaml")
    profile = network.from_host()
    context = handwritten.context(m, m.default_image, platform, root, profile, REPO / ".cache", tmp / tag)
    handwritten.build(context, f"bench:{tag}", platform, profile)
    return engine.image_id(api, f"bench:{tag}")


def main():
    components = [arg for arg in sys.argv[1:] if not arg.startswith("--")] or ["transformers", "verl"]
    with_ours, with_hand = "--hand-only" not in sys.argv, "--ours-only" not in sys.argv
    api = engine.client()
    platform = engine.host_platform()
    current = load_manifest(REPO / "pins.yaml")
    moving = f"{current.repository}:{current.default_image.name}-{platform.split('/')[1]}"
    if with_ours and engine.image_id(api, moving) is None:
        raise SystemExit(f"{moving} is not built: run `make image` first")
    if with_ours and "--second-chain" in sys.argv:
        second = second_chain(api, platform)
        print(f"second chain: a no-cache rebuild of {moving} gave {second} "
              f"({'the same image' if second == engine.image_id(api, moving) else 'a different image'})")
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        registry = LoopbackRegistry(tmp).start()
        try:
            if with_ours:
                base_ours = reship.pushed_layers(api, engine.image_id(api, moving), registry.address, "ours-before")
            if with_hand:
                base_hand = reship.pushed_layers(api, hand(api, REPO, platform, "hand-before", tmp), registry.address,
                                                 "hand-before")
            for component in components:
                root, change = bumped_copy(component, tmp)
                if with_ours:
                    after = reship.pushed_layers(api, ours(api, root, platform)[0], registry.address, f"ours-{component}")
                    rows.append((component, change, "build.py (tiers)", reship.compare(base_ours, after)))
                if with_hand:
                    after = reship.pushed_layers(api, hand(api, root, platform, f"hand-{component}", tmp),
                                                 registry.address, f"hand-{component}")
                    rows.append((component, change, "hand-written", reship.compare(base_hand, after)))
        finally:
            registry.stop()
            for tag in ["hand-before", *(f"hand-{component}" for component in components)]:  # the tags made here
                if engine.image_id(api, f"bench:{tag}"):
                    api.images.remove(f"bench:{tag}", noprune=True)
    print(f"image {current.default_image.name} on {platform}; bytes are compressed layer sizes as pushed\n")
    print("| bump | release | build | layers changed | re-shipped MB | image MB | share |")
    print("|---|---|---|---|---|---|---|")
    for component, change, build, r in rows:
        print(f"| {component} | {change} | {build} | {r.changed}/{r.layers} | {r.changed_bytes / 1e6:.0f} | "
              f"{r.total_bytes / 1e6:.0f} | {r.share:.1%} |")


if __name__ == "__main__":
    main()
