"""Properties of the value grammars (manifest/grammar.py): one validator per kind of value, each
checked against what the value is used for, not against a copy of its regex."""

import os
import string
import tempfile
import unicodedata
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from image_pipeline.manifest import grammar

from conftest import manifest

M = manifest()
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# what str.splitlines() (and so every reader of a line-oriented file) breaks a line at
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
BREAKERS = st.sampled_from(list(LINE_BREAKS) + ["\x00", "\x7f", "\x9f", "\ud800", "\udfff"])
ANY_TEXT = st.text(st.characters(codec=None), max_size=40)


def accepts(check, value) -> bool:
    try:
        check(value)
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------- one-line text

@FAST
@given(text=ANY_TEXT)
def test_one_line_text_is_one_line_wherever_it_is_written(text):
    if accepts(grammar.one_line, text):
        assert len(text.splitlines()) <= 1
        text.encode("utf-8")  # a lone surrogate cannot be written to a README or a Dockerfile
        assert not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in text)


@FAST
@given(before=st.text(string.printable.strip(), max_size=20), breaker=BREAKERS, after=st.text(max_size=5))
def test_any_line_break_anywhere_is_refused(before, breaker, after):
    assert not accepts(grammar.one_line, before + breaker + after)


def test_the_manifests_own_text_is_one_line():
    for comp in M.components.values():
        for key in ("reason", "external", "cpu_stand_in"):
            if comp.get(key):
                grammar.one_line(comp.get(key))
        for key in ("wins_over", "differs", "without"):
            for why in (comp.get(key) or {}).values():
                grammar.one_line(why)


# ---------------------------------------------------------------- argv values

@FAST
@given(fmt=st.sampled_from(sorted(grammar.ARGUMENTS)), dash=st.sampled_from("-+"), rest=st.text(max_size=20))
def test_a_value_that_becomes_an_argument_is_never_an_option(fmt, dash, rest):
    assert not accepts(grammar.CHECKERS[fmt], dash + rest)


def test_every_argument_format_is_a_known_format():
    assert grammar.ARGUMENTS <= set(grammar.CHECKERS)


@FAST
@given(script=st.text(string.ascii_letters + string.digits + "_.+-/", min_size=1, max_size=20),
       args=st.lists(st.text(string.ascii_letters + "-=", min_size=1, max_size=5), max_size=3))
def test_a_script_command_starts_with_its_script_and_never_an_option(script, args):
    value = " ".join([script, *args])
    if accepts(grammar.script_command, value):
        assert not value.startswith(("-", "+")) and not script.startswith("/")


# ---------------------------------------------------------------- URLs

URL_CHARS = st.text(st.characters(codec=None), max_size=4)


@FAST
@given(index=st.integers(0, 200), inserted=URL_CHARS.filter(lambda t: any(not ("!" <= c <= "~") for c in t)))
def test_a_url_with_any_control_space_or_non_ascii_character_is_refused(index, inserted):
    for url in [i.url for i in M.indexes.values()] + [c.get("repo") for c in M.components.values() if c.get("repo")]:
        cut = index % (len(url) + 1)
        assert not accepts(grammar.index_url, url[:cut] + inserted + url[cut:])


@FAST
@given(value=st.text(string.printable, max_size=40).map(lambda t: "https://" + t))
def test_an_accepted_url_holds_nothing_urlsplit_would_drop(value):
    if accepts(grammar.https_url, value):
        assert all("!" <= c <= "~" for c in value)  # no space, tab, newline or control character
        assert urlsplit(value).netloc in value


@FAST
@given(host=st.text(string.ascii_lowercase + string.digits + ".-", min_size=1, max_size=15))
def test_a_file_url_names_no_host(host):
    assert not accepts(grammar.index_url, f"file://{host}/simple")
    assert accepts(grammar.index_url, "file:///srv/simple")


def test_a_url_template_is_checked_with_the_version_it_gets():
    url = "https://files.example/{version}/x-{version}.zip"
    grammar.artifact_url_template(url)
    grammar.artifact_url(url, "1.0")
    with pytest.raises(ValueError, match="with version 1!1.0"):
        grammar.artifact_url(url, "1!1.0")


# ---------------------------------------------------------------- Docker references

COMPONENT = st.lists(st.text("abc09", min_size=1, max_size=4), min_size=1, max_size=3).flatmap(
    lambda parts: st.tuples(*[st.sampled_from([".", "_", "__", "-", "--"]) for _ in parts[1:]]).map(
        lambda seps: parts[0] + "".join(s + p for s, p in zip(seps, parts[1:]))))
REFERENCE_TEXT = st.text("ab09._-/", min_size=1, max_size=30)


@FAST
@given(value=REFERENCE_TEXT)
def test_an_accepted_repository_follows_the_distribution_grammar(value):
    if accepts(grammar.docker_repository, value):
        assert len(value) <= grammar.MAX_NAME_CHARS
        for part in value.split("/"):
            assert part and part[0] not in "._-" and part[-1] not in "._-" and ".." not in part
            assert "___" not in part and "._" not in part and "_." not in part


@FAST
@given(parts=st.lists(COMPONENT, min_size=1, max_size=3))
def test_a_repository_of_grammatical_components_is_accepted(parts):
    value = "/".join(parts)
    assume(len(value) <= grammar.MAX_NAME_CHARS)
    grammar.docker_repository(value)
    grammar.image_repository("registry.example:5000/" + value)
    grammar.registry("registry.example/" + value)


def test_a_repository_longer_than_docker_allows_is_refused():
    grammar.docker_repository("r" * grammar.MAX_NAME_CHARS)
    with pytest.raises(ValueError, match=f"longer than Docker's {grammar.MAX_NAME_CHARS}"):
        grammar.docker_repository("r" * (grammar.MAX_NAME_CHARS + 1))


@FAST
@given(host=st.text("ab09.-", min_size=1, max_size=12))
def test_an_accepted_registry_host_is_a_domain_name(host):
    if accepts(grammar.registry, host):
        for label in host.split("."):
            assert label and label[0] != "-" and label[-1] != "-"


@FAST
@given(value=st.integers(1, grammar.MAX_TAG_CHARS + 8).flatmap(
    lambda n: st.text(string.ascii_letters + string.digits + "_.-", min_size=n, max_size=n)))
def test_a_tag_is_what_docker_accepts(value):
    expected = len(value) <= grammar.MAX_TAG_CHARS and value[0] not in ".-"
    assert accepts(grammar.docker_tag, value) == expected


# ---------------------------------------------------------------- file names

@FAST
@given(value=st.text(st.characters(codec="utf-8", exclude_characters="/\x00"), min_size=1, max_size=90)
       .map(lambda t: t * 4))
def test_an_accepted_file_name_can_be_created(value):
    if accepts(grammar.file_name, value):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, value)
            with open(path, "w"):
                pass
            assert os.listdir(tmp) == [value]
    else:
        assert len(value.encode()) > grammar.MAX_FILE_NAME_BYTES or value in (".", "..")
