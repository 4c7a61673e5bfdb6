"""Rendering: the drift gate, what the templates must encode (layers, no wheels in layers, the CANN
environment check, alternatives), atomicity. Expected values come from pins.yaml."""

import dataclasses
import json
import re
import subprocess

from image_pipeline.lock import lockfile
from image_pipeline.render import dockerfile, install_plan, layers
from image_pipeline.cli import readme_blocks
from image_pipeline.render import tree
from image_pipeline.manifest import rules
from image_pipeline.paths import DOCUMENTS

from conftest import REPO, edit, manifest, run_build, tree_snapshot

M = manifest()


def _lines(name, file="Dockerfile"):
    return (REPO / "images" / name / file).read_text().splitlines()


def _index(lines, needle):
    hits = [i for i, line in enumerate(lines) if needle in line]
    assert hits, f"{needle!r} not in Dockerfile"
    return hits[0]


def test_committed_images_and_locks_are_the_fresh_render():
    result = run_build("render", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_render_is_deterministic():
    assert tree.render_all(M, REPO, readme_blocks()) == tree.render_all(manifest(), REPO, readme_blocks())


def test_hand_edit_of_a_rendered_dockerfile_fails_the_gate_with_a_diff(repo_copy):
    edit(repo_copy / "images/npu-a3/Dockerfile", "python3 /tmp/verify.py", "python3 /tmp/verify.py || true")
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1
    assert "--- a/images/npu-a3/Dockerfile" in result.stdout and "+++ b/images/npu-a3/Dockerfile (fresh render)" in result.stdout
    assert "- && python3 /tmp/verify.py || true" in result.stdout


def test_stale_and_extra_files_fail_the_gate_and_render_removes_stale_dirs(repo_copy):
    (repo_copy / "images/npu-a9").mkdir()
    (repo_copy / "images/npu-a9/Dockerfile").write_text("FROM scratch\n")
    (repo_copy / "images/cpu/notes.txt").write_text("hand-written\n")
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1
    assert "images/npu-a9/: stale image directory" in result.stdout
    assert "images/cpu/notes.txt: not generated" in result.stdout
    run_build("render", root=repo_copy, check=True)
    assert not (repo_copy / "images/npu-a9").exists()


def test_readme_tables_are_generated_and_checked(repo_copy):
    readme = repo_copy / "README.md"
    edit(readme, "| `cpu` (default) |", "| `cpu-typed-by-hand` |")
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1 and "README.md" in result.stdout
    run_build("render", root=repo_copy, check=True)
    assert "| `cpu` (default) |" in readme.read_text()


def test_a_table_edited_by_hand_in_the_reference_fails_the_drift_gate_and_render_restores_it(repo_copy):
    reference = repo_copy / "docs/reference.md"
    fresh = reference.read_text()
    rule = rules.describe()[0][0]
    edit(reference, f"| `{rule}` |", f"| `{rule}-typed-by-hand` |")
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1 and "docs/reference.md" in result.stdout
    run_build("render", root=repo_copy, check=True)
    assert reference.read_text() == fresh


def _cut_block(text: str, name: str) -> tuple:
    """(text without the block `name`, the block with its markers)."""
    start = text.index(f"<!-- BEGIN GENERATED: {name} ")
    end = text.index(f"<!-- END GENERATED: {name} -->") + len(f"<!-- END GENERATED: {name} -->")
    return text[:start] + text[end:], text[start:end]


def _refused_in_one_line(result, *needles) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert all(needle in lines[0] for needle in needles), lines[0]
    return lines[0]


def test_a_block_in_no_document_is_refused_in_one_line_and_nothing_is_written(repo_copy):
    reference = repo_copy / "docs/reference.md"
    cut, _ = _cut_block(reference.read_text(), "faults")
    reference.write_text(cut)
    before = tree_snapshot(repo_copy / "images")
    _refused_in_one_line(run_build("render", root=repo_copy), "'faults'", *DOCUMENTS)
    assert reference.read_text() == cut and tree_snapshot(repo_copy / "images") == before


def test_a_block_in_two_documents_is_refused_in_one_line_naming_both(repo_copy):
    guide = repo_copy / "docs/guide.md"
    _, block = _cut_block((repo_copy / "docs/reference.md").read_text(), "faults")
    guide.write_text(guide.read_text() + "\n" + block + "\n")
    _refused_in_one_line(run_build("render", "--check", root=repo_copy), "'faults'", "docs/guide.md",
                         "docs/reference.md")


def _anchors(path) -> set:
    """The anchors GitHub gives a Markdown file's headings."""
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in re.findall(r"^#+ (.+)$", path.read_text(), re.M)}


