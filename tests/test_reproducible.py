"""Same inputs, same bytes: installer/settle.py (the end of every image step), the SOURCE_DATE_EPOCH
the inputs decide, and (docker) `build.py reproduce`, the config stamp and the SBOM in the image."""

import base64
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from image_pipeline.builder import engine, image_config, inputs, reproduce, sbom
from image_pipeline.lock import lockfile
from image_pipeline.manifest import load_manifest

from conftest import REPO, copy_repo, run_build

SETTLE = REPO / "installer" / "settle.py"
EPOCH = 1_000_000_000


def _settle(root: Path, step) -> subprocess.CompletedProcess:
    """A step on a scratch tree, as the Dockerfile runs it: the listing first, settle last."""
    before = root.parent / "settle-before"
    listing = subprocess.run(["find", str(root), "-xdev"], capture_output=True, text=True, check=True).stdout
    before.write_text(listing)
    time.sleep(0.02)  # what the step writes is newer than the listing, as in a build
    step(root)
    return subprocess.run([sys.executable, str(SETTLE), str(before), str(root)], capture_output=True, text=True,
                          env={**os.environ, "SOURCE_DATE_EPOCH": str(EPOCH)}, check=True)


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "rootfs"
    for directory in ("opt/venv/site", "var/log/apt", "var/lib/dpkg", "etc"):
        (root / directory).mkdir(parents=True)
    (root / "var/log/dpkg.log").write_text("from the base\n")
    (root / "etc/old.conf").write_text("left alone\n")
    os.utime(root / "etc/old.conf", (12345, 12345))
    return root


def _install(root: Path) -> None:
    (root / "opt/venv/site/pkg").mkdir()
    (root / "opt/venv/site/pkg/__init__.py").write_text("VALUE = 1\n")
    (root / "opt/venv/site/pkg/broken.py").write_text("def (:\n")
    with open(root / "var/log/dpkg.log", "a") as log:
        log.write(f"{time.time()} installed\n")
    (root / "var/log/apt/history.log").write_text(f"{time.time()}\n")
    (root / "var/lib/dpkg/status-old").write_text("a backup\n")
    (root / "root/.cache/pip").mkdir(parents=True)


def test_settle_sets_every_time_the_step_wrote_and_leaves_older_files_alone(tree):
    _settle(tree, _install)
    written = [tree / "opt/venv/site", tree / "opt/venv/site/pkg", tree / "opt/venv/site/pkg/__init__.py",
               tree / "opt/venv/site/pkg/__pycache__", tree / "var/log/dpkg.log"]
    assert {p.relative_to(tree).as_posix(): os.lstat(p).st_mtime for p in written} == \
        {p.relative_to(tree).as_posix(): EPOCH for p in written}
    assert os.lstat(tree / "etc/old.conf").st_mtime == 12345


def test_settle_compiles_new_python_to_hash_checked_pycs(tree):
    _settle(tree, _install)
    pyc = next((tree / "opt/venv/site/pkg/__pycache__").glob("__init__.*.pyc"))
    flags = int.from_bytes(pyc.read_bytes()[4:8], "little")
    assert flags == 0b11  # hash-based, checked at import: no time of the build inside
    assert not list((tree / "opt/venv/site/pkg/__pycache__").glob("broken.*"))  # not Python: skipped, as pip does


def test_settle_removes_the_residue_the_step_made_and_empties_what_was_there(tree):
    _settle(tree, _install)
    assert not (tree / "var/log/apt/history.log").exists()
    assert not (tree / "var/lib/dpkg/status-old").exists()
    assert not (tree / "root/.cache").exists()
    assert (tree / "var/log/dpkg.log").read_text() == ""  # deleting it would put a whiteout in the layer


def test_the_steps_list_every_directory_residue_lives_in_before_they_start():
    """settle empties residue that was there before the step (deleting it would leave a whiteout) and
    knows it from the listing the step starts with: a residue path outside the listed directories would
    be taken for the step's own and deleted."""
    spec = importlib.util.spec_from_file_location("settle", SETTLE)
    settle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(settle)
    assert all(any(p.startswith(d + "/") for d in settle.RESIDUE_DIRS) for p in settle.RESIDUE)
    steps = (REPO / "templates/partials/steps.j2").read_text()
    assert f"find {' '.join(settle.RESIDUE_DIRS)} -xdev > /tmp/.settle-before" in steps
    for name in load_manifest(REPO / "pins.yaml").images:
        for line in (REPO / "images" / name / "Dockerfile").read_text().splitlines():
            if "/tmp/settle.py /tmp/.settle-before" in line:
                assert line.strip().startswith("&& python3 /tmp/settle.py"), line


