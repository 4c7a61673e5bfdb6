"""pins.yaml: the real manifest loads, expands its axes, resolves every reference, and keeps
its promises about the stack. Expected values are read from pins.yaml itself."""

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from image_pipeline.errors import UserError
from image_pipeline.manifest.load import RENAMED_COMPONENTS, RENAMED_PIN_FIELDS
from image_pipeline.manifest import load_manifest
from image_pipeline.manifest.document import MAX_DEPTH, parse

from conftest import REPO, copy_repo, edit, manifest

RAW = YAML(typ="safe").load((REPO / "pins.yaml").read_text())
M = manifest()


def test_every_image_entry_expands_over_its_axes():
    expected = []
    for key, body in RAW["images"].items():
        combos = [{}]
        for axis, values in (body.get("expand") or {}).items():
            combos = [{**c, axis: v} for c in combos for v in values]
        expected += [key.format(**c) for c in combos]
    assert list(M.images) == expected
    assert sum(img.default for img in M.images.values()) == 1


def _overrides(raw) -> dict:
    """Expanded image name -> the fields its entry's `override` sets (they win over the axis values)."""
    return {name: fields for body in raw["images"].values() for name, fields in (body.get("override") or {}).items()}


def _soc_axis_holds(raw, m):
    """Each NPU image takes its SoC fields from its soc axis value, unless its `override` sets them."""
    soc, overridden = raw["axes"]["soc"], _overrides(raw)
    for img in (i for i in m.images.values() if i.device == "npu"):
        value = {**soc[img.axes["soc"]], **overridden.get(img.name, {})}
        assert (img.soc_version, img.runner.name) == (value["soc_version"], value["runner"]), img.name
        base_from = next(raw["axes"][axis][img.axes[axis]] for axis in ("backend", "line")
                         if "base" in raw["axes"][axis].get(img.axes.get(axis), {}))
        assert img.base.name == base_from["base"].format(**img.axes)
    # everything not on the soc axis is shared, not copied: images whose other axes agree share one stack
    groups = {}
    for img in (i for i in m.images.values() if "soc" in i.axes and i.name not in overridden):
        others = tuple(sorted((k, v) for k, v in img.axes.items() if k != "soc"))
        soc = img.axes["soc"]  # a component named per SoC ({soc} in pins.yaml) is on the soc axis itself
        groups.setdefault(others, []).append({r: [c.name.replace(f"-{soc}", "-{soc}") for c in cs]
                                              for r, cs in img.stack.items()})
    assert all(stack == stacks[0] for stacks in groups.values() for stack in stacks)
    assert any(len(stacks) > 1 for stacks in groups.values())


def test_soc_axis_expands_without_copy_paste():
    _soc_axis_holds(RAW, M)


def test_the_soc_invariant_holds_for_a_valid_manifest_whose_image_overrides_its_soc_fields(tmp_path):
    """The invariant is about the loader, not today's pins.yaml: an image that overrides its runner and SoC
    (a valid manifest, as the README's add-an-image recipe writes one) keeps it."""
    copy_repo(tmp_path)
    text = (REPO / "pins.yaml").read_text()
    entry = "  npu-{soc}:\n    expand:\n"
    assert entry in text
    (tmp_path / "pins.yaml").write_text(text.replace(entry, "  npu-{soc}:\n    override:\n      npu-a3:\n"
                                                       "        runner: ascend-a2\n        soc_version: ascend910b1\n"
                                                       "    expand:\n", 1))
    raw = YAML(typ="safe").load((tmp_path / "pins.yaml").read_text())
    m = load_manifest(tmp_path / "pins.yaml", check_rules=False)
    assert m.images["npu-a3"].runner.name == "ascend-a2"
    _soc_axis_holds(raw, m)


