"""Bare-metal install scripts (images/<name>/install.<platform>.sh): rendered from the same pins and lock
as the Dockerfile, drift-gated, shellcheck-clean, and the same parts as the build context. The install
itself (baremetal/host_install.py) runs here on small wheels built by the test; the cpu image's whole
stack is installed in a container in tests/test_host_install.py."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from image_pipeline.builder import context
from image_pipeline.builder.wheelhouse import Unverified, Wheelhouse
from image_pipeline.cli import readme_blocks
from image_pipeline.lock import lockfile
from image_pipeline.lock.artifacts import sha256_file
from image_pipeline.render import dockerfile, install_script, lint, tree

from conftest import REPO, edit, manifest, run_in_process, tree_snapshot

M = manifest()
LAYOUT = re.compile(r"<<'LAYOUT'\n(.*)\nLAYOUT\n", re.S)


def _host_install_module():
    sys.path.insert(0, str(REPO / "baremetal"))
    try:
        import host_install
    finally:
        sys.path.remove(str(REPO / "baremetal"))
    return host_install


def _layout(name: str, platform: str, root=REPO) -> str:
    return LAYOUT.search((root / "images" / name / install_script.script_name(platform)).read_text()).group(1)


def _plan(name: str, platform: str, root=REPO) -> dict:
    """What the script installs: its layout, completed from the lock and pins.json as host_install.py does."""
    return _host_install_module().read_plan(_layout(name, platform, root), root)


def _scripts(root=REPO):
    return sorted(p.relative_to(root).as_posix() for p in (root / "images").glob("*/install.*.sh"))


def test_every_image_and_platform_has_a_committed_executable_script():
    expected = sorted(f"images/{name}/install.linux-{p.split('/')[1]}.sh"
                      for name, image in M.images.items() for p in image.platforms)
    assert _scripts() == expected
    for script in expected:
        assert (REPO / script).stat().st_mode & 0o111, f"{script} is not executable"


def test_a_hand_edit_or_a_lost_executable_bit_fails_the_drift_gate(repo_copy):
    edit(repo_copy / "images/npu-a3/install.linux-arm64.sh", "set -euo pipefail", "set -eo pipefail")
    (repo_copy / "images/cpu/install.linux-amd64.sh").chmod(0o644)
    result = run_in_process("render", "--check", root=repo_copy)
    assert result.returncode == 1
    assert "+++ b/images/npu-a3/install.linux-arm64.sh (fresh render)" in result.stdout
    assert "-set -eo pipefail" in result.stdout
    assert "images/cpu/install.linux-amd64.sh: not executable" in result.stdout
    assert run_in_process("render", root=repo_copy).returncode == 0
    assert run_in_process("render", "--check", root=repo_copy).returncode == 0


def test_a_pin_bump_re_renders_no_script_and_the_script_installs_the_new_version(repo_copy):
    transformers = M.components["transformers"]
    users = [name for name, image in M.images.items() if transformers in image.components]
    before = tree_snapshot(repo_copy / "images")
    edit(repo_copy / "pins.yaml", f"depName=transformers\n    version: {transformers.version}",
         f"depName=transformers\n    version: {transformers.version}.1")
    assert run_in_process("render", root=repo_copy).returncode == 0
    after = tree_snapshot(repo_copy / "images")
    changed = sorted(p for p in after if before.get(p) != after[p])
    assert changed and not [p for p in changed if "/install." in p]
    for name in users:
        assert f"{name}/Dockerfile" in changed
        for platform in M.images[name].platforms:
            plan = _plan(name, platform, repo_copy)
            versions = [c["version"] for comps in plan["pins"]["stack"].values() for c in comps
                        if c["name"] == "transformers"]
            assert versions == [f"{transformers.version}.1"]


def test_a_re_lock_re_renders_nothing_and_the_script_installs_the_new_hash(repo_copy):
    lock_path = repo_copy / "images/cpu/pylock.linux-amd64.toml"
    entry = next(e for e in lockfile.read(lock_path).packages if e.name == "six")
    line = f"six=={entry.version} --hash=sha256:{'0' * 64}"
    edit(lock_path, entry.artifact.sha256, "0" * 64)
    before = tree_snapshot(repo_copy / "images")
    assert run_in_process("render", root=repo_copy).returncode == 0
    assert tree_snapshot(repo_copy / "images") == before
    assert line in [r for part in _plan("cpu", "linux/amd64", repo_copy)["parts"] for r in part["requirements"]]
    assert line not in [r for part in _plan("cpu", "linux/amd64")["parts"] for r in part["requirements"]]


def test_no_script_carries_a_hash_or_a_locked_version():
    """images/ holds one copy of each lock: its scripts, as rendered now, name packages, never their versions
    or sha256 (the drift gate holds the committed ones equal)."""
    outputs = tree.render_all(M, REPO, readme_blocks())
    for name, image in M.images.items():
        for platform in image.platforms:
            text = outputs[Path("images", name, install_script.script_name(platform))]
            assert not re.search(r"[0-9a-f]{64}", text), f"{name} {platform}: a sha256 in the script"
            lock = lockfile.read(lockfile.path_for(REPO, name, platform))
            assert not [e for e in lock.packages if f"{e.name}=={e.version}" in text or e.artifact.name in text]


def test_the_plan_is_completed_with_the_standard_library_alone():
    """host_install.py runs on a bare host's python: the plan module it loads imports nothing else."""
    code = ("import sys, pathlib; sys.path.insert(0, sys.argv[1] + '/baremetal'); import host_install; "
            "plan = host_install.read_plan(sys.stdin.read(), pathlib.Path(sys.argv[1])); "
            "print(len(plan['parts']), sorted(sys.modules.keys() & {'yaml', 'jinja2', 'packaging', 'image_pipeline'}))")
    result = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(REPO)], input=_layout("npu-a2", "linux/arm64"),
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(" ", 1)[1].strip() == "[]"
    assert int(result.stdout.split()[0]) == len(_plan("npu-a2", "linux/arm64")["parts"]) > 0