def test_settle_twice_gives_the_same_tree(tmp_path):
    """The same step at the same path (as in an image: a .pyc names its source's path) gives the same bytes
    and times, although the step writes the clock into its logs."""
    root = tmp_path / "rootfs"
    trees = []
    for _ in (1, 2):
        shutil.rmtree(root, ignore_errors=True)
        (root / "opt").mkdir(parents=True)
        _settle(root, _install_and_log)
        trees.append(sorted((p.relative_to(root).as_posix(), os.lstat(p).st_mtime, p.is_file() and p.read_bytes())
                            for p in root.rglob("*")))
    assert trees[0] == trees[1]


def _install_and_log(root: Path) -> None:
    for directory in ("opt/venv/site", "var/log/apt", "var/lib/dpkg"):
        (root / directory).mkdir(parents=True, exist_ok=True)
    _install(root)


def _git(root: Path, *args, when: int | None = None):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    if when is not None:
        env |= {"GIT_AUTHOR_DATE": f"{when} +0000", "GIT_COMMITTER_DATE": f"{when} +0000"}
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, env=env)


def _written_around_the_layers(root: Path) -> tuple:
    """What build.py writes into the cpu image besides the layers, for the tree at root: its content-hash
    inputs, its labels and its SBOM (the dpkg list and base id held fixed)."""
    from image_pipeline.render import dockerfile

    manifest = load_manifest(root / "pins.yaml")
    image, platform = manifest.default_image, "linux/amd64"
    rendered = dockerfile.render_image(dockerfile.environment(root / "templates"), manifest, image)
    found = inputs.build_inputs(root, image, platform, rendered)
    digest = inputs.content_hash(found, "sha256:b", {})
    labels = image_config.oci_labels(manifest.repository, image, platform, digest, "sha256:b", rendered["pins.json"],
                                     inputs.tree_digest(found))
    bill = sbom.build_sbom(manifest, image, platform, lockfile.read(lockfile.path_for(root, image.name, platform)),
                           dpkg_status="", base_reference=image.base.reference, base_id="sha256:b",
                           content_hash=digest, source_date_epoch=image_config.SOURCE_DATE_EPOCH)
    return digest, labels, bill


def test_a_commit_that_leaves_the_inputs_alone_leaves_the_image_alone(tmp_path):
    """One content tag, one image id: a pins.yaml comment committed later (another commit, another time)
    changes neither the content hash nor anything build.py writes into the image."""
    root = copy_repo(tmp_path / "repo")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "inputs", when=1_700_000_000)
    before = _written_around_the_layers(root)
    (root / "pins.yaml").write_text("# a comment no image reads\n" + (root / "pins.yaml").read_text())
    _git(root, "commit", "-qam", "a comment", when=1_700_000_500)
    assert _written_around_the_layers(root) == before
    assert before[1]["org.opencontainers.image.created"] == image_config.timestamp(image_config.SOURCE_DATE_EPOCH)


def test_every_label_is_an_input_of_the_content_hash(tmp_path):
    """A label pins.yaml decides (here a waiver's reason) changes the content hash with it: never a new id
    under the old tag."""
    root = copy_repo(tmp_path / "repo")
    manifest = load_manifest(root / "pins.yaml")
    image = next(img for img in manifest.images.values() if img.waivers)
    platform = sorted(image.waivers)[0]
    reason = image.waivers[platform]
    pins = root / "pins.yaml"
    assert pins.read_text().count(reason) == 1, reason

    def content(text):
        pins.write_text(text)
        m = load_manifest(pins)
        from image_pipeline.render import dockerfile
        rendered = dockerfile.render_image(dockerfile.environment(root / "templates"), m, m.images[image.name])
        return inputs.build_inputs(root, m.images[image.name], platform, rendered)

    original = pins.read_text()
    before = content(original)
    after = content(original.replace(reason, reason + " (reworded)"))
    assert [k for k in after if after[k] != before[k]] == ["config"]


def test_a_config_difference_is_named_down_to_the_label():
    promoted = {"created": "t", "config": {"Labels": {"a": "1", "source": "file:///work/main"}, "Cmd": ["bash"]}}
    rebuilt = {"created": "t", "config": {"Labels": {"a": "1", "source": "/check/repo.git"}, "Cmd": ["bash"]},
               "history": []}
    assert reproduce.config_differences(promoted, rebuilt) == [
        'config.Labels.source: "file:///work/main" -> "/check/repo.git"', "history: null -> []"]