def test_two_backends_share_one_npu_bundle_and_differ_only_where_their_axis_says():
    bundle = RAW["axes"]["line"]["latest"]["stack"]
    npu = [img for img in M.images.values() if img.device == "npu" and "backend" in img.axes]
    assert {img.axes["backend"] for img in npu} == set(RAW["axes"]["backend"])
    for img in npu:
        assert {role: img.role(role).name for role in bundle} == bundle, img.name
        own = RAW["axes"]["backend"][img.axes["backend"]]
        assert {role: [c.name for c in img.stack[role]] for role in own["stack"]} == {
            role: [n.format(**img.axes) for n in ([names] if isinstance(names, str) else names)]
            for role, names in own["stack"].items()}
        assert img.python == own["python"] and img.base.name == own["base"].format(**img.axes)
    vllm, sglang = M.images["npu-a3"], M.images["npu-sglang-a3"]
    assert vllm.role("torch").release != sglang.role("torch").release
    assert vllm.human_tag != sglang.human_tag and sglang.axes["backend"] in sglang.human_tag


def test_install_order_follows_the_tiers():
    order = [role for tier in RAW["tiers"] for role in tier["roles"]]
    for img in M.images.values():
        roles = [role for _, role, _ in img.installs()]
        assert roles == sorted(roles, key=order.index)
        assert roles.index("transformers") > roles.index("bridge")


def test_npu_images_install_upstreams_tested_stack_and_the_cpu_image_shares_it():
    npu, cpu = M.images["npu-a3"], M.default_image
    for role in ("transformers", "verl", "bridge", "vllm"):
        assert npu.role(role).release == cpu.role(role).release, role
    assert npu.role("mooncake").release == cpu.role("mooncake").release
    assert npu.role("mooncake").dist == "mooncake-transfer-engine-npu"
    assert cpu.role("torch").get("cpu_stand_in")  # the one shared release it cannot hold says why
    assert npu.python == npu.base.get("tag").split("-py")[1]


def test_every_git_source_is_pinned_by_full_commit():
    for comp in M.components.values():
        if comp.source == "git":
            assert len(comp.get("commit")) == 40 and comp.ref, comp.name


def test_override_changes_one_expanded_image(repo_copy):
    edit(repo_copy / "pins.yaml", "      backend: [vllm]\n", "      backend: [vllm]\n    override:\n      npu-a3:\n"
         "        env:\n          VERL_USE_EXTERNAL_MODULES: \"\"\n")
    changed = load_manifest(repo_copy / "pins.yaml")
    assert changed.images["npu-a3"].env["VERL_USE_EXTERNAL_MODULES"] == ""
    assert changed.images["npu-a2"].env["VERL_USE_EXTERNAL_MODULES"] == M.images["npu-a2"].env["VERL_USE_EXTERNAL_MODULES"]


def test_lists_from_axes_are_joined():
    bundle = RAW["axes"]["line"]["latest"]["constraints"]
    backend = RAW["axes"]["backend"]["vllm"]["constraints"]
    assert [c.name for c in M.images["npu-a2"].constraints] == bundle + backend


def test_users_and_alternatives_of_a_component():
    assert M.users_of("transformers") == [name for name, img in M.images.items() if not img.release]
    assert M.users_of("cann-9.1.0-a3") == ["npu-a3"]
    alternatives = {c.name for c in M.alternatives_of(M.images["npu-a3"])}
    assert alternatives == {name for name, body in RAW["components"].items() if "alternative_to" in body}
    assert M.alternatives_of(M.default_image) == []


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n", "- &x 1\n- *x\n", "a: [&x 1, *x]\n", "a: {b: &x 1, c: *x}\n",
    "? &x k\n: v\n", "--- &x\na: 1\n", "a: !!str &x v\n", "a:\n  - &x 1\n", "&x a: 1\n", "a: [1,&x 2]\n",
])
def test_every_placement_of_an_anchor_is_refused(text):
    """Anchors are refused while the document is composed: every place YAML lets an anchor stand
    passes through the composer (and the loader would accept these otherwise)."""
    with pytest.raises(UserError, match="are not allowed"):
        parse(text, Path("pins.yaml"))


