"""The benchmarks' hand-written Dockerfile is a fair upstream-style file, not a strawman: the weekly components
(transformers, then verl) installed last, pip's cache purged in every pip step, nothing copied into a layer to be
deleted later, the host's pip settings and CA as BuildKit secrets, every version from the pins."""

import dataclasses
import functools
import re
import sys

import pytest

from conftest import REPO, manifest

sys.path.insert(0, str(REPO / "benchmarks"))

import handwritten  # noqa: E402
from image_pipeline import network  # noqa: E402

IMAGE = manifest().default_image
PLATFORMS = IMAGE.platforms


def instructions(dockerfile: str) -> list:
    """(keyword, arguments) of each instruction, continuation lines joined, comments left out."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in dockerfile.splitlines()
                                             if not line.lstrip().startswith("#")))
    return [tuple(line.strip().split(None, 1)) for line in joined.splitlines() if line.strip()]


def pip_steps(dockerfile: str) -> list:
    return [args for keyword, args in instructions(dockerfile) if keyword == "RUN" and "pip install" in args]


def assert_weekly_components_last(dockerfile: str, image, platform: str) -> None:
    view = image.on(platform)
    transformers, verl = view.role("transformers"), view.role("verl")
    *_, before_last, last = pip_steps(dockerfile)
    assert f'"{transformers.dist}=={transformers.version_for(platform)}"' in before_last, before_last
    assert re.search(rf'"{verl.dist}(\[[^]]*\])?=={re.escape(verl.version_for(platform))}"', last), last
    others = [c.dist for c in view.components if c not in (transformers, verl)]
    assert not any(re.search(rf'"{re.escape(dist)}\b', before_last + last) for dist in others), (before_last, last)


def assert_every_pip_step_purges_its_cache(dockerfile: str) -> None:
    for step in pip_steps(dockerfile):
        installs = step.count("pip install")
        assert step.rstrip().endswith("pip cache purge") or step.count("--no-cache-dir") == installs, step


def assert_nothing_copied_into_a_layer(dockerfile: str) -> None:
    """Wheels, patches, pip settings and the CA are mounted for the step that reads them, never COPY'd (a file
    copied into one layer and deleted in the next still ships in the first)."""
    copied = [(keyword, args) for keyword, args in instructions(dockerfile) if keyword in ("COPY", "ADD")]
    assert not copied, copied


def assert_pip_settings_are_secrets(dockerfile: str) -> None:
    for step in pip_steps(dockerfile):
        assert f"--mount=type=secret,id={handwritten.PIP_CONF},target=/etc/pip.conf" in step, step
        assert f"--mount=type=secret,id={handwritten.CA}" in step, step


@functools.lru_cache(maxsize=None)
def rendered(platform: str) -> str:
    return handwritten.render(IMAGE, platform)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_transformers_then_verl_are_the_last_installs(platform):
    assert_weekly_components_last(rendered(platform), IMAGE, platform)


def test_transformers_then_verl_stay_last_whatever_the_tier_order():
    """Upstream installs what moves weekly last; the tiers' role order (pins.yaml) does not decide it."""
    reversed_tiers = tuple(dataclasses.replace(tier, roles=tuple(reversed(tier.roles))) for tier in IMAGE.tiers)
    image = dataclasses.replace(IMAGE, tiers=tuple(reversed(reversed_tiers)))
    for platform in PLATFORMS:
        assert_weekly_components_last(handwritten.render(image, platform), image, platform)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_pip_step_purges_pips_cache(platform):
    assert pip_steps(rendered(platform))
    assert_every_pip_step_purges_its_cache(rendered(platform))


@pytest.mark.parametrize("platform", PLATFORMS)
def test_no_file_is_copied_into_a_layer(platform):
    assert_nothing_copied_into_a_layer(rendered(platform))


@pytest.mark.parametrize("platform", PLATFORMS)
def test_pip_settings_reach_every_pip_step_as_secrets(platform):
    assert_pip_settings_are_secrets(rendered(platform))


def test_the_template_holds_no_version():
    template = handwritten.TEMPLATE.read_text()
    assert not re.findall(r"\d+\.\d+", template)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_pin_is_installed_at_its_pinned_version(platform):
    text = rendered(platform)
    for comp in IMAGE.on(platform).components:
        pinned = comp.get("url") if comp.source == "url" else f"=={comp.version_for(platform)}"
        assert any(f'"{comp.dist}' in step and pinned in step for step in pip_steps(text)), comp.name
    assert f"FROM {handwritten.base.local_reference(IMAGE.base, platform)}\n" in text


def test_the_off_pypi_wheel_is_mounted_into_its_step_only():
    """x86_64 torch comes from the PyTorch CPU index (here the host's mirror): a bind mount of the context's
    wheels/, into the one step that installs it, as upstream passes --index-url to that step."""
    for platform in PLATFORMS:
        mounted = [step for step in pip_steps(rendered(platform)) if "source=wheels" in step]
        off_pypi = [c for c in IMAGE.on(platform).components if c.index_for(platform) != "pypi"]
        assert len(mounted) == len(off_pypi)
        for step, comp in zip(mounted, off_pypi):
            assert f'--find-links /tmp/wheels "{comp.dist}=={comp.version_for(platform)}"' in step


def test_pip_conf_carries_the_ca_and_remote_indexes_only(tmp_path):
    ca = tmp_path / "ca.crt"
    ca.write_text("ca")
    profile = network.from_host(pip_config={"index-url": "https://mirror.example/simple", "cert": str(ca),
                                            "extra-index-url": "file:///opt/pypi/simple https://more.example/simple",
                                            "find-links": str(tmp_path)})
    conf = handwritten.pip_conf(profile)
    assert "cert = /run/secrets/ca.crt" in conf
    assert "index-url = https://mirror.example/simple" in conf
    assert "extra-index-url = https://more.example/simple\n" in conf
    assert "file://" not in conf and str(tmp_path) not in conf


def test_the_build_uses_buildkit_host_network_and_secrets(monkeypatch, tmp_path):
    """build(): the BuildKit client's environment, --network host, and the pip settings and CA as secret files
    that exist while docker reads them (and are gone after)."""
    from image_pipeline.builder import engine

    ca = tmp_path / "ca.crt"
    ca.write_text("ca")
    profile = network.from_host(pip_config={"cert": str(ca)})
    seen = {}

    def fake_run(cmd, **kwargs):
        seen["cmd"], seen["env"] = cmd, kwargs["env"]
        secrets = dict(arg.removeprefix("id=").split(",src=") for arg in cmd if arg.startswith("id="))
        seen["conf"] = open(secrets[handwritten.PIP_CONF]).read()
        seen["ca"] = secrets[handwritten.CA]
        return type("Done", (), {"returncode": 0, "stdout": "", "stderr": ""})()

    monkeypatch.setattr(engine, "buildkit_command", lambda: (("docker", "build"), {"DOCKER_BUILDKIT": "1"}))
    monkeypatch.setattr(handwritten.subprocess, "run", fake_run)
    handwritten.build(tmp_path, "bench:test", "linux/amd64", profile)
    assert seen["env"]["DOCKER_BUILDKIT"] == "1"
    assert seen["cmd"][:2] == ["docker", "build"]
    assert seen["cmd"][seen["cmd"].index("--network") + 1] == "host"
    assert seen["conf"] == handwritten.pip_conf(profile) and seen["ca"] == str(ca)
    assert seen["cmd"][-1] == str(tmp_path)
