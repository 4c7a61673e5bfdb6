"""The CLI surface: help on every command, list/show/validate, lint, engine-less errors, and the
build inputs that make the content tag."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from image_pipeline.builder import engine, inputs
from image_pipeline.cli import COMMANDS, _load_commands
from image_pipeline.errors import UserError
from image_pipeline.render import dockerfile

from conftest import REPO, edit, manifest, run_build

_load_commands()
M = manifest()


@pytest.mark.parametrize("name", [c[0] for c in COMMANDS])
def test_every_command_has_help(name):
    result = run_build(name, "--help")
    assert result.returncode == 0 and f"usage: build.py {name}" in result.stdout


def test_validate_list_and_show():
    assert run_build("validate").stdout.startswith("pins.yaml: ok (")
    listing = run_build("list").stdout.splitlines()
    assert listing[0].split() == ["IMAGE", "DEVICE", "PLATFORMS", "RUNNER", "TAG"]
    default = M.default_image
    assert any(line.startswith(f"{default.name} *") and f"{M.repository}:{default.human_tag}" in line for line in listing)
    shown = run_build("show", "npu-a3").stdout
    assert "torch_npu" in shown and f"env VERL_USE_EXTERNAL_MODULES={M.images['npu-a3'].env['VERL_USE_EXTERNAL_MODULES']!r}" in shown
    as_json = json.loads(run_build("show", "cpu", "--json").stdout)
    assert as_json == json.loads((REPO / "images/cpu/pins.json").read_text())
    unknown = run_build("show", "npu-a9")
    assert unknown.returncode == 2 and "unknown image 'npu-a9'" in unknown.stderr


def test_rendered_dockerfiles_pass_hadolint():
    result = run_build("lint")
    assert result.returncode == 0, result.stdout
    dockerfiles = len(list((REPO / "images").glob("*/Dockerfile*")))
    assert result.stdout.count("hadolint ") == result.stdout.count(": ok") - result.stdout.count("shellcheck ")
    assert result.stdout.count("hadolint ") == dockerfiles


def test_hadolint_config_gives_a_reason_for_every_ignored_rule():
    lines = (REPO / ".hadolint.yaml").read_text().splitlines()
    rules = [i for i, line in enumerate(lines) if line.strip().startswith(("- DL", "- SC"))]
    assert rules
    for index in rules:
        assert lines[index - 1].strip().startswith("# ") and len(lines[index - 1].strip()) > 12, lines[index]


def test_hadolint_fails_on_a_bad_dockerfile(repo_copy):
    path = repo_copy / "images/cpu/Dockerfile"
    path.write_text(path.read_text().replace("&& python3 -m venv", "&& sudo python3 -m venv"))
    result = run_build("lint", root=repo_copy)
    assert result.returncode == 1 and "images/cpu/Dockerfile: FAILED" in result.stdout and "DL3004" in result.stdout


def test_no_engine_is_one_line_that_says_how_to_get_one():
    env = dict(os.environ, DOCKER_HOST="unix:///nonexistent/docker.sock")
    failed = subprocess.run([sys.executable, str(REPO / "build.py"), "smoke", "cpu"], capture_output=True,
                            text=True, env=env)
    assert failed.returncode == 2
    assert failed.stderr.strip() == f"error: {engine.HOW_TO_GET_ONE}"


def _inputs(root, platform="linux/amd64"):
    from image_pipeline.manifest import load_manifest

    m = load_manifest(root / "pins.yaml")
    image = m.default_image
    rendered = dockerfile.render_image(dockerfile.environment(root / "templates"), m, image)
    return inputs.build_inputs(root, image, platform, rendered)


@pytest.fixture
def code_copy(repo_copy):
    (repo_copy / "image_pipeline").mkdir()
    for module in inputs.assembly_code(REPO):
        target = repo_copy / module
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((REPO / module).read_bytes())
    return repo_copy


@pytest.mark.parametrize("kind,change", [
    ("Dockerfile", lambda r: edit(r / "templates/Dockerfile.j2", "WORKDIR /workspace", "WORKDIR /work")),
    ("Dockerfile+pins.json", lambda r: edit(r / "pins.yaml", "      VERL_USE_EXTERNAL_MODULES: verl_cpu_platform",
                                 "      VERL_USE_EXTERNAL_MODULES: verl_cpu_platform,json")),
    ("lock", lambda r: edit(r / "images/cpu/pylock.linux-amd64.toml", "\n[[packages]]", "\n\n[[packages]]")),
    ("tree:installer", lambda r: edit(r / "installer/install_tier.py", "import json", "import json  # x")),
    ("tree:payload", lambda r: edit(r / "payload/bin/entrypoint", "exec", "exec ")),
    ("tree:smoke_tests", lambda r: edit(r / "smoke_tests/train.py", "LOSS_KEEP = ", "LOSS_KEEP  = ")),
    ("patch:mbridge-dequant-device", lambda r: edit(r / "patches/mbridge-dequant-device.diff", "\n", "\n\n")),
    ("code:image_pipeline/builder/context.py", lambda r: edit(r / "image_pipeline/builder/context.py", "import json",
                                                           "import json  # x")),
    ("code:image_pipeline/builder/image_config.py", lambda r: edit(r / "image_pipeline/builder/image_config.py",
                                                                "import json", "import json  # x")),
    ("code:image_pipeline/builder/sbom.py", lambda r: edit(r / "image_pipeline/builder/sbom.py", "import uuid",
                                                        "import uuid  # x")),
    ("code:image_pipeline/builder/pipeline.py", lambda r: edit(r / "image_pipeline/builder/pipeline.py",
                                                            "import fcntl", "import fcntl  # x")),
])
def test_every_kind_of_build_input_changes_the_content_hash(code_copy, kind, change):
    before = _inputs(code_copy)
    change(code_copy)
    after = _inputs(code_copy)
    assert sorted(k for k in after if after[k] != before[k]) == sorted(kind.split("+"))
    assert inputs.content_hash(after, "base", {}) != inputs.content_hash(before, "base", {})


def test_a_module_added_to_the_build_path_changes_the_content_hash(code_copy):
    """Nothing lists the build path's modules: one imported from it for the first time is an input at once."""
    before = _inputs(code_copy)
    (code_copy / "image_pipeline/builder/labels_extra.py").write_text("EXTRA = {}\n")
    edit(code_copy / "image_pipeline/builder/image_config.py", "from . import engine\n",
         "from . import engine, labels_extra  # noqa: F401\n")
    after = _inputs(code_copy)
    assert sorted(k for k in after if after.get(k) != before.get(k)) == [
        "code:image_pipeline/builder/image_config.py", "code:image_pipeline/builder/labels_extra.py"]
    (code_copy / "image_pipeline/builder/labels_extra.py").write_text("EXTRA = {'a': 'b'}\n")
    assert _inputs(code_copy)["code:image_pipeline/builder/labels_extra.py"] != after[
        "code:image_pipeline/builder/labels_extra.py"]


