"""The small semver and range parser packs use for deckquest and dependency versions."""

import pytest
from hypothesis import given, strategies as st

from deckquest.packs.versions import Version, VersionError, VersionRange, version_allowed


def test_versions_order_by_semver_precedence():
    ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta.2", "1.0.0-beta.11",
               "1.0.0-rc.1", "1.0.0", "1.0.1", "1.2.0", "2.0.0", "10.0.0"]
    parsed = [Version.parse(v) for v in ordered]
    assert parsed == sorted(reversed(parsed))
    assert str(parsed[2]) == "1.0.0-alpha.beta"


def test_build_metadata_is_ignored():
    assert Version.parse("1.2.3+build.7") == Version.parse("1.2.3")


@pytest.mark.parametrize("text", ["1.0", "01.0.0", "v1.0.0", "1.0.0.0", "", "1.0.0-", "x" * 300])
def test_bad_versions_are_refused(text):
    with pytest.raises(VersionError):
        Version.parse(text)


@pytest.mark.parametrize("range_text, allowed, refused", [
    (">=1.2, <2.0", ["1.2.0", "1.9.9"], ["1.1.9", "2.0.0"]),
    (">=1.2 <2", ["1.5.0"], ["2.0.0"]),
    ("^1.2.3", ["1.2.3", "1.9.0"], ["1.2.2", "2.0.0", "2.0.0-rc.1"]),
    ("^0.2.3", ["0.2.3", "0.2.9"], ["0.3.0"]),
    ("^0.0.3", ["0.0.3"], ["0.0.4"]),
    ("~1.2.3", ["1.2.3", "1.2.9"], ["1.3.0"]),
    ("~1", ["1.0.0", "1.9.0"], ["2.0.0"]),
    ("1.x", ["1.0.0", "1.7.2"], ["2.0.0", "0.9.0"]),
    ("1.2.*", ["1.2.0", "1.2.5"], ["1.3.0"]),
    ("1.2.3", ["1.2.3"], ["1.2.4"]),
    ("=1.2.3", ["1.2.3"], ["1.2.4"]),
    ("!=1.3.0", ["1.2.0", "1.4.0"], ["1.3.0"]),
    ("<=1.2", ["1.2.9"], ["1.3.0"]),
    (">1.2", ["1.3.0"], ["1.2.5"]),
    ("*", ["0.0.1", "9.9.9"], []),
    ("^1.0 || ^3.0", ["1.5.0", "3.1.0"], ["2.0.0"]),
])
def test_ranges(range_text, allowed, refused):
    for version in allowed:
        assert version_allowed(version, range_text), version
    for version in refused:
        assert not version_allowed(version, range_text), version


@pytest.mark.parametrize("text", ["", ">=", ">=abc", "1.2.3.4", ">=*", "^", "||", "<" * 300])
def test_bad_ranges_are_refused(text):
    with pytest.raises(VersionError):
        VersionRange.parse(text)


numbers = st.integers(min_value=0, max_value=50)


@given(numbers, numbers, numbers)
def test_caret_matches_same_major_from_version(major, minor, patch):
    version = Version(major, minor, patch)
    if major == 0:
        return
    caret = VersionRange.parse(f"^{version}")
    assert caret.allows(version)
    assert caret.allows(Version(major, minor + 1, 0))
    assert not caret.allows(Version(major + 1, 0, 0))


@given(numbers, numbers, numbers)
def test_parse_round_trips(major, minor, patch):
    assert str(Version.parse(f"{major}.{minor}.{patch}")) == f"{major}.{minor}.{patch}"


def _schema_accepts(field: str, text: str) -> bool:
    from jsonschema import Draft202012Validator

    from deckquest.packs.manifest import schema

    pattern = schema()["properties"][field]["pattern"]
    return Draft202012Validator({"type": "string", "pattern": pattern}).is_valid(text)


def _parses(text: str) -> bool:
    try:
        Version.parse(text)
    except VersionError:
        return False
    return True


@pytest.mark.parametrize("text", ["0.1.0-..", "1.0.0\n", "1.0.0-a..b", "1.0.0-.a", "1.0.0+", " 1.0.0",
                                  "1.0.0-alpha.1+build.5", "1.0.0-x-y.-"])
def test_the_schema_and_the_parser_agree_on_these_versions(text):
    """`version: "0.1.0-.."` passed the schema and then failed in Version.parse (exit 70)."""
    assert _schema_accepts("version", text) == _parses(text)


@given(st.text(alphabet="01.-+a\n ", max_size=16))
def test_the_schema_and_the_parser_accept_the_same_versions(text):
    assert _schema_accepts("version", text) == _parses(text)


@given(st.text(alphabet="ab0-\n", max_size=8))
def test_the_schema_and_the_store_accept_the_same_pack_names(text):
    """A name the schema accepts is one `pack remove`/`run` can name: no `goblin-raid\\n`."""
    from deckquest.packs.store import PACK_NAME

    assert _schema_accepts("name", text) == bool(PACK_NAME.fullmatch(text))
