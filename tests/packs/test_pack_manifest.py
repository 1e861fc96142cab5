"""pack.yaml: schema errors all at once, each at its YAML line and column."""

import pytest

from deckquest.errors import CompileError, DeckquestError
from deckquest.packs.manifest import load_manifest

from packtexts import manifest_text


def load(tmp_path, text):
    path = tmp_path / "pack.yaml"
    path.write_text(text, encoding="utf-8")
    return load_manifest(path)


def errors(tmp_path, text):
    with pytest.raises(CompileError) as caught:
        load(tmp_path, text)
    return [(d.span.line, d.span.col, d.message, d.hint) for d in caught.value.diagnostics]


def test_a_valid_manifest_is_read_with_positions(tmp_path):
    manifest = load(tmp_path, manifest_text(depends=[("other", "^1.0")], extra="tags: [starter]\n"))
    assert manifest.name == "tiny" and str(manifest.version) == "1.0.0"
    assert manifest.listed_files() == ["pack.yaml", "tiny.quest", "decks/hero.txt"]
    assert manifest.depends[0].name == "other"
    assert manifest.span("decks", 0).line == 10


def test_every_schema_error_is_reported_at_once_with_line_and_column(tmp_path):
    text = (
        "name: Tiny Pack\n"          # 1: not a pack name
        "version: 1.0\n"             # 2: a number, not a string
        "title: Tiny\n"
        "authors: tests\n"           # 4: not a list
        "license: CC0-1.0\n"
        'deckquest: ">=0.1"\n'
        "scenarios: [tiny.quest]\n"
        "scenaros: []\n"             # 8: unknown key, typo
    )
    found = errors(tmp_path, text)
    assert [(line, col) for line, col, *_ in found] == [(1, 7), (2, 10), (4, 10), (8, 1)]
    assert "`Tiny Pack` is not a pack name" in found[0][2]
    assert found[1][2] == "`version` must be a string, not the number 1.0"
    assert "quotes" in found[1][3]
    assert found[3][2] == "unknown key `scenaros`"
    assert found[3][3] == "did you mean `scenarios`?"


def test_missing_keys_and_wrong_nested_types(tmp_path):
    text = "name: tiny\nversion: 1.0.0\nscenarios: [tiny.quest]\ndepends:\n  - {name: x, version: 2, why: 1}\n"
    messages = [m for *_, m, _h in errors(tmp_path, text)]
    for key in ("title", "authors", "license", "deckquest"):
        assert f"missing required key `{key}`" in messages
    assert "unknown key `why` in depends[0]" in messages
    assert "`depends[0].version` must be a string, not the number 2" in messages


@pytest.mark.parametrize("path, reason", [
    ("../secret.quest", "`..`"),
    ("/etc/passwd.quest", "relative"),
    ("C:/evil.quest", "drive"),
    ("a\\\\b.quest", "`/`"),
    ("./x.quest", "`.` segments"),
])
def test_paths_outside_the_pack_are_refused(tmp_path, path, reason):
    found = errors(tmp_path, manifest_text(scenarios=(f'"{path}"',)))
    assert len(found) == 1
    line, col, message, _ = found[0]
    assert (line, col) == (8, 5) and reason in message


def test_semantic_problems_are_located(tmp_path):
    text = manifest_text(depends=[("tiny", "^1"), ("b", "^^1")], decks=("tiny.quest",)).replace(
        '">=0.1"', '"about one"')
    found = errors(tmp_path, text)
    messages = [m for _l, _c, m, _h in found]
    assert any("listed twice" in m for m in messages)
    assert any("depend on itself" in m for m in messages)
    assert any("`about` is not a version comparator" in m for m in messages)
    assert any("`^^1`" in m for m in messages)
    assert all(line > 0 for line, *_ in found)


@pytest.mark.parametrize("text, expected", [
    ("name: [unclosed\n", "invalid YAML"),
    ("name: a\nname: b\n", "duplicate key"),
    ("name: !!python/object/apply:os.system [echo]\n", "tag"),
    ("a: &x [1, 2]\nb: *x\n", "aliases"),
    ("name:\n\t- x\n", "invalid YAML"),
])
def test_bad_yaml_is_a_located_user_error(tmp_path, text, expected):
    with pytest.raises(DeckquestError) as caught:
        load(tmp_path, text)
    assert expected in caught.value.message
    assert caught.value.span.line > 0
    assert "pack.yaml:" in caught.value.render()


def test_deep_nesting_is_refused(tmp_path):
    with pytest.raises(DeckquestError, match="nested"):
        load(tmp_path, "name: " + "[" * 50 + "]" * 50 + "\n")
    with pytest.raises(DeckquestError, match="nested too deeply"):
        load(tmp_path, "name: " + "[" * 100_000 + "\n")


def test_huge_manifest_and_huge_strings_are_refused(tmp_path):
    with pytest.raises(DeckquestError, match="larger than"):
        load(tmp_path, "description: " + "x" * 300_000 + "\n")
    found = errors(tmp_path, manifest_text().replace("title: Tiny", "title: " + "t" * 5000))
    assert found[0][:2] == (3, 8) and "too long" in found[0][2]


def test_a_manifest_that_is_not_a_mapping(tmp_path):
    assert "must be a mapping" in errors(tmp_path, "- just\n- a list\n")[0][2]


def test_missing_manifest_says_how_to_make_one(tmp_path):
    with pytest.raises(DeckquestError) as caught:
        load_manifest(tmp_path)
    assert "pack init" in caught.value.hint


def test_a_manifest_read_again_is_the_file_as_it_is_now(tmp_path):
    """A pack.yaml is read and checked once per version of the file: compiling a script asks
    for it at every reference, and an edit between two reads (the language server's
    case) is always seen, a broken edit included."""
    first = load(tmp_path, manifest_text())
    assert load_manifest(tmp_path / "pack.yaml") is first  # unchanged: read once
    path = tmp_path / "pack.yaml"
    path.write_text(manifest_text().replace("title: Tiny", "title: Tinier"), encoding="utf-8")
    assert load_manifest(path).title == "Tinier"
    path.write_text(manifest_text().replace("name: tiny", "name: Tiny Pack"), encoding="utf-8")
    with pytest.raises(CompileError):
        load_manifest(path)
    path.write_text(manifest_text(), encoding="utf-8")
    assert load_manifest(path) == first and load_manifest(path).title == first.title