def test_the_build_path_is_what_the_pipeline_imports():
    found = set(inputs.assembly_code(REPO))
    assert {"image_pipeline/builder/pipeline.py", "image_pipeline/builder/image_config.py",
            "image_pipeline/builder/sbom.py", "image_pipeline/builder/context.py",
            "image_pipeline/render/install_plan.py"} <= found
    assert not any(path.startswith(("image_pipeline/cli/", "image_pipeline/review/", "image_pipeline/publish/"))
                   for path in found)


def test_the_content_hash_covers_base_platform_and_build_args(code_copy):
    found = _inputs(code_copy)
    assert _inputs(code_copy, "linux/arm64") != found  # another platform, another lock
    one = inputs.content_hash(found, "sha256:a", {})
    assert one == inputs.content_hash(found, "sha256:a", {})
    assert one != inputs.content_hash(found, "sha256:b", {})
    assert one != inputs.content_hash(found, "sha256:a", {"APT_MIRROR": "http://m/debian"})


def test_no_module_imports_the_command_line_layer_and_imports_form_no_circle():
    """manifest -> lock -> host -> render -> builder -> smoke -> publish -> review -> cli, nothing upwards."""
    order = ["errors", "paths", "tables", "files", "network", "manifest", "lock", "host", "render", "builder",
             "smoke", "publish", "review", "cli"]
    package = REPO / "image_pipeline"
    for path in package.rglob("*.py"):
        layer = path.relative_to(package).parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                parts = Path(path.relative_to(package)).parts
                base = list(parts[:-1])[:len(parts) - 1 - (node.level - 1)] if node.level > 1 else list(parts[:-1])
                target = (base + (node.module.split(".") if node.module else []))
                target_layer = target[0].removesuffix(".py") if target else layer
                if target_layer in order and layer in order:
                    assert order.index(target_layer) <= order.index(layer), f"{path}: imports {'.'.join(target)}"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert not any(n.startswith("smoke_tests") for n in names), f"{path} imports the in-image suite"


def test_image_wait_waits_for_the_pipeline_lock_instead_of_refusing(tmp_path):
    """`make test` relies on it: its background arm64 build and the tests that need that image queue on
    one lock, so whichever comes second finds the content tag and builds nothing."""
    import threading

    from image_pipeline.builder import pipeline

    acquired = threading.Event()

    def second():
        with pipeline.image_lock("cpu", "linux/arm64", tmp_path, wait=True):
            acquired.set()

    with pipeline.image_lock("cpu", "linux/arm64", tmp_path):
        waiter = threading.Thread(target=second)
        waiter.start()
        assert not acquired.wait(0.5)
    assert acquired.wait(10)
    waiter.join()