def test_two_clones_of_one_commit_label_the_image_alike(tmp_path):
    """The labels are part of the image id: a clone's path or remote in them made CI's rebuild of an image
    another clone had promoted differ from it in one label. Two clones, one shallow and with another
    remote, write the same bytes around the layers."""
    origin = copy_repo(tmp_path / "origin")
    _git(origin, "init", "-q")
    _git(origin, "add", "-A")
    _git(origin, "commit", "-qm", "inputs", when=1_700_000_000)
    (origin / "README.md").write_text("not an input\n")
    _git(origin, "commit", "-qam", "docs", when=1_700_000_100)
    one, two = tmp_path / "one", tmp_path / "two"
    subprocess.run(["git", "clone", "-q", str(origin), str(one)], check=True)
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{origin}", str(two)], check=True)
    _git(two, "remote", "set-url", "origin", "https://example.org/fork.git")
    assert _written_around_the_layers(one) == _written_around_the_layers(two)


@pytest.mark.docker
def test_the_cpu_image_rebuilt_with_no_cache_is_the_same_image(cpu_image):
    """Every layer and the config, so the id: `build.py reproduce` rebuilds next to the promoted image."""
    result = run_build("reproduce", "--wait")
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    assert f"reproduce: {cpu_image.image_id}: the rebuild is the same image" in result.stdout


@pytest.mark.parametrize("same", [True, False])
def test_a_rebuild_leaves_no_candidate_tag_whatever_it_found(monkeypatch, tmp_path, same):
    """A candidate tag left by a differing rebuild named an image no promotion had passed (CI: the test
    after it found the tag). The stand-in engine records tags (test_promotion_gate.TagBook)."""
    from image_pipeline.builder import pipeline
    from image_pipeline.manifest.references import Tags

    from test_promotion_gate import TagBook

    m = load_manifest(REPO / "pins.yaml")
    tags = Tags(m.repository, m.default_image.name, "0123456789ab", m.default_image.human_tag, "amd64", host=True)
    book = TagBook({tags.final: "sha256:promoted"})
    prepared = pipeline.Prepared({}, "0" * 64, "sha256:base", tags, (), {"INSTALL_PLATFORM": "linux/amd64"})
    monkeypatch.setattr(pipeline, "prepare", lambda *a, **k: prepared)
    monkeypatch.setattr(pipeline, "build_candidate", lambda *a, **k: book.tags.setdefault(tags.candidate, "sha256:re"))
    monkeypatch.setattr(engine, "image_id", lambda api, ref: api.tags.get(ref))
    monkeypatch.setattr(reproduce, "compare", lambda *a, **k: same)
    assert reproduce.reproduce(book, m, m.default_image, "linux/amd64", REPO, None, cache=tmp_path,
                               log=lambda _: None) is same
    assert book.tags == {tags.final: "sha256:promoted"}


@pytest.mark.docker
def test_a_second_bootstrap_of_the_base_is_the_same_image(engine_client, cpu_image):
    """mmdebstrap with SOURCE_DATE_EPOCH and the stamped config: the base the cpu image was built on
    (bootstrapped by make image where no registry answers) comes out again, byte for byte."""
    from image_pipeline.builder import base

    comp = load_manifest(REPO / "pins.yaml").default_image.base
    platform = engine.host_platform()
    present = engine.image_id(engine_client, base.local_reference(comp, platform))
    if not engine_client.images.get(present).labels.get(base.BOOTSTRAP_LABEL):
        pytest.skip("this engine's base was pulled or loaded, not bootstrapped")
    again = base.bootstrap(engine_client, comp, platform, None, log=lambda _: None,
                           reference="verl-ascend:bootstrap-again")
    try:
        assert again == present
    finally:
        engine_client.images.remove("verl-ascend:bootstrap-again", noprune=True)