@pytest.mark.parametrize("change, message", [
    (lambda layout: {**layout, "image": "../../etc"}, "names image '../../etc' on 'linux/amd64': not an image"),
    (lambda layout: {**layout, "platform": "linux/--arm64"}, "not an image of this repository"),
    (lambda layout: {**layout, "format": 3}, "the layout is format 3, this installer reads format 2"),
    (lambda layout: {**layout, "image": "no-such-image"}, "no-such-image/pylock.linux-amd64.toml is missing"),
    (lambda layout: {**layout, "parts": [{"slug": "1-tools/deps"}]}, "not one this installer reads (KeyError: 'tier')"),
    (lambda layout: {**layout, "parts": "all"}, "not one this installer reads (TypeError"),
])
def test_a_layout_that_names_no_image_here_stops_in_one_line(change, message, tmp_path):
    layout = json.loads(_layout("cpu", "linux/amd64"))
    result = _host_install(change(layout), tmp_path / "venv", tmp_path / "cache", tmp_path / "wh")
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "venv").exists()


@pytest.mark.parametrize("damage, message", [
    (lambda root: edit(root / "images/cpu/pylock.linux-amd64.toml", 'image = "cpu"', 'image = "npu-a2"'),
     "locks npu-a2 on linux/amd64, the script installs cpu on linux/amd64"),
    (lambda root: edit(root / "images/cpu/pylock.linux-amd64.toml", "[[packages]]", "[[packages]"),
     "not a lock this installer reads (TOMLDecodeError"),
    (lambda root: edit(root / "images/cpu/pylock.linux-amd64.toml", "hashes = { sha256", "hashes = { md5"),
     "not a lock this installer reads (KeyError: 'sha256')"),
    (lambda root: (root / "images/cpu/pins.json").write_text("[]"), "pins.json: not the pins.json of image cpu"),
])
def test_a_damaged_lock_or_pins_file_stops_in_one_line_naming_it(damage, message, repo_copy, tmp_path):
    damage(repo_copy)
    result = subprocess.run([sys.executable, str(REPO / "baremetal/host_install.py"), "--repo", str(repo_copy),
                             "--venv", str(tmp_path / "venv"), "--cache", str(tmp_path / "cache")],
                            input=_layout("cpu", "linux/amd64"), capture_output=True, text=True)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "venv").exists()


def test_every_script_is_shellcheck_clean():
    assert lint.shellcheck_all(M, REPO) == 0


def test_shellcheck_catches_a_bad_script(repo_copy, capsys):
    edit(repo_copy / "templates/install.sh.j2", 'say() { echo "install.sh: $*"; }',
         'say() { echo "install.sh: $*"; }\nls $venv')
    assert run_in_process("render", root=repo_copy).returncode == 0
    assert lint.shellcheck_all(M, repo_copy) == 1
    out = capsys.readouterr().out
    assert "shellcheck images/cpu/install.linux-amd64.sh: FAILED" in out and "[SC2086]" in out