def test_every_relative_link_of_the_documents_points_at_a_file_and_heading():
    """Generated and hand-written links alike: from docs/*.md a repository file is ../<path>."""
    for doc in DOCUMENTS:
        for target in re.findall(r"\]\(([^)\s]+)\)", (REPO / doc).read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            path = (REPO / doc).parent / file if file else REPO / doc
            assert path.exists(), (doc, target)
            assert not anchor or anchor in _anchors(path), (doc, target)


def test_a_pin_changes_exactly_the_images_that_use_it(repo_copy):
    core = M.components["megatron-core"]
    before = tree_snapshot(repo_copy / "images")
    edit(repo_copy / "pins.yaml", f"depName=megatron-core\n    version: {core.version}",
         f"depName=megatron-core\n    version: {core.version}.1")
    run_build("render", root=repo_copy, check=True)
    after = tree_snapshot(repo_copy / "images")
    assert sorted(p for p in after if before.get(p) != after[p]) == ["cpu/Dockerfile", "cpu/pins.json"]


def test_no_version_literal_in_templates():
    offenders = []
    for path in (REPO / "templates").rglob("*.j2"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\d+\.\d+", line) or re.search(r"==\s*\d", line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert not offenders, "versions belong in pins.yaml:\n" + "\n".join(offenders)


def test_generated_header_says_how_to_regenerate():
    for name in M.images:
        head = "\n".join(_lines(name)[:3])
        assert "GENERATED FILE: do not edit" in head and "make render" in head


def test_layers_in_tier_order_and_a_split_tier_has_its_large_dependencies_the_rest_and_each_component():
    for name, image in M.images.items():
        everything = _lines(name)
        lines = dockerfile.image_stages("\n".join(everything)).splitlines()  # the image's own stages
        own = layers.locked_own_layers(REPO, image)
        tiers = layers.tiers_of(image)
        cross = install_plan.cross_installed(image, layers.locks_of(REPO, image), own)
        slugs = [f"{tier.slug}/{layer.name}" for tier in tiers for layer in layers.layers_of(tier, own)]
        steps = [f"COPY --from=install-{slug.replace('/', '-')} /out/ /" if slug in cross else f"source=tiers/{slug},"
                 for slug in slugs]
        for tier in tiers:
            split = [*(f"deps-{d}" for d in own.get(tier.name, ())), "deps", *(f"pins-{c.name}" for c in tier.components)]
            assert [layer.name for layer in layers.layers_of(tier, own)] == (split if tier.split else ["deps", "pins"])
        positions = [_index(lines, step) for step in steps]
        assert positions == sorted(positions) and len(set(positions)) == len(steps)
        for slug, position in zip(slugs, positions):
            if slug not in cross:
                assert "install_tier.py /tmp/tier" in "\n".join(lines[position:][:6])
        assert max(positions) < _index(lines, "cp -R /tmp/payload/.")
        pinned, split = {c.dist for c in image.components}, {t.name for t in tiers if t.split}
        assert split, name  # the weekly tier splits
        for platform in image.platforms:
            for entry in lockfile.read(lockfile.path_for(REPO, name, platform)).packages:
                if entry.tier in split and entry.name not in pinned and entry.artifact.size >= layers.OWN_LAYER_BYTES:
                    assert f"/deps-{entry.name}," in "\n".join(everything), (name, entry.name)


def test_nothing_of_the_build_reaches_a_layer():
    """Wheels, sources and installer scripts are bind-mounted for one RUN, never COPYed; our own files are
    copied in by a step that settle.py ends (a COPY would keep the checkout's file times). The one COPY is of
    what an install stage wrote under /out (the venv, each layer of wheels), its times already settled."""
    for name, image in M.images.items():
        text = (REPO / "images" / name / "Dockerfile").read_text()
        cross = install_plan.cross_installed(image, layers.locks_of(REPO, image), layers.locked_own_layers(REPO, image))
        assert cross, name
        assert re.findall(r"^COPY (.*)$", text, re.M) == ["--from=install-venv /out/ /"] + [
            f"--from=install-{slug.replace('/', '-')} /out/ /" for slug in cross]
        assert "cp -R /tmp/payload/. /opt/verl-image/" in text and "cp /tmp/pins.json /etc/verl-image/pins.json" in text
        assert "netprofile" not in text and "wheelhouse" not in text
        for mention in re.findall(r"^[^#\n]*\b(?:tiers|installer)/.*$", text, re.M):
            assert "--mount=type=bind" in mention, mention


def _stages(text: str) -> dict:
    """{stage name: its instructions, each continued line joined, comments dropped}."""
    return {name: [line for line in re.sub(r"\\\n", " ", body).splitlines() if line and not line.startswith("#")]
            for name, (_, body) in dockerfile.stages(text).items()}


def test_the_venv_the_image_copies_is_made_by_the_step_the_image_would_run(monkeypatch):
    """The image copies its venv from the installer stage (the build platform), which makes it with the
    same RUN, after the same ENV and ARGs, as the image's own stage does where nothing is cross-installed."""
    env = dockerfile.environment(REPO / "templates")
    for name, image in M.images.items():
        crossed = _stages((REPO / "images" / name / "Dockerfile").read_text())
        with monkeypatch.context() as patch:
            patch.setattr(dockerfile, "cross_installed", lambda *args: ())
            patch.setattr(dockerfile, "wheel_builds", lambda *args: ())
            emulated = _stages(dockerfile.render_image(env, M, image)["Dockerfile"])
        venv_step = [step for step in emulated["image"] if "python3 -m venv" in step]
        assert len(venv_step) == 1 and "verl_image.pth" in venv_step[0] and "settle.py" in venv_step[0], name
        assert venv_step[0] in crossed["installer"], name
        before = emulated["image"][:emulated["image"].index(venv_step[0])]
        environment = [step for step in before if step.startswith(("ENV ", "ARG "))]
        assert environment and all(step in crossed["installer"] for step in environment), name
        assert not any("python3 -m venv" in step for step in crossed["image"]), name
        assert "COPY --from=install-venv /out/ /" in crossed["image"], name


def test_a_layer_with_an_sdist_is_built_from_the_image_before_it_and_installed_on_the_build_platform():
    """Its wheels are built on the target platform in a stage FROM the image as it stands before the layer
    (what install_tier.py's pip would build against), cross_install.py unpacks them with the layer's other
    wheels, and the image goes on from that same stage with the COPY of the result."""
    for name, image in M.images.items():
        text = (REPO / "images" / name / "Dockerfile").read_text()
        locks, own = layers.locks_of(REPO, image), layers.locked_own_layers(REPO, image)
        cross = install_plan.cross_installed(image, locks, own)
        built = install_plan.wheel_builds(image, locks, own, cross)
        with_sdists = {part.slug for platform, lock in locks.items()
                       for part in install_plan.parts(image, platform, lock, own) if part.builds_wheels}
        assert set(built) == with_sdists & set(cross), name
        stages = _stages(text)
        for slug in built:
            dash = slug.replace("/", "-")
            wheels, install, image_goes_on = stages[f"wheels-{dash}"], stages[f"install-{dash}"], stages[f"image-{dash}"]
            assert wheels[0].split()[1] == image_goes_on[0].split()[1] != "installer", (name, slug)
            assert wheels[-1].endswith("python3 /tmp/build_wheels.py /tmp/tier /out"), (name, slug)
            assert f"--mount=type=bind,from=wheels-{dash},source=/out,target=/tmp/tier-wheels" in install[-1]
            assert install[-1].endswith("/tmp/cross_install.py /tmp/tier /out /tmp/tier-wheels"), (name, slug)
            assert f"COPY --from=install-{dash} /out/ /" in image_goes_on, (name, slug)
            assert f" AS image-{dash}\n" in dockerfile.image_stages(text), (name, slug)  # the image goes on from it
    default = M.default_image
    locks, own = layers.locks_of(REPO, default), layers.locked_own_layers(REPO, default)
    assert install_plan.wheel_builds(default, locks, own, install_plan.cross_installed(default, locks, own))
    assert "install_tier.py" not in dockerfile.image_stages((REPO / "images" / default.name / "Dockerfile").read_text())


def test_npu_images_prove_their_env_needs_no_entrypoint():
    for name, image in M.images.items():
        text = (REPO / "images" / name / "Dockerfile").read_text()
        scripts = " ".join(image.base.get("env_scripts") or [])
        assert (f"python3 /tmp/check_env.py {scripts}" in text) == (image.device == "npu")


def test_every_build_ends_by_verifying_the_installed_stack():
    for name in M.images:
        lines = _lines(name)
        assert _index(lines, "python3 /tmp/verify.py /tmp/pins.json") > max(
            i for i, line in enumerate(lines) if "install_tier.py" in line)


def test_alternatives_are_rendered_with_their_builder_stage():
    for name, image in M.images.items():
        for alt in M.alternatives_of(image):
            text = (REPO / "images" / name / f"Dockerfile.{alt.name}").read_text()
            pins = json.loads((REPO / "images" / name / f"pins.{alt.name}.json").read_text())
            assert alt.name in [c["name"] for comps in pins["stack"].values() for c in comps]
            if alt.build.get("cmake"):
                assert f"AS build-{alt.name}" in text
                assert all(option in text for option in alt.build["cmake"])
                assert f"from=build-{alt.name},source=/out" in text


def test_env_verl_use_external_modules_is_set():
    for name, image in M.images.items():
        value = image.env["VERL_USE_EXTERNAL_MODULES"]
        assert f"    VERL_USE_EXTERNAL_MODULES={json.dumps(value)}" in _lines(name)


def test_pins_json_is_the_resolved_image():
    for name, image in M.images.items():
        assert json.loads((REPO / "images" / name / "pins.json").read_text()) == image.pins(M.repository)


def test_template_errors_exit_2_and_write_nothing(repo_copy):
    edit(repo_copy / "templates/partials/steps.j2", "{{ image.python }}", "{{ image.pyhton }}")
    before = tree_snapshot(repo_copy / "images")
    result = run_build("render", root=repo_copy)
    assert result.returncode == 2, result.stderr
    assert "pyhton" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert tree_snapshot(repo_copy / "images") == before


def test_a_bump_that_drops_dependencies_changes_only_the_shared_layer_and_the_large_ones_own():
    """What keeps a bump's re-ship small: a dropped small dependency changes only its tier's shared layer,
    a dropped large one only takes its own layer away; every other layer installs the same files."""
    image = M.images["cpu"]
    locks = {p: lockfile.read(lockfile.path_for(REPO, "cpu", p)) for p in image.platforms}
    own = layers.own_layers(image, locks.values())
    pinned = {c.dist for c in image.components}
    platform, lock = next(iter(locks.items()))
    large = own["app"][0]
    small = next(e.name for e in lock.packages if e.tier == "app" and e.name not in pinned | set(own["app"]))
    dropped = {p: dataclasses.replace(l, packages=[e for e in l.packages if e.name not in (large, small)])
               for p, l in locks.items()}

    def requirements(lock_of, own_of):
        return {part.slug: part.requirements() for part in install_plan.parts(image, platform, lock_of[platform], own_of)}

    before, after = requirements(locks, own), requirements(dropped, layers.own_layers(image, dropped.values()))
    installed = [e.name for part in install_plan.parts(image, platform, lock, own) for e in part.entries]
    tiers = {t.name for t in layers.tiers_of(image)}
    assert sorted(installed) == sorted(e.name for e in lock.packages if e.tier in tiers)  # each once
    app = next(t.slug for t in layers.tiers_of(image) if t.name == "app")
    assert set(before) - set(after) == {f"{app}/deps-{large}"}
    assert {slug for slug in after if after[slug] != before[slug]} == {f"{app}/deps"}


def test_the_first_promotion_table_names_what_stands_between_ci_and_each_promotion(repo_copy):
    """Generated from the locks, the runners and the committed baselines: a baseline that appears, or a
    lock that holds every sha256, takes its line away."""
    from image_pipeline.render import readme
    from image_pipeline.lock import lockfile

    m = manifest()
    image = next(img for img in m.images.values() if img.device == "npu" and img.waivers)
    tested = next(p for p in image.platforms if p not in image.waivers)
    locks = {(img.name, p): lockfile.read(lockfile.path_for(repo_copy, img.name, p))
             for img in m.images.values() for p in img.platforms}
    row = next(line for line in readme._first_promotion(m, locks, repo_copy).splitlines()
               if line.startswith(f"| `{image.name}` | {tested.split('/')[1]} |"))
    assert "no training baseline" in row and "no sha256 in the lock for" in row
    baseline = repo_copy / f"smoke_tests/baselines/{image.name}.npu.{tested.split('/')[1]}.txt"
    baseline.write_text("made_with.device:npu\n")
    row = next(line for line in readme._first_promotion(m, locks, repo_copy).splitlines()
               if line.startswith(f"| `{image.name}` | {tested.split('/')[1]} |"))
    assert "no training baseline" not in row
    cpu = [line for line in readme._first_promotion(m, locks, repo_copy).splitlines() if line.startswith("| `cpu`")]
    assert cpu and all("nothing: CI promotes it" in line for line in cpu)


def test_gitattributes_marks_every_generated_file_and_nothing_else(repo_copy):
    marked = {line.split()[0].lstrip("/") for line in (REPO / ".gitattributes").read_text().splitlines()
              if line and not line.startswith("#")}
    in_images = {p.relative_to(REPO).as_posix() for p in (REPO / "images").rglob("*") if p.is_file()}
    assert marked == in_images
    (repo_copy / ".gitattributes").write_text((repo_copy / ".gitattributes").read_text().replace(
        "/images/cpu/Dockerfile linguist-generated=true\n", ""))
    result = run_build("render", "--check", root=repo_copy)
    assert result.returncode == 1 and ".gitattributes" in result.stdout


SECTION_REFERENCE = re.compile(r"(?<![\w/.-])((?:\.\./)?(?:docs/)?(?:README|guide|reference)\.md)#([A-Za-z0-9_-]+)")


def _tracked_text_files():
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z"], capture_output=True, text=True, check=True)
    for rel in listed.stdout.split("\0"):
        path = REPO / rel
        if rel and path.is_file() and not rel.startswith(("images/", "tests/")) and path.stat().st_size < 2_000_000:
            try:
                yield rel, path.read_text()
            except UnicodeDecodeError:
                continue


def test_every_section_reference_in_comments_code_and_docs_resolves():
    """`FILE.md#anchor` written anywhere (pins.yaml's comments, docstrings, templates, workflows, docs)
    names a heading that exists: the file relative to the referring one, else to the repository root."""
    dead = []
    for rel, text in _tracked_text_files():
        for file, anchor in SECTION_REFERENCE.findall(text):
            here = (REPO / rel).parent / file
            target = here if here.exists() else REPO / file
            if not target.exists() and "/" not in file:
                target = REPO / "docs" / file
            if not target.exists() or anchor not in _anchors(target):
                dead.append(f"{rel}: {file}#{anchor}")
    assert not dead, dead


def _guide_section(title: str) -> str:
    text = (REPO / "docs/guide.md").read_text()
    start = text.index(f"\n{title}\n")
    end = text.find("\n#", start + len(title) + 2)
    return text[start:end]


def _file_table() -> dict:
    """{path cell's first name: role text} of the guide's file table."""
    rows = re.findall(r"^\| `([^`]+)`[^|]*\| (.+) \|$", _guide_section("## How it fits together"), re.M)
    return dict(rows)


def test_the_guide_file_table_names_every_top_level_directory_and_every_module():
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True, check=True)
    directories = {line.split("/")[0] for line in listed.stdout.splitlines() if "/" in line}
    table = _file_table()
    missing = sorted(d for d in directories if not any(path.startswith(f"{d}/") for path in table))
    assert not missing, f"not in the guide's file table: {missing}"
    assert all((REPO / path.rstrip("/")).exists() for path in table), [p for p in table if not (REPO / p).exists()]
    layout = table["image_pipeline/"]
    named = set(re.findall(r"`([\w.]+)`", layout)) | {n.rstrip("/") for n in re.findall(r"`(\w+/)`", layout)}
    modules = {p.stem for p in (REPO / "image_pipeline").rglob("*.py") if p.stem != "__init__"}
    packages = {p.parent.name for p in (REPO / "image_pipeline").glob("*/__init__.py")}
    assert sorted((modules | packages) - named) == [], "modules the guide's layout does not name"
    assert sorted(n for n in named - modules - packages if not n.endswith(".json")) == [], "names no module has"


def test_the_words_table_cites_only_what_exists():
    """Every path the Words table cites exists; every `key:` it cites is a key of pins.yaml."""
    words = _guide_section("### Words")
    keys = set(re.findall(r"^\s*([a-z_]+):", (REPO / "pins.yaml").read_text(), re.M))
    for key in re.findall(r"`([a-z_]+):`", words):
        assert key in keys, f"the Words table cites `{key}:`, which pins.yaml has no key for"
    for path in re.findall(r"`((?:[\w.-]+/)+[\w.-]*)`", words):
        assert (REPO / path).exists() or (REPO / "image_pipeline" / path).exists(), \
            f"the Words table cites {path}, which does not exist"


def test_an_image_whose_torch_comes_from_another_index_keeps_that_index_for_pip():
    """The cpu image's amd64 torch is the PyTorch CPU index's +cpu build: its venv's pip.conf names that
    index on amd64 only (conformance.pip_index checks it in the image)."""
    cpu = M.images["cpu"]
    torch = cpu.role("torch")
    index = M.indexes[torch.build_for("linux/amd64")["index"]].url
    assert cpu.pip_extra_index == {"linux/amd64": index}
    assert json.loads((REPO / "images/cpu/pins.json").read_text())["pip_extra_index"] == {"linux/amd64": index}
    text = dockerfile.render_image(dockerfile.environment(REPO / "templates"), M, cpu)["Dockerfile"]
    assert f"if [ \"$TARGETARCH\" = amd64 ]; then printf '[global]\\nextra-index-url = %s\\n' {index} " \
           f"> /opt/venv/pip.conf; fi" in text
    assert "arm64 ]; then printf" not in text