@pytest.mark.parametrize("labelled, stamped_now, bootstrapped_again", [
    (True, False, True),  # bootstrapped by older code: its config is not what stamp() makes now
    (True, True, False),
    (False, False, False),  # pulled or loaded: the registry's bytes, never re-made here
])
def test_a_base_bootstrapped_by_older_code_is_bootstrapped_again(monkeypatch, tmp_path, labelled, stamped_now,
                                                                 bootstrapped_again):
    """The base's id is an input of every content hash and test_a_second_bootstrap_of_the_base_is_the_same_image
    holds it to what bootstrap() makes now: on an engine that kept a base from before the inline cache
    left the stamp (CI's is not emptied), that test failed. The engine is a stand-in here."""
    from types import SimpleNamespace

    from image_pipeline.builder import base

    comp = load_manifest(REPO / "pins.yaml").default_image.base
    config = _engine_config()
    if stamped_now:
        digest, members = image_config.restamped(config, "", EPOCH)
        raw, present = members[f"{digest}.json"], f"sha256:{digest}"
    else:
        raw, present = json.dumps(config).encode(), "sha256:" + hashlib.sha256(json.dumps(config).encode()).hexdigest()
    labels = {base.BOOTSTRAP_LABEL: "{}"} if labelled else {}
    api = SimpleNamespace(images=SimpleNamespace(get=lambda ref: SimpleNamespace(labels=labels)))
    monkeypatch.setattr(engine, "image_id", lambda api, ref: present)
    monkeypatch.setattr(engine, "raw_config", lambda api, ref: raw)
    monkeypatch.setattr(base, "SOURCE_DATE_EPOCH", EPOCH)
    monkeypatch.setattr(base, "_check", lambda *a: None)
    monkeypatch.setattr(base, "bootstrap", lambda *a, **k: "sha256:again")
    found = base.ensure_base(api, comp, "linux/amd64", pull=False, cache=tmp_path, log=lambda _: None)
    assert found == ("sha256:again" if bootstrapped_again else present)


def test_a_rebuild_with_its_wheels_installed_elsewhere_may_differ_only_in_the_sbom_layer():
    steps = ["RUN apt-get ...", "COPY --from=install-1-tools-deps /out/ /", f"ADD sbom.cdx.json {image_config.SBOM_PATH} "
             + image_config.ADDED_BY]
    promoted = ["sha256:a", "sha256:b", "sha256:sbom1"]
    assert reproduce.differing_layers(promoted, ["sha256:a", "sha256:b", "sha256:sbom2"], steps, layers_only=True) == []
    assert reproduce.differing_layers(promoted, ["sha256:a", "sha256:b", "sha256:sbom2"], steps) == [2]
    assert reproduce.differing_layers(promoted, ["sha256:a", "sha256:c", "sha256:sbom2"], steps, layers_only=True) == [1]
    assert reproduce.differing_layers(promoted, ["sha256:a", "sha256:b"], steps, layers_only=True) == [2]
    assert reproduce.differing_layers(promoted[:2], ["sha256:a", "sha256:b", "sha256:x"], steps[:2], layers_only=True) == [2]


@pytest.mark.docker
def test_a_step_that_differs_between_builds_is_named_by_its_file(engine_client, cpu_image, tmp_path):
    context = tmp_path / "context"
    context.mkdir()
    (context / "Dockerfile").write_text(f"FROM {cpu_image.tags.final}\nRUN date +%s%N > /etc/verl-image/clock\n")
    built = [image_config.stamp(engine_client, engine.build(context, f"verl-ascend:reproduce-test-{n}", buildargs={}, labels={},
                                                      platform=engine.host_platform(), plain=True, no_cache=True),
                          f"verl-ascend:reproduce-test-{n}", epoch=EPOCH) for n in (1, 2)]
    lines = []
    try:
        assert not reproduce.compare(engine_client, built[0], built[1], tmp_path, log=lines.append)
    finally:
        for n in (1, 2):
            engine_client.images.remove(f"verl-ascend:reproduce-test-{n}")
    report = "\n".join(lines)
    assert "/etc/verl-image/clock" in report, report
    assert "differ: 1 of" in report, report  # only the last layer: the image under it is the same


@pytest.mark.docker
def test_the_sbom_ships_in_the_image_validates_and_lists_the_lock_and_every_dpkg_package(engine_client, cpu_image):
    image = engine_client.images.get(cpu_image.image_id)
    text = engine.read_file(engine_client, cpu_image.image_id, image_config.SBOM_PATH).decode()
    assert image.labels[image_config.SBOM_LABEL] == hashlib.sha256(text.encode()).hexdigest()
    sbom.validate(text)
    components = json.loads(text)["components"]
    hashes = {c["name"]: {h["content"] for h in c.get("hashes", [])} for c in components  # tzdata is both
              if c.get("purl", "").startswith("pkg:pypi/")}
    lock = lockfile.read(lockfile.path_for(REPO, "cpu", engine.host_platform()))
    for package in lock.packages:
        assert package.artifact.sha256 in hashes.get(package.name, set()), package.name
    installed = engine_client.containers.run(cpu_image.image_id, ["dpkg-query", "-W", "-f", "${Package}\n"],
                                             entrypoint=[], remove=True, network_mode="none").decode().split()
    debs = {c["name"] for c in components if c.get("purl", "").startswith("pkg:deb/")}
    assert set(installed) == debs


