"""Property: no pins.yaml, however mangled, gets a traceback, an exit code other than 0 or 2, or a
changed file under images/ on error (load -> validate -> render, in process)."""

import shutil
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, copy_repo, run_in_process, tree_snapshot

ORIGINAL = (REPO / "pins.yaml").read_text().splitlines(keepends=True)
# values that look like what pins hold, and what an attacker or a typo would put there
NASTY = st.sampled_from(["$(id)", "`id`", "a;b", "a|b", "a&&b", "'", '"', "\\", "a b", "{x}", "[", "]", "{", "}",
                         "&a", "*a", "<<", "!!python/object", "0x10", "1e9", "null", "~", "true", "3.10", "-", "--x",
                         "https://u:p@h/x", "file:///etc", "..", "../x", "\t", "é", "\u202e", "#", ": ", "?", "%"])
TEXT = st.text(alphabet=string.printable, max_size=30)


@st.composite
def mangled(draw):
    lines = list(ORIGINAL)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        action = draw(st.sampled_from(["value", "delete", "insert", "key"]))
        value = draw(st.one_of(NASTY, TEXT))
        if action == "value" and ":" in line:
            key = line.split(":", 1)[0]
            lines[index] = f"{key}: {value}\n"
        elif action == "key" and ":" in line:
            indent = line[:len(line) - len(line.lstrip())]
            lines[index] = f"{indent}{value}:{line.split(':', 1)[1]}"
        elif action == "delete":
            del lines[index]
        else:
            lines.insert(index, f"{line[:len(line) - len(line.lstrip())]}{value}\n")
    return "".join(lines)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(text=mangled())
def test_no_input_escapes_the_one_line_error(tmp_path_factory, text):
    root = tmp_path_factory.getbasetemp() / "fuzz-repo"
    if not root.exists():
        copy_repo(root)
    (root / "pins.yaml").write_text(text)
    images = root / "images"
    before = tree_snapshot(images)
    readme = (root / "README.md").read_text()
    result = run_in_process("render", root=root)
    code = result.returncode
    try:
        assert code in (0, 2), result.stderr
        if code == 2:
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
            assert tree_snapshot(images) == before
            assert (root / "README.md").read_text() == readme
    finally:
        if code == 0 and tree_snapshot(images) != before:
            shutil.rmtree(images)
            shutil.copytree(REPO / "images", images)
        (root / "README.md").write_text(readme)
