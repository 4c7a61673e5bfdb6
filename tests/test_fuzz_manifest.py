"""Property: no pins.yaml, however mangled, gets a traceback, an exit code other than 0 or 2, or a
changed file under images/ on error (load -> validate -> render, in process)."""

import re
import shutil
import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from image_pipeline.errors import UserError
from image_pipeline.manifest import document
from image_pipeline.paths import DOCUMENTS

from conftest import REPO, copy_repo, run_in_process, tree_snapshot

ORIGINAL = (REPO / "pins.yaml").read_text().splitlines(keepends=True)
DOC = document.load(REPO / "pins.yaml")
# values that look like what pins hold, and what an attacker or a typo would put there
NASTY = st.sampled_from(["$(id)", "`id`", "a;b", "a|b", "a&&b", "'", '"', "\\", "a b", "{x}", "[", "]", "{", "}",
                         "&a", "*a", "<<", "!!python/object", "0x10", "1e9", "null", "~", "true", "3.10", "-", "--x",
                         "https://u:p@h/x", "file:///etc", "..", "../x", "\t", "é", "\u202e", "#", ": ", "?", "%"])
# the classes of issue 23: tags, huge numbers, impossible dates, deep nesting, line separators, options,
# URLs with control characters or a file:// host, names and tags longer than Docker allows
ROUND_THREE = st.sampled_from([
    "!!python/object/apply:os.system [id]", "!x [a, b]", "!x {a: 1}", "!!binary aGk=", "!!set {a}", "!!omap [a: 1]",
    "9" * 5000, "-" + "9" * 5000, "0x" + "f" * 5000, "0o" + "7" * 5000, "2001-13-45", "2001-02-30 10:00:00",
    "[" * 300 + "]" * 300, "{a: " * 300 + "1" + "}" * 300, '"x\\Ly"', '"x\\Ny"', '"x\\Py"', '"\\ud800"',
    '"x\\0y"', "-c id", "+x", "--index-url=https://evil", '"https://h/x\\ny"', '"https://h/x\\t"',
    '" https://h/x"', "file://host/x", "quay.io/..", "quay.io/-x", "-quay.io/x", "a" * 129, "a" * 300,
    "1!2.0", '"1!{version}"'])
TEXT = st.text(alphabet=string.printable, max_size=30)
BYTES = st.sampled_from([b"\x00", b"\xff", b"\xed\xa0\x80", b"\x7f", b"\xc2\x85", b"\xe2\x80\xa8"])
IMAGE = next(key for key, body in DOC.data["images"].items() if "expand" not in body)


def explosion(axes: int, values: int, lines: list) -> list:
    """An image expanded over `axes` new axes of `values` values each."""
    block = "".join(f"  fz{a}:\n" + "".join(f"    v{v}: {{}}\n" for v in range(values)) for a in range(axes))
    expand = "".join(f"      fz{a}: [{', '.join(f'v{v}' for v in range(values))}]\n" for a in range(axes))
    name = IMAGE + "".join(f"-{{fz{a}}}" for a in range(axes))
    text = "".join(lines).replace(f"\n  {IMAGE}:\n", f"\n  {name}:\n    expand:\n{expand}", 1)
    return text.replace("\naxes:\n", f"\naxes:\n{block}", 1).splitlines(keepends=True)


@st.composite
def mangled(draw):
    lines = list(ORIGINAL)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        action = draw(st.sampled_from(["value", "delete", "insert", "key", "explode"]))
        value = draw(st.one_of(NASTY, ROUND_THREE, TEXT))
        if action == "value" and ":" in line:
            key = line.split(":", 1)[0]
            lines[index] = f"{key}: {value}\n"
        elif action == "key" and ":" in line:
            indent = line[:len(line) - len(line.lstrip())]
            lines[index] = f"{indent}{value}:{line.split(':', 1)[1]}"
        elif action == "delete":
            del lines[index]
        elif action == "explode":
            lines = explosion(draw(st.integers(1, 6)), draw(st.integers(2, 10)), lines)
        else:
            lines.insert(index, f"{line[:len(line) - len(line.lstrip())]}{value}\n")
    raw = "".join(lines).encode()
    if draw(st.integers(0, 9)) == 0:  # now and then a byte YAML refuses
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(BYTES) + raw[at:]
    return raw


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(raw=mangled())
def test_no_input_escapes_the_one_line_error(tmp_path_factory, raw):
    root = tmp_path_factory.getbasetemp() / "fuzz-repo"
    if not root.exists():
        copy_repo(root)
    (root / "pins.yaml").write_bytes(raw)
    images = root / "images"
    before = tree_snapshot(images)
    documents = {doc: (root / doc).read_text() for doc in DOCUMENTS}
    result = run_in_process("render", root=root)
    code = result.returncode
    try:
        assert code in (0, 2), result.stderr
        if code == 2:
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and re.match(r"error: pins\.yaml:\d+: ", lines[0]), result.stderr
            assert tree_snapshot(images) == before
            assert {doc: (root / doc).read_text() for doc in DOCUMENTS} == documents
    finally:
        if code == 0 and tree_snapshot(images) != before:
            shutil.rmtree(images)
            shutil.copytree(REPO / "images", images)
        for doc, text in documents.items():
            (root / doc).write_text(text)


# ---------------------------------------------------------------- the YAML layer alone, many more cases

TOKENS = st.sampled_from(["a", "b: ", "- ", "[", "]", "{", "}", ", ", ": ", "\n", "  ", "!x ", "!!str ", "!!int ",
                          "!!python/object ", "&a ", "*a", "<<: ", "? ", "'", '"', "9" * 50, "0x" + "f" * 50,
                          "9" * 5000, "2001-13-45", "1e999", "\u2028", "\x85", "#", "%YAML 1.1\n", "---\n", "...\n", "\t"])


# 300 levels exhaust the composer's recursion without the depth check (and cost ruamel's scanner
# O(depth x 1024): deeper is slow, not more telling)
@settings(max_examples=200, deadline=None)
@given(parts=st.lists(TOKENS, max_size=40), nesting=st.sampled_from([0, 1, 32, 33, 300]))
def test_the_loader_refuses_with_a_line_or_loads(parts, nesting):
    text = "".join(parts) + "[" * nesting + "]" * nesting
    try:
        document.parse(text, Path("pins.yaml"))
    except UserError as exc:  # anything else escaping fails the test
        assert exc.file == "pins.yaml" and exc.line, str(exc)
        assert "\n" not in str(exc)