def test_the_plan_has_the_parts_of_the_dockerfile_in_its_order():
    for name, image in M.images.items():
        text = (REPO / "images" / name / "Dockerfile").read_text()
        stage = dockerfile.image_stages(text)  # the image's own steps, a layer each
        steps = re.findall(r"source=tiers/(\S+?),|^COPY --from=install-(?!venv )(\S+) ", stage, re.M)
        for platform in image.platforms:
            slugs = [part["slug"] for part in _plan(name, platform)["parts"]]
            assert [mounted or copied for mounted, copied in steps] == [
                slug if f"source=tiers/{slug}," in stage else slug.replace("/", "-") for slug in slugs]


def _fake_house(image, platform, lock, tmp_path) -> Wheelhouse:
    """Paths the build context links from, named as the wheelhouse names them, with no bytes to download."""
    def touch(name):
        path = tmp_path / "house" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name)
        return path

    house = Wheelhouse(files={e.name: touch(e.artifact.name) for e in lock.packages})
    house.source_builds = {b["component"]: touch(b["url"].rsplit("/", 1)[1]) for b in lock.source_builds}
    for item in lock.externals:
        if item["origin"].endswith(".git"):
            (tmp_path / "house" / item["component"]).mkdir(parents=True)
            house.externals[item["component"]] = tmp_path / "house" / item["component"]
        else:
            wheel = touch(f"{item['dist']}-{item['version']}-py3-none-any.whl")
            house.externals[item["component"]] = wheel
            if not item.get("sha256"):  # as the wheelhouse records a file fetched with --allow-unverified
                house.unverified.append(Unverified(item["component"], wheel.name, sha256_file(wheel)))
    house.archives = {a["component"]: [touch(f"{w}-0-py3-none-any.whl") for w in a["wheels"]] for a in lock.archives}
    return house


@pytest.mark.parametrize("name, platform", [(name, p) for name, image in M.images.items() for p in image.platforms])
def test_the_script_installs_what_the_build_context_holds(name, platform, tmp_path):
    """Each part of the plan is the tier directory the image build mounts: the same requirements.txt and
    sources.json items (the host fetches `fetch` itself and keeps its own system packages)."""
    image = M.images[name]
    lock = lockfile.read(lockfile.path_for(REPO, name, platform))
    rendered = dockerfile.render_image(dockerfile.environment(REPO / "templates"), M, image)
    target = context.assemble(REPO, image, platform, rendered, _fake_house(image, platform, lock, tmp_path),
                              tmp_path / "context")
    for part in _plan(name, platform)["parts"]:
        directory = target / "tiers" / part["slug"]
        assert (directory / "requirements.txt").read_text() == "".join(line + "\n" for line in part["requirements"])
        assert {p.name for p in (directory / "files").iterdir()} >= {f["name"] for f in part["files"]}
        built = json.loads((directory / "sources.json").read_text())
        planned = part["sources"]
        host_fills = {"fetch", "files"} | {"file", "sha256"}  # the wheels it fetched, and the sha256 it checked
        assert [{k: v for k, v in i.items() if k not in host_fills} for i in planned["items"]] == \
               [{k: v for k, v in i.items() if k not in host_fills} for i in built["items"]]
        assert [i.get("sha256") for i in planned["items"] if i.get("sha256")] == \
               [i["sha256"] for i in built["items"] if i.get("sha256") and i["component"] in
                {p["component"] for p in planned["items"] if p.get("sha256")}]
        assert (planned["compile"], planned["soc_version"]) == (built["compile"], built["soc_version"])


def test_the_host_fetches_each_git_source_at_the_commit_pins_yaml_pins():
    """The build context drops `fetch` (the wheelhouse fetched the tree), so this holds the host's side: the
    repo, ref and commit each git item is fetched at come from the pin, through pins.json."""
    fetched = []
    for name, image in M.images.items():
        for platform in image.platforms:
            for part in _plan(name, platform)["parts"]:
                for item in part["sources"]["items"]:
                    comp = M.components[item["component"]]
                    if comp.source == "git":
                        ref = {"tag": comp.get("tag")} if comp.get("tag") else {"branch": comp.get("branch")}
                        assert item["fetch"] == {"git": comp.get("repo"), **ref, "commit": comp.get("commit")}
                        fetched.append(comp.name)
    assert {"megatron-lm", "mindspeed", "sglang"} <= set(fetched)


def test_the_activation_env_is_the_env_of_the_images_own_stages():
    for name, image in M.images.items():
        text = (REPO / "images" / name / "Dockerfile").read_text()
        final = dockerfile.image_stages(text)
        declared = re.findall(r"^(?:ENV |    )([A-Z_]+)=", final, re.M)
        plan = _plan(name, image.platforms[0])
        assert [key for key, _ in plan["env"]] == [k for k in declared if k not in (image.base.get("env") or {})]
        env = dict(plan["env"])
        assert env["VERL_USE_EXTERNAL_MODULES"] == image.env["VERL_USE_EXTERNAL_MODULES"]
        assert env["PATH"].startswith(plan["image_venv"] + "/bin:") and env["VIRTUAL_ENV"] == plan["image_venv"]
        assert plan["env_scripts"] == list(image.base.get("env_scripts") or ())
        assert plan["system_site_packages"] == (f"-m venv --system-site-packages {plan['image_venv']}" in text)


