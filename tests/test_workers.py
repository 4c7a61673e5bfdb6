"""How make test's two workers share the suite (tests/conftest.py): whole files, the arm64 ones last,
and the files that run pipelines on the repository's own image as one unit."""

from types import SimpleNamespace

from conftest import pytest_collection_modifyitems, unit_of_work


def test_the_files_that_run_the_repositorys_pipeline_are_one_unit_of_work():
    """`reproduce` rebuilds the promoted image's candidate, test_image asserts that candidate is gone:
    on two workers at once one would see the other's."""
    assert unit_of_work("tests/test_image.py::a") == unit_of_work("tests/test_reproducible.py::b[x]")
    assert unit_of_work("tests/test_stages.py::a") == unit_of_work("tests/test_stages.py::b")
    assert unit_of_work("tests/test_stages.py::a") not in {unit_of_work("tests/test_image.py::a"),
                                                           unit_of_work("tests/test_publish.py::a")}


def _item(path, *fixtures):
    return SimpleNamespace(path=path, fixturenames=fixtures, keywords={}, name=f"{path}:{fixtures}")


def test_a_file_with_a_test_that_waits_for_the_arm64_image_runs_last_and_whole():
    """A worker takes whole files: one taken early with an arm64 test in it would wait for the background
    build while files that need nothing from it queue behind."""
    items = [_item("a.py"), _item("mixed.py"), _item("mixed.py", "cpu_image_arm64"), _item("mixed.py"),
             _item("b.py"), _item("arm.py", "cpu_image_arm64")]
    config = SimpleNamespace(getoption=lambda name: True)
    pytest_collection_modifyitems(config, items)
    assert [(i.path, bool(i.fixturenames)) for i in items] == [
        ("a.py", False), ("b.py", False), ("mixed.py", False), ("mixed.py", False), ("mixed.py", True),
        ("arm.py", True)]
