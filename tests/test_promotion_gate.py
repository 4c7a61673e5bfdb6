"""The local promotion gate of `build.py image` (builder/pipeline.run), fast: only a candidate whose smoke
suite passed gets its content tag and moves the moving tags; a failed one moves nothing and is kept.

The engine here is TagBook, a stand-in that records tags (the docker tests,
test_guarantee_moving_tags_point_at_the_content_tag and test_guarantee_a_failed_smoke_never_moves_a_good_tag,
hold the same on the real engine); the build and prepare steps are replaced by their results.
"""

from types import SimpleNamespace

import pytest

from image_pipeline.builder import engine, pipeline
from image_pipeline.manifest.references import Tags

from conftest import REPO, manifest

M = manifest()
IMAGE = M.default_image
TAGS = Tags(M.repository, IMAGE.name, "0123456789ab", IMAGE.human_tag, "amd64", host=True)
OLD, NEW = "sha256:" + "1" * 64, "sha256:" + "2" * 64


class TagBook:
    """What the pipeline asks of the engine's images: get(ref).tag(repo, tag), .id, remove(ref)."""

    def __init__(self, tags: dict):
        self.tags = dict(tags)  # reference -> image id
        self.images = self

    def get(self, reference):
        image_id = self.tags.get(reference, reference if reference.startswith("sha256:") else None)
        if image_id is None:
            raise KeyError(reference)
        return SimpleNamespace(id=image_id, tag=lambda repo, tag: self.tags.__setitem__(f"{repo}:{tag}", image_id))

    def remove(self, reference, noprune=False):
        del self.tags[reference]


@pytest.fixture
def run(monkeypatch, tmp_path):
    def go(passed: bool):
        book = TagBook({moving: OLD for moving in TAGS.moving})
        prepared = pipeline.Prepared({}, "0123456789ab" + "0" * 52, "sha256:base", TAGS)
        monkeypatch.setattr(pipeline, "prepare", lambda *a, **k: prepared)

        def build(*args, **kwargs):
            book.tags[TAGS.candidate] = NEW
            return NEW
        monkeypatch.setattr(pipeline, "build_candidate", build)
        monkeypatch.setattr(engine, "image_id", lambda api, ref: api.tags.get(ref))
        outcome = pipeline.run(book, M, IMAGE, "linux/amd64", REPO, None, cache=tmp_path, log=lambda _: None,
                               smoke_runner=lambda ref: SimpleNamespace(passed=passed, reason="a check FAILED"))
        return outcome, book.tags
    return go


def test_a_passed_smoke_run_promotes_the_candidate(run):
    outcome, tags = run(passed=True)
    assert outcome.promoted and tags[TAGS.final] == NEW
    assert {tags[moving] for moving in TAGS.moving} == {NEW} and TAGS.candidate not in tags


def test_a_failed_smoke_run_moves_no_tag_and_keeps_the_candidate(run):
    outcome, tags = run(passed=False)
    assert not outcome.promoted and TAGS.final not in tags
    assert {tags[moving] for moving in TAGS.moving} == {OLD} and tags[TAGS.candidate] == NEW