def test_the_scripts_check_the_facts_the_base_pins():
    for name, image in M.images.items():
        for platform in image.platforms:
            text = (REPO / "images" / name / install_script.script_name(platform)).read_text()
            assert f"\nPYTHON_VERSION={image.python}\n" in text
            assert f"\nGLIBC={image.base.get('glibc').replace('_', '.')}\n" in text
            assert f"\nARCH={'x86_64' if platform.endswith('amd64') else 'aarch64'}\n" in text
            assert f"\nCANN_VERSION={image.cann_version}\n" in text and (image.cann_version != "") == (image.device == "npu")
            assert _plan(name, platform)["pins"] == json.loads((REPO / "images" / name / "pins.json").read_text())


def test_the_readme_image_table_links_every_script():
    text = (REPO / "README.md").read_text()
    for script in _scripts():
        assert f"]({script})" in text, script


def test_export_writes_the_rendered_scripts_of_one_platform(repo_copy):
    for script in _scripts(repo_copy):
        (repo_copy / script).unlink()
    result = run_in_process("export", "cpu", "--platform", "linux/arm64", root=repo_copy)
    assert result.returncode == 0, result.stderr
    assert "wrote images/cpu/install.linux-arm64.sh" in result.stdout
    assert (repo_copy / "images/cpu/install.linux-arm64.sh").read_bytes() == \
        (REPO / "images/cpu/install.linux-arm64.sh").read_bytes()
    assert not (repo_copy / "images/cpu/install.linux-amd64.sh").exists()
    outputs = tree.render_all(M, REPO, readme_blocks())
    assert all(outputs[Path(s)] == (REPO / s).read_text() for s in _scripts())


# ---------------------------------------------------------------- baremetal/host_install.py, for real

def _wheel(directory: Path, dist: str) -> Path:
    """A small valid wheel of `dist` 0 with one package, written into directory."""
    import base64
    import hashlib
    import zipfile

    files = {f"{dist}/__init__.py": f"NAME = {dist!r}\n", f"{dist}-0.dist-info/METADATA":
             f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0\n", f"{dist}-0.dist-info/WHEEL":
             "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    lines = [f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()},"
             f"{len(text)}" for path, text in files.items()]
    path = directory / f"{dist}-0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as bundle:
        for name, text in files.items():
            bundle.writestr(name, text)
        bundle.writestr(f"{dist}-0.dist-info/RECORD", "\n".join(lines + [f"{dist}-0.dist-info/RECORD,,"]) + "\n")
    return path


def _tiny_plan(wheelhouse: Path) -> dict:
    """Two tiers, each with an empty dependencies part and one pinned wheel (alpha, then beta)."""
    import hashlib

    (wheelhouse / "files").mkdir(parents=True)
    parts, stack = [], {}
    sources = {"apt_build": [], "compile": False, "items": [], "soc_version": ""}
    for position, dist in enumerate(("alpha", "beta"), 1):
        wheel = _wheel(wheelhouse / "files", dist)
        sha256 = hashlib.sha256(wheel.read_bytes()).hexdigest()
        parts.append({"slug": f"{position}-{dist}/deps", "requirements": [], "files": [], "sources": sources})
        parts.append({"slug": f"{position}-{dist}/pins", "requirements": [f"{dist}==0 --hash=sha256:{sha256}"],
                      "files": [{"name": wheel.name, "sha256": sha256, "url": "", "index": "", "project": dist}],
                      "sources": sources})
        stack[dist] = [{"name": dist, "dist": dist, "source": "pypi", "version": "0"}]
    pins = {"image": "tiny", "tag": "tiny", "device": "cpu", "python": "%d.%d" % sys.version_info[:2], "stack": stack,
            "constraints": [], "env": {"TINY": "1"}, "patches": [], "wins_over": [], "without": [],
            "mounted_libraries": []}
    return {"format": 1, "image": "tiny", "platform": "linux/amd64", "lock_inputs": "0", "python": pins["python"],
            "device": "cpu", "system_site_packages": False, "image_venv": "/opt/venv", "env_scripts": [],
            "env": [["VIRTUAL_ENV", "/opt/venv"], ["PATH", "/opt/venv/bin:$PATH"], ["TINY", "1"]], "patches": [],
            "pins": pins, "parts": parts}