def test_the_pipeline_lock_is_reentrant_in_the_thread_that_holds_it_only(tmp_path):
    """A pipeline holds it while build_candidate takes it again; another pipeline (a thread here) is refused."""
    import threading

    from image_pipeline.builder import pipeline

    refused = []

    def other():
        try:
            with pipeline.image_lock("cpu", "linux/arm64", tmp_path):
                pass
        except UserError as exc:
            refused.append(str(exc))

    with pipeline.image_lock("cpu", "linux/arm64", tmp_path):
        with pipeline.image_lock("cpu", "linux/arm64", tmp_path / "."):
            thread = threading.Thread(target=other)
            thread.start()
            thread.join(10)
        assert refused and "another pipeline for 'cpu'" in refused[0]
    with pipeline.image_lock("cpu", "linux/arm64", tmp_path):  # released by the outer hold only
        pass


def test_build_candidate_holds_its_images_pipeline_lock_while_it_fills_the_build_context(monkeypatch, tmp_path):
    """The cache keeps one build context per image and platform, emptied by every build (builder/context.py):
    a caller without the lock (a benchmark, a test) must not build from another pipeline's files."""
    import contextlib

    from image_pipeline.builder import pipeline, wheelhouse

    events = []

    @contextlib.contextmanager
    def recording_lock(name, platform, cache, wait=False):
        events.append(("lock", name, platform, cache, wait))
        try:
            yield
        finally:
            events.append(("unlock",))

    def fetch(*args, **kwargs):
        events.append(("fetch",))
        raise UserError("stop here")

    monkeypatch.setattr(pipeline, "image_lock", recording_lock)
    monkeypatch.setattr(pipeline, "tree_inputs_of", lambda *args: "")
    monkeypatch.setattr(wheelhouse, "fetch", fetch)
    m = manifest()
    prepared = pipeline.Prepared({}, "0" * 64, "sha256:base", None)
    with pytest.raises(UserError, match="stop here"):
        pipeline.build_candidate(None, m, m.default_image, "linux/arm64", REPO, None, prepared, cache=tmp_path)
    assert events == [("lock", m.default_image.name, "linux/arm64", tmp_path, True), ("fetch",), ("unlock",)]


def test_the_image_command_passes_wait_to_the_pipeline(monkeypatch):
    from image_pipeline.builder import pipeline
    from image_pipeline.cli import main

    seen = {}

    def fake_run(*args, **kwargs):
        seen.update(kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(engine, "client", lambda: None)
    monkeypatch.setattr(pipeline, "run", fake_run)
    with pytest.raises(SystemExit):
        main(["image", "cpu", "--platform", "linux/arm64", "--wait"])
    assert seen["wait"] is True
    with pytest.raises(SystemExit):
        main(["image", "cpu", "--platform", "linux/arm64"])
    assert seen["wait"] is False


@pytest.mark.parametrize("flags, waits", [(["--wait"], True), ([], False)])
def test_reproduce_waits_for_the_pipeline_lock_only_when_asked(monkeypatch, flags, waits):
    """make test's workers run `reproduce` beside pipelines of the same image: it queues with --wait."""
    from image_pipeline.builder import pipeline
    from image_pipeline.cli import main

    seen = {}

    def fake_lock(name, platform, cache, wait=False):
        seen["wait"] = wait
        raise SystemExit(0)

    monkeypatch.setattr(engine, "client", lambda: None)
    monkeypatch.setattr(pipeline, "image_lock", fake_lock)
    with pytest.raises(SystemExit):
        main(["reproduce", "cpu", "--platform", "linux/arm64", *flags])
    assert seen["wait"] is waits


def _package_imports(package: str) -> dict:
    """module -> modules of the same package it imports anywhere (function-level imports included)."""
    import ast

    graph = {}
    for path in sorted((REPO / package).rglob("*.py")):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        base = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                parts = base.split(".")[:len(base.split(".")) - node.level + 1] if node.level else []
                target = ".".join(parts + ([node.module] if node.module else []))
                names = [f"{target}.{a.name}" for a in node.names]
                found.update(n for n in [target, *names] if n.split(".")[0] == package)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.split(".")[0] == package)
        graph[module] = found
    return graph


@pytest.mark.parametrize("package", ["image_pipeline", "smoke_tests"])
def test_no_import_circle_in_the_package(package):
    graph = _package_imports(package)
    modules = set(graph)
    edges = {m: {t for t in targets if t in modules and t != m and not m.startswith(t + ".")}
             for m, targets in graph.items()}

    def cycle_from(start):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in edges[node]:
                if nxt == start:
                    return path + [start]
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
        return None
    circles = [c for c in map(cycle_from, sorted(modules)) if c]
    assert not circles, " -> ".join(circles[0])
