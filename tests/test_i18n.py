"""Japanese output (issue 20): the gettext catalog is complete and consistent, `language ja` and
`--lang` choose the language of diagnostics, and English output stays exactly as it was.

The catalog check extracts every ``_()`` and ``ngettext()`` message from the source with Babel,
as a translator's tools do, and fails on any message without a Japanese entry.
"""

from __future__ import annotations

import gettext
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from click.testing import CliRunner

from deckquest.cli import main
from deckquest.i18n import _, language, localize, ngettext

SRC = Path(__file__).parents[1] / "src" / "deckquest"
CATALOG = SRC / "locale" / "ja" / "LC_MESSAGES" / "deckquest.po"
COMPILED = CATALOG.with_suffix(".mo")
ROOT = Path(__file__).parents[1]


KEYWORDS = {"_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def extracted() -> dict[tuple[str | tuple[str, str], str | None], str]:
    """Every message of the source: (its id (a pair for plurals), its context) and where it is."""
    found: dict[tuple[str | tuple[str, str], str | None], str] = {}
    for filename, line, message, _comments, context in extract_from_dir(
            str(SRC), method_map=[("**.py", "python")], keywords=KEYWORDS):
        found.setdefault((message, context), f"{filename}:{line}")
    return found


@pytest.fixture(scope="module")
def catalog():
    with CATALOG.open("rb") as handle:
        return read_po(handle, locale="ja")


def fields(text: str) -> set[str]:
    """The {fields} of a message; none for a text shown as it is (``a `{` without its `}```)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name and name.isidentifier()}
    except ValueError:
        return set()


def test_every_message_has_a_japanese_entry(catalog):
    """A message added with _() but not translated fails here, naming where it is."""
    missing = []
    for (message, context), where in extracted().items():
        entry = catalog.get(message, context=context)
        strings = () if entry is None else (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or entry.fuzzy or not strings or not all(strings):
            missing.append(f"{where}: {message!r}")
    assert not missing, "messages without a Japanese entry:\n" + "\n".join(missing)


def test_no_message_hides_from_the_extractor_in_an_f_string():
    """Babel does not look inside f-strings: `f"{_('x')}"` would never reach the catalog."""
    hidden = [f"{path.relative_to(SRC)}:{number}" for path in SRC.rglob("*.py")
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
              if re.search(r"\{[^{}]*\b(_|ngettext|pgettext)\(", line) and re.search(r"\bf['\"]", line)]
    assert not hidden


def test_the_catalog_holds_no_message_the_source_lost(catalog):
    """An entry whose message left the source is stale: update the catalog (docs/development.md)."""
    messages = set(extracted())
    stale = [entry.id for entry in catalog if entry.id and (entry.id, entry.context) not in messages]
    assert not stale


def test_translations_keep_the_fields_of_their_message(catalog):
    """A translation fills the same {fields}: a missing or misspelt one would fail at run time."""
    wrong = []
    for entry in catalog:
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not any(fields(i) for i in ids):
            continue  # shown as it is, braces and all
        wanted = fields(ids[-1]) | fields(ids[0])
        wrong += [f"{entry.id!r} -> {text!r}" for text in strings if not fields(text) <= wanted
                  or not fields(text) >= fields(ids[-1]) - {"count"}]
    assert not wrong


def test_the_compiled_catalog_is_the_po_file(catalog):
    """The .mo that ships is compiled from the .po as it is now (pybabel compile)."""
    with COMPILED.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for entry in catalog:
        if not entry.id:
            continue
        if entry.context:
            assert compiled.pgettext(entry.context, entry.id) == entry.string, entry.id
        elif isinstance(entry.id, tuple):
            assert compiled.ngettext(entry.id[0], entry.id[1], 2) == entry.string[0], entry.id
        else:
            assert compiled.gettext(entry.id) == entry.string, entry.id


def test_a_message_made_in_english_is_shown_again_in_japanese():
    """Diagnostics are made before a script's `language` is read: localize() writes them again."""
    made = _("unknown scene `{scene}`", scene="hall")
    assert made == "unknown scene `hall`"
    with language("ja"):
        assert localize(made) == "不明なシーン `hall`"
        assert ngettext("{count:,} error", "{count:,} errors", 2) == "2 件のエラー"
    assert localize(made) == "unknown scene `hall`"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


BROKEN = '''scenario "洞窟":
    language {language}

start scene gate "門":
    "岩が道をふさいでいる。"
    -> hall
'''


@pytest.mark.parametrize("header, flag, japanese", [
    ("ja", (), True), ("en", (), False), ("en", ("--lang", "ja"), True), ("ja", ("--lang", "en"), False)])
def test_check_writes_diagnostics_in_the_scripts_language_or_lang(tmp_path, header, flag, japanese):
    """`language ja` or `--lang ja`: message and hint in Japanese, the code as it was (DQ0031)."""
    script = tmp_path / "cave.quest"
    script.write_text(BROKEN.format(language=header), encoding="utf-8")
    result = run("check", *flag, str(script))
    assert result.exit_code == 1
    if japanese:
        assert "エラー[DQ0031]: 不明なシーン `hall`" in result.stderr
        assert result.stderr.rstrip().endswith("1 件のエラー")
    else:
        assert "error[DQ0031]: unknown scene `hall`" in result.stderr
        assert result.stderr.rstrip().endswith("1 error")


def test_a_japanese_script_that_does_not_parse_still_reports_in_japanese(tmp_path):
    script = tmp_path / "cave.quest"
    script.write_text(BROKEN.format(language="ja") + "    '単引用符'\n", encoding="utf-8")
    result = run("check", str(script))
    assert "エラー[DQ0009]: 予期しない文字 `'`" in result.stderr
    assert "ヒント: 文字列にはダブルクォートを使います" in result.stderr


def test_lang_en_changes_nothing_in_english_output():
    """The English transcript and report are the message ids themselves: `--lang en` is the
    default output byte for byte (the existing snapshots check the default)."""
    cave = str(ROOT / "scenarios" / "goblin_cave" / "goblin_cave.quest")
    for command in (("run", cave, "--seed", "2", "--agent", "best"), ("sim", cave, "-n", "20", "--jobs", "1"),
                    ("odds", cave)):
        assert run(*command, "--lang", "en").output == run(*command).output


def test_lang_is_a_usage_error_for_an_unknown_language():
    result = run("check", "--lang", "fr", "x.quest")
    assert result.exit_code == 2


def test_the_editor_shows_a_japanese_scripts_diagnostics_in_japanese(tmp_path):
    """`deckquest lsp`: the published message is in the script's language, and the "did you
    mean" quick fix still works from the hint as it was made."""
    pytest.importorskip("pygls")
    from deckquest.lsp.analysis import analyse, quick_fix
    from deckquest.lsp.server import lsp_diagnostic

    text = BROKEN.format(language="ja").replace("-> hall", "-> gat")
    analysis = analyse(tmp_path / "cave.quest", text)
    lines = text.splitlines()
    unknown = next(d for d in analysis.diagnostics if d.code == "DQ0031")
    shown = lsp_diagnostic(unknown, lines, analysis.language)
    assert shown.message.startswith("不明なシーン `gat`\nヒント: もしかして `gate` ですか?")
    assert shown.code == "DQ0031" and quick_fix(unknown, lines)[1] == "gate"
    assert lsp_diagnostic(unknown, lines, "en").message.startswith("unknown scene `gat`\nhint: did you mean")