def _host_install(plan, venv, cache, wheelhouse):
    return subprocess.run([sys.executable, str(REPO / "baremetal/host_install.py"), "--repo", str(REPO), "--venv",
                           str(venv), "--cache", str(cache), "--wheelhouse", str(wheelhouse)],
                          input=json.dumps(plan), capture_output=True, text=True)


def _venv_state(venv: Path) -> dict:
    return {p.relative_to(venv).as_posix(): (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(venv.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def test_host_install_checks_every_file_before_it_touches_the_environment(tmp_path):
    plan = _tiny_plan(tmp_path / "wh")
    corrupt = tmp_path / "wh" / "files" / "beta-0-py3-none-any.whl"  # the last part's: the others are fine
    data = corrupt.read_bytes()
    corrupt.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    result = _host_install(plan, tmp_path / "venv", tmp_path / "cache", tmp_path / "wh")
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"host_install: {corrupt} has sha256 ") and "nothing was installed" in line
    assert not (tmp_path / "venv").exists()


def test_host_install_resumes_after_a_failure_and_a_second_run_changes_nothing(tmp_path):
    plan = _tiny_plan(tmp_path / "wh")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    (site / "beta").write_text("a file where beta's package directory goes: its install fails")
    failed = _host_install(plan, venv, tmp_path / "cache", tmp_path / "wh")
    assert failed.returncode == 1
    assert "installing 2-beta/pins failed" in failed.stderr and "resumes at 2-beta/pins" in failed.stderr
    assert (site / "alpha" / "__init__.py").exists()

    (site / "beta").unlink()
    resumed = _host_install(plan, venv, tmp_path / "cache", tmp_path / "wh")
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "3 of 4 parts were installed already" in resumed.stdout
    assert "installing 2-beta/pins" in resumed.stdout and "installing 1-alpha" not in resumed.stdout
    check = subprocess.run(["bash", "-c", f"source {venv}/bin/activate-verl && python -c "
                            "'import alpha, beta, os, sys; print(alpha.NAME, beta.NAME, os.environ[\"TINY\"], sys.prefix)'"],
                           capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert check.stdout.split() == ["alpha", "beta", "1", str(venv)], check.stderr
    assert json.loads((venv / "verl-image/pins.json").read_text()) == plan["pins"]

    before = _venv_state(venv)
    again = _host_install(plan, venv, tmp_path / "cache", tmp_path / "wh")
    assert again.returncode == 0, again.stderr
    assert f"nothing changed: {venv} already holds tiny" in again.stdout
    assert _venv_state(venv) == before


def test_host_install_names_torchs_index_in_the_environments_pip_conf_as_the_image_does(tmp_path):
    """The image's venv has a pip.conf naming the index its torch came from (pins.json pip_extra_index); the
    environment a host install makes gets the same one, and the smoke suite's conformance.pip_index holds it."""
    plan = _tiny_plan(tmp_path / "wh")
    arch = {"x86_64": "amd64", "aarch64": "arm64"}[os.uname().machine]
    url = "https://download.example/whl/cpu"
    plan["platform"] = f"linux/{arch}"
    plan["pins"]["pip_extra_index"] = {plan["platform"]: url}
    venv = tmp_path / "venv"
    result = _host_install(plan, venv, tmp_path / "cache", tmp_path / "wh")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (venv / "pip.conf").read_text() == f"[global]\nextra-index-url = {url}\n"
    import shutil

    import packaging  # the tiny stack lacks what the suite's conformance module imports: lent to it alone
    shutil.copytree(Path(packaging.__file__).parent, tmp_path / "lent" / "packaging")
    suite = subprocess.run([str(venv / "bin/python"), "-m", "smoke_tests", "--only", "conformance.pip_index",
                            "--artifacts", str(tmp_path / "out")], capture_output=True, text=True, cwd=tmp_path,
                           env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path / "lent")})
    statuses = {r["name"]: r["status"] for r in json.loads((tmp_path / "out/results.json").read_text())}
    assert statuses == {"conformance.pip_index": "PASS"}, suite.stdout + suite.stderr


def test_host_install_leaves_a_pip_conf_of_the_users_own_alone_and_says_what_to_add(tmp_path):
    plan = _tiny_plan(tmp_path / "wh")
    plan["pins"]["pip_extra_index"] = {plan["platform"]: "https://download.example/whl/cpu"}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    (venv / "pip.conf").write_text("[global]\ntimeout = 5\n")
    result = _host_install(plan, venv, tmp_path / "cache", tmp_path / "wh")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (venv / "pip.conf").read_text() == "[global]\ntimeout = 5\n"
    assert "add `extra-index-url = https://download.example/whl/cpu` under [global]" in result.stdout


# ---------------------------------------------------------------- the smoke suite in an exported environment

def _exported_python(tmp_path, pins: dict) -> Path:
    """A python whose prefix looks like a host install's: verl-image/export.json and pins.json beside it."""
    venv = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (venv / "verl-image").mkdir()
    (venv / "verl-image" / "export.json").write_text(json.dumps({"image": pins["image"]}))
    (venv / "verl-image" / "pins.json").write_text(json.dumps(pins))
    return venv / "bin" / "python"


def _suite(python, tmp_path, *args):
    result = subprocess.run([str(python), "-m", "smoke_tests", "--artifacts", str(tmp_path / "out"), *args],
                            capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    return result, {r["name"]: r for r in json.loads((tmp_path / "out" / "results.json").read_text())}


def test_image_only_checks_are_not_run_in_an_exported_environment_and_do_not_fail_it(tmp_path):
    python = _exported_python(tmp_path, json.loads((REPO / "images/cpu/pins.json").read_text()))
    result, results = _suite(python, tmp_path, "--only", "conformance.leftovers")  # pins.json: the export's
    assert result.returncode == 0, result.stdout + result.stderr
    assert results["conformance.leftovers"]["status"] == "NOT RUN"
    assert "applies only inside an image" in results["conformance.leftovers"]["detail"]
    assert "exported: " in result.stdout


def test_a_device_check_not_run_still_fails_an_exported_environment(tmp_path):
    python = _exported_python(tmp_path, json.loads((REPO / "images/npu-a3/pins.json").read_text()))
    result, results = _suite(python, tmp_path, "--only", "conformance.leftovers,train")
    assert result.returncode == 1
    assert results["train"]["status"] == results["conformance.leftovers"]["status"] == "NOT RUN"
    assert "no NPU" in results["train"]["detail"]


def test_the_leftovers_check_names_what_the_build_left(tmp_path, monkeypatch):
    from smoke_tests import conformance
    from smoke_tests.outcome import CheckInput

    (tmp_path / "tier").mkdir()
    monkeypatch.setattr(conformance, "LEFTOVERS", (str(tmp_path / "tier"), str(tmp_path / "pip.conf")))
    assert conformance.leftovers(CheckInput({})).status == "PASS"  # an empty mount point is no leftover
    (tmp_path / "tier" / "torch.whl").write_text("x")
    (tmp_path / "pip.conf").write_text("[global]\nindex-url = https://user:token@example/simple\n")
    result = conformance.leftovers(CheckInput({}))
    assert result.status == "FAIL"
    assert f"{tmp_path}/tier/torch.whl is in the image" in result.detail and "pip.conf is in the image" in result.detail


# ---------------------------------------------------------------- what the NPU scripts fetch, from a wheelhouse

def _host_module():
    sys.path.insert(0, str(REPO / "baremetal"))
    try:
        import host_install
    finally:
        sys.path.pop(0)
    return host_install


def _git(cwd, *args):
    return subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout.strip()


@pytest.mark.parametrize("ref", ["tag", "branch"])
def test_a_git_source_is_proven_again_offline_from_the_wheelhouse(tmp_path, ref):
    """The wheelhouse keeps each git source as a repository; the host proves the pinned commit against it
    with fetch_source.py, as the image's build proves it against the real one, with upstream gone."""
    from image_pipeline.builder import wheelhouse as host_side
    from image_pipeline.manifest.model import Component

    upstream = tmp_path / "upstream"
    upstream.mkdir()
    _git(upstream, "init", "-q", "-b", "main")
    _git(upstream, "config", "uploadpack.allowFilter", "true")  # as GitHub: the checkout is a partial clone
    for text in ("zero\n", "one\n"):  # history before the pinned commit: blobs the checkout never fetched
        (upstream / "setup.py").write_text(text)
        _git(upstream, "add", "setup.py")
        _git(upstream, "commit", "-q", "-m", text.strip())
    first = _git(upstream, "rev-parse", "HEAD")
    _git(upstream, "tag", "v1")
    (upstream / "setup.py").write_text("two\n")
    _git(upstream, "commit", "-q", "-am", "two")
    pin = {"tag": "v1"} if ref == "tag" else {"branch": "main"}
    comp = Component("megatron-lm", ("components", "megatron-lm"),
                     {"source": "git", "repo": f"file://{upstream}", "commit": first, **pin})
    tree = host_side.checkout(comp, tmp_path / "cache")
    host_side._export_tree(comp, tree, tmp_path / "wh" / "src" / f"megatron-lm-{first}")
    subprocess.run(["rm", "-rf", str(upstream)], check=True)

    host = _host_module()
    fetch = {"git": f"file://{upstream}", "commit": first, **pin}
    fetcher = host.Fetcher({"image": "npu-a3", "platform": "linux/arm64"}, REPO, tmp_path / "host-cache", tmp_path / "wh")
    proven = fetcher.tree("megatron-lm", fetch)
    assert _git(proven, "rev-parse", "HEAD") == first and (proven / "setup.py").read_text() == "one\n"

    if ref == "tag":  # a wheelhouse whose tag points elsewhere than pinned is refused, as a moved tag is
        moved = tmp_path / "wh" / "src" / f"megatron-lm-{first}"
        (moved / "other").write_text("x")
        _git(moved, "add", "-f", "other")
        _git(moved, "commit", "-q", "-m", "moved")
        _git(moved, "tag", "-f", "v1")
        subprocess.run(["rm", "-rf", str(tmp_path / "host-cache" / "src")], check=True)
        with pytest.raises(host.InstallError, match=f"tag v1 resolves to .*, pinned {first}: the tag moved"):
            fetcher.tree("megatron-lm", fetch)


def test_archives_and_index_externals_come_from_the_wheelhouse_as_the_lock_says(tmp_path):
    import hashlib

    from test_sources import make_archive

    host = _host_module()
    files = tmp_path / "wh" / "files"
    files.mkdir(parents=True)
    zipped = make_archive(files / "kernels-1-aarch64.zip", ["torch-memory-saver", "deep-ep"])
    sha256 = hashlib.sha256(zipped.read_bytes()).hexdigest()
    fetcher = host.Fetcher({"image": "npu-sglang-a3", "platform": "linux/arm64"}, REPO, tmp_path / "cache",
                           tmp_path / "wh")
    fetch = {"archive": f"https://example.invalid/{zipped.name}", "sha256": sha256,
             "wheels": ["torch-memory-saver", "deep-ep"], "files": []}
    wheels = fetcher.archive("sgl-kernel-npu-a3", fetch)
    assert [w.name for w in wheels] == ["torch_memory_saver-0-py3-none-any.whl", "deep_ep-0-py3-none-any.whl"]
    with pytest.raises(host.InstallError, match=f"{zipped} has sha256 {sha256}, the lock pins {'0' * 64}"):
        fetcher.archive("sgl-kernel-npu-a3", {**fetch, "sha256": "0" * 64})
    with pytest.raises(host.InstallError, match="holds 0 wheels of sgl-kernel-npu, not one"):
        fetcher.archive("sgl-kernel-npu-a3", {**fetch, "wheels": ["sgl-kernel-npu"]})

    arch = os.uname().machine
    (files / f"triton_ascend-3.2.2-cp312-cp312-manylinux_2_27_{arch}.whl").write_bytes(b"wheel")
    external = {"dist": "triton-ascend", "version": "3.2.2", "index": "https://example.invalid/simple",
                "platform": "linux/arm64"}
    assert fetcher.external(external).name.startswith("triton_ascend-3.2.2-")
    with pytest.raises(host.InstallError, match="holds 0 wheels of triton-ascend 3.3.0"):
        fetcher.external({**external, "version": "3.3.0"})


def test_a_python_that_is_no_venv_or_conda_environment_is_refused_unless_asked(tmp_path):
    host = _host_module()
    system = tmp_path / "usr"
    (system / "bin").mkdir(parents=True)
    (system / "bin" / "python").symlink_to(sys.executable)
    environment = host.Environment({"system_site_packages": False, "python": "3"}, system)
    with pytest.raises(host.InstallError, match="is no venv or conda environment .* pass --system-python"):
        environment.ensure(allow_system=False)
    assert environment.ensure(allow_system=True) is False  # asked: installed into as it is, nothing created
    (system / "conda-meta").mkdir()
    assert environment.ensure(allow_system=False) is False  # a conda environment is one to install into


def test_without_a_wheelhouse_files_are_downloaded_by_their_locked_url_or_index_page_and_checked(tmp_path):
    import functools
    import hashlib
    import http.server
    import threading

    served = tmp_path / "served"
    (served / "files").mkdir(parents=True)
    (served / "simple" / "beta").mkdir(parents=True)
    alpha, beta = _wheel(served / "files", "alpha"), _wheel(served / "files", "beta")
    (served / "simple" / "beta" / "index.html").write_text(f'<a href="../../files/{beta.name}#sha256=x">{beta.name}</a>')
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        host = _host_module()
        fetcher = host.Fetcher({"image": "tiny", "platform": "linux/amd64"}, REPO, tmp_path / "cache", None)
        sha = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (alpha, beta)}
        got = fetcher.file(alpha.name, sha[alpha.name], f"{base}/files/{alpha.name}")
        assert got == tmp_path / "cache" / "files" / sha[alpha.name] / alpha.name and got.read_bytes() == alpha.read_bytes()
        got = fetcher.file(beta.name, sha[beta.name], "", f"{base}/simple", "beta")  # the lock has no URL for it
        assert got.read_bytes() == beta.read_bytes()
        with pytest.raises(host.InstallError, match=f"served sha256 {sha[alpha.name]}, the lock pins {'0' * 64}"):
            fetcher.file(alpha.name, "0" * 64, f"{base}/files/{alpha.name}")
        assert not list((tmp_path / "cache" / "files" / ("0" * 64)).iterdir())  # no file, no partial one
    finally:
        server.shutdown()


def _with_external(plan: dict, wheelhouse: Path, dist: str, sha256: str = "") -> dict:
    """The tiny plan with an index external of `dist` in its last part: a wheel in the wheelhouse the lock
    holds `sha256` for ("" where its index did not answer `build.py lock`)."""
    _wheel(wheelhouse / "files", dist)
    item = {"kind": "index", "component": dist, "dist": dist, "fetch": {
        "dist": dist, "version": "0", "index": "https://example.invalid/simple", "platform": "linux/amd64",
        "sha256": sha256}}
    last = plan["parts"][-1]
    plan["parts"][-1] = {**last, "sources": {**last["sources"], "items": [item]}}
    return plan


def _host_install_allowing(plan, tmp_path, *allowed):
    flags = [arg for name in allowed for arg in ("--allow-unverified", name)]
    return subprocess.run([sys.executable, str(REPO / "baremetal/host_install.py"), "--repo", str(REPO), "--venv",
                           str(tmp_path / "venv"), "--cache", str(tmp_path / "cache"), "--wheelhouse",
                           str(tmp_path / "wh"), *flags], input=json.dumps(plan), capture_output=True, text=True)


def test_a_file_without_a_sha256_is_refused_before_anything_is_installed_unless_allowed(tmp_path):
    plan = _with_external(_tiny_plan(tmp_path / "wh"), tmp_path / "wh", "gamma")
    refused = _host_install_allowing(plan, tmp_path)
    assert refused.returncode == 1
    (line,) = refused.stderr.strip().splitlines()
    assert "no sha256 for the files of gamma" in line and "--allow-unverified gamma" in line, line
    assert not (tmp_path / "venv").exists()
    typo = _host_install_allowing(plan, tmp_path, "gamma", "gamm")
    assert typo.returncode == 1 and "--allow-unverified gamm: tiny has no unverified file" in typo.stderr
    allowed = _host_install_allowing(plan, tmp_path, "gamma")
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    listed = [line for line in allowed.stdout.splitlines() if "unverified: gamma: gamma-0-py3-none-any.whl" in line]
    assert len(listed) == 1 and "taken as served (--allow-unverified)" in allowed.stdout


def test_a_garbage_external_is_refused_even_with_a_pinned_sha256(tmp_path):
    import hashlib

    wheelhouse = tmp_path / "wh"
    plan = _tiny_plan(wheelhouse)
    good = _wheel(tmp_path, "gamma")
    plan = _with_external(plan, wheelhouse, "gamma", hashlib.sha256(good.read_bytes()).hexdigest())
    (wheelhouse / "files" / "gamma-0-py3-none-any.whl").write_bytes(b"not a wheel")
    result = _host_install_allowing(plan, tmp_path)
    assert result.returncode == 1 and "the lock pins" in result.stderr and "not the locked file" in result.stderr
    assert not (tmp_path / "venv").exists()


def test_a_wheel_inside_an_archive_that_is_not_the_one_the_lock_recorded_is_refused(tmp_path):
    import hashlib

    from test_sources import make_archive

    host = _host_module()
    files = tmp_path / "wh" / "files"
    files.mkdir(parents=True)
    zipped = make_archive(files / "kernels-1-aarch64.zip", ["deep-ep"])
    fetcher = host.Fetcher({"image": "npu-sglang-a3", "platform": "linux/arm64"}, REPO, tmp_path / "cache",
                           tmp_path / "wh")
    fetch = {"archive": f"https://example.invalid/{zipped.name}", "sha256": hashlib.sha256(zipped.read_bytes()).hexdigest(),
             "wheels": ["deep-ep"], "files": [{"name": "deep_ep-0-py3-none-any.whl", "sha256": "0" * 64}]}
    with pytest.raises(host.InstallError, match="deep_ep-0-py3-none-any.whl in kernels-1-aarch64.zip is not the wheel"):
        fetcher.archive("sgl-kernel-npu-a3", fetch)