def test_nesting_is_refused_past_max_depth_and_not_before():
    deepest = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)  # the root list and MAX_DEPTH levels inside it
    parse(deepest, Path("pins.yaml"))
    with pytest.raises(UserError, match=f"nesting is too deep \\(more than {MAX_DEPTH} levels\\)"):
        parse(f"[{deepest}]", Path("pins.yaml"))


@pytest.mark.parametrize("old_name, new_name", sorted(RENAMED_PIN_FIELDS.items()))
def test_a_pin_field_under_its_old_name_is_read_as_the_new_one_with_one_line_saying_so(tmp_path, capsys, old_name,
                                                                                       new_name):
    """`overrides` (one letter from an image's `override`) is now `wins_over`, `deviates` (a near-synonym of
    `differs`) `cpu_stand_in`: a pins.yaml written before a rename loads to the same manifest for one
    release, and says where the old name stands."""
    copy_repo(tmp_path)
    text = (REPO / "pins.yaml").read_text()
    assert text.count(f"    {new_name}:") >= 1
    (tmp_path / "pins.yaml").write_text(text.replace(f"    {new_name}:", f"    {old_name}:", 1))
    old = load_manifest(tmp_path / "pins.yaml", check_rules=False)
    (warning,) = capsys.readouterr().err.splitlines()
    line = text[:text.index(f"    {new_name}:")].count("\n") + 1
    renamed = next(c for c in M.components.values() if c.get(new_name))
    assert warning.startswith(f"warning: pins.yaml:{line}: {'.'.join(renamed.keypath)}.{old_name}: renamed to '{new_name}'")
    assert {n: c.get(new_name) for n, c in old.components.items()} == {n: c.get(new_name) for n, c in M.components.items()}
    assert old.doc.line(renamed.keypath + (new_name,)) == line


@pytest.mark.parametrize("old_name, new_name", sorted(RENAMED_COMPONENTS.items()))
def test_a_component_under_its_old_name_is_read_as_the_new_one_with_one_line_per_use(tmp_path, capsys, old_name,
                                                                                     new_name):
    """torch_npu was the one component named with an underscore: a pins.yaml written before the rename, its
    definition and its uses in images, loads to the same manifest for one release, each place named."""
    copy_repo(tmp_path)
    text = (REPO / "pins.yaml").read_text()
    uses = text.count(f"torch_npu: {new_name}\n")  # the role's component, in the images' stacks
    assert f"\n  {new_name}:\n" in text and uses >= 1
    old_text = text.replace(f"\n  {new_name}:\n", f"\n  {old_name}:\n").replace(f"torch_npu: {new_name}\n",
                                                                                      f"torch_npu: {old_name}\n")
    (tmp_path / "pins.yaml").write_text(old_text)
    old = load_manifest(tmp_path / "pins.yaml", check_rules=False)
    warnings = capsys.readouterr().err.splitlines()
    line = old_text[:old_text.index(f"\n  {old_name}:\n")].count("\n") + 2
    assert warnings[0] == (f"warning: pins.yaml:{line}: components.{old_name}: renamed to {new_name!r} (the old name is "
                           f"read until the next release)")
    assert len(warnings) >= 1 + uses and all(f"component {old_name!r} is renamed {new_name!r}" in w for w in warnings[1:])
    assert {n: i.components for n, i in old.images.items()} == {n: i.components for n, i in M.images.items()}
    assert old.doc.line(("components", new_name)) == line


def test_a_text_parsed_again_gives_a_document_of_its_own():
    """parse() remembers texts it has parsed (one process reads pins.yaml many times); what one reader
    changes, in the data, the lines or the tree bump edits, never reaches the next."""
    text = (REPO / "pins.yaml").read_text() + "# parsed by this test alone\n"  # the first parse is a miss
    fresh = parse(text + "\n", REPO / "pins.yaml").data
    for _ in range(3):  # a miss, then hits
        doc = parse(text, REPO / "pins.yaml")
        assert doc.data == fresh and doc.tree["components"] and doc.line(("components",)) > 1
        doc.data["components"].clear()
        doc.tree["components"].clear()
        doc.lines.clear()