def _engine_config() -> dict:
    """A config as the engine's BuildKit 0.8 leaves it: wall-clock times everywhere, the inline cache."""
    cache = [{"layers": [{"blob": "sha256:" + "1" * 64, "createdAt": "2026-12-05T14:00:01.123Z"}]}]
    return {"created": "2026-12-05T14:00:02.5Z", "architecture": "amd64", "os": "linux",
            "config": {"Labels": {"a": "1"}}, "rootfs": {"type": "layers", "diff_ids": ["sha256:" + "2" * 64]},
            "history": [{"created": "2026-12-05T14:00:00Z", "created_by": "RUN x"}],
            image_config.BUILDKIT_CACHE_KEY: base64.b64encode(json.dumps(cache).encode()).decode()}


def test_the_stamp_sets_every_time_of_the_config_and_adds_the_sbom_layer():
    """What `stamp` loads into the engine (the docker test holds the loaded image): no wall-clock time
    survives, the SBOM is one last layer whose diff_id and history entry are in the config, and the
    labels are joined."""
    import io
    import tarfile

    bill = b'{"bomFormat": "CycloneDX"}'
    digest, members = image_config.restamped(_engine_config(), "verl-ascend:x", EPOCH, add=(image_config.SBOM_PATH, bill),
                                             labels={image_config.SBOM_LABEL: "f" * 64})
    config = json.loads(members[f"{digest}.json"])
    when = image_config.timestamp(EPOCH)
    assert config["created"] == when and {h["created"] for h in config["history"]} == {when}
    assert config["config"]["Labels"] == {"a": "1", image_config.SBOM_LABEL: "f" * 64}
    layer = members["added/layer.tar"]
    assert config["rootfs"]["diff_ids"][-1] == "sha256:" + hashlib.sha256(layer).hexdigest()
    assert len(config["rootfs"]["diff_ids"]) == len(config["history"]) == 2
    with tarfile.open(fileobj=io.BytesIO(layer)) as tar:
        (member,) = tar.getmembers()
        assert (member.name, member.mtime, tar.extractfile(member).read()) == (image_config.SBOM_PATH.lstrip("/"),
                                                                              EPOCH, bill)
    assert json.loads(members["manifest.json"])[0]["Layers"] == ["0/layer.tar", "added/layer.tar"]
    assert digest == hashlib.sha256(members[f"{digest}.json"]).hexdigest()
    assert image_config.restamped(_engine_config(), "verl-ascend:x", EPOCH, add=(image_config.SBOM_PATH, bill),
                                  labels={image_config.SBOM_LABEL: "f" * 64})[0] == digest  # the same every time


def test_the_engines_inline_cache_leaves_the_image_id_alone():
    """BuildKit's inline cache lists every cache key its engine holds for a layer: on CI's engine, which
    had built the image before, a no-cache rebuild with every layer the same had 91 records where the
    promoted image had 81, so another id. The stamped config carries no inline cache."""
    records = [{"digest": "sha256:run", "layers": [{"blob": "sha256:" + "1" * 64}]}]
    configs = [{**_engine_config(), image_config.BUILDKIT_CACHE_KEY: base64.b64encode(json.dumps(cache).encode()).decode()}
               for cache in (records, records + [{"digest": "sha256:other-inputs", "layers": [{"layer": 0}]}])]
    stamped = [image_config.restamped(config, "verl-ascend:x", EPOCH) for config in configs]
    assert len({digest for digest, _ in stamped}) == 1  # one image id
    digest, members = stamped[0]
    assert image_config.BUILDKIT_CACHE_KEY not in json.loads(members[f"{digest}.json"])


def test_the_record_of_bases_is_replaced_never_rewritten_in_place(tmp_path):
    """The arm64 pipeline in the background and make test's workers read .cache/bases.json while one of
    them records a base: a reader must find the old file or the new one, never a half-written one."""
    from image_pipeline.builder import base

    base._record(tmp_path, "debian:one", "sha256:" + "1" * 64, "pulled", log=lambda _: None)
    path = base._state_file(tmp_path)
    with open(path) as reader:
        base._record(tmp_path, "debian:two", "sha256:" + "2" * 64, "bootstrapped", log=lambda _: None)
        assert list(json.loads(reader.read())) == ["debian:one"]  # what it opened, whole
    assert sorted(json.loads(path.read_text())) == ["debian:one", "debian:two"]
