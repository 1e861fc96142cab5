"""Card data importers: the streaming JSON reader, Scryfall and MTGJSON mapping.

Colours are the file's colours because T-1.4 reads a card's colours (devoid and
colour indicators included); mana value is the file's because T-1.5 reads it.
"""

from __future__ import annotations

import io
import json
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckquest.cards import importers, jsonstream
from deckquest.cards.importers import Entry, Skipped, detect_format, read_entries
from deckquest.cards.jsonstream import JsonStream, MalformedJsonError
from deckquest.errors import DeckquestError

FIXTURES = Path(__file__).parent / "fixtures"
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
SCRYFALL_SAMPLE = SHARED_DATA / "scryfall-sample" / "cards.json"
MTGJSON_SAMPLE = SHARED_DATA / "mtgjson-sample" / "AtomicCards.sample.json"

needs_samples = pytest.mark.skipif(not SCRYFALL_SAMPLE.is_file(), reason="shared/data samples are not beside the repo")


def stream_of(text: str, chunk_bytes: int = 7) -> JsonStream:
    return JsonStream(io.BytesIO(text.encode("utf-8")), "test.json", chunk_bytes=chunk_bytes)


def entries_by_name(path: Path) -> dict[str, Entry]:
    found: dict[str, Entry] = {}
    for item in read_entries(path):
        if isinstance(item, Entry):
            found.setdefault(item.card.name, item)
    return found


# -- the streaming reader -----------------------------------------------------------


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=12,
)


@given(items=st.lists(json_values, max_size=6), chunk=st.integers(min_value=1, max_value=40), indent=st.sampled_from([None, 1]))
@settings(max_examples=150, deadline=None)
def test_array_items_equal_json_loads_whatever_the_chunk_size(items, chunk, indent):
    """Values split across chunk boundaries (numbers, strings, multi-byte text) decode whole."""
    text = json.dumps(items, indent=indent, ensure_ascii=False)
    assert list(stream_of(text, chunk).array_items()) == items


@given(members=st.dictionaries(st.text(max_size=8), json_values, max_size=6), chunk=st.integers(min_value=1, max_value=40))
@settings(max_examples=100, deadline=None)
def test_members_of_data_equal_json_loads(members, chunk):
    text = json.dumps({"meta": {"version": "5"}, "data": members}, ensure_ascii=False)
    assert dict(stream_of(text, chunk).members_of("data")) == members


def test_byte_order_mark_and_whitespace_are_accepted():
    data = "\ufeff \n[ {\"a\": 1} , 2 ]\n".encode("utf-8")
    assert list(JsonStream(io.BytesIO(data), "bom.json", chunk_bytes=3).array_items()) == [{"a": 1}, 2]


@pytest.mark.parametrize(
    "text, line, col, message",
    [
        ('[{"a": 1},\n {"b": 2,,}]', 2, 10, "malformed JSON: Expecting property name"),
        ('[{"a": 1}\n {"b": 2}]', 2, 2, "expected `,` or `]`"),
        ('[{"a": 1},\n {"b": "x', 2, 8, "malformed JSON: Unterminated string"),
        ('[{"a": 1},', 1, 11, "malformed JSON: Expecting value"),
        ('[{"a": 1}', 1, 10, "the file ends before the closing `]`"),
        ('[1, 2] [3]', 1, 8, "unexpected text after the end"),
        ('{"a": 1}', 1, 1, "expected a JSON array"),
    ],
)
def test_malformed_array_is_an_error_at_the_files_line_and_column(text, line, col, message):
    for chunk in (1, 4, 1 << 20):
        with pytest.raises(MalformedJsonError) as caught:
            list(stream_of(text, chunk).array_items())
        error = caught.value
        assert (error.span.line, error.span.col) == (line, col), chunk
        assert error.message.startswith(message)
        assert error.render().startswith(f"test.json:{line}:{col}: error[DQ8003]: {message}")


def test_error_excerpt_puts_the_caret_under_the_fault_even_on_a_huge_line():
    """Minified files are one line: the message shows an excerpt, not the whole line."""
    text = "[" + ",".join('{"name": "card %d"}' % n for n in range(2000)) + ",}]"
    error = pytest.raises(MalformedJsonError, lambda: list(stream_of(text, 4096).array_items())).value
    assert error.span.line == 1 and error.span.col == len(text) - 1
    source, caret = error.render().splitlines()[1:3]
    assert len(source) < 100
    assert source[caret.index("^")] == "}"


def test_file_cut_short_hints_at_an_incomplete_download():
    text = json.dumps([{"name": "Grizzly Bears", "oracle_text": "x" * 100}] * 3)[:-50]
    error = pytest.raises(MalformedJsonError, lambda: list(stream_of(text, 16).array_items())).value
    assert error.message == "malformed JSON: Unterminated string starting at"
    assert error.hint == "the file ends inside a value: the download may be incomplete"


def test_mtgjson_without_data_is_an_error():
    with pytest.raises(MalformedJsonError, match='no "data" object'):
        list(stream_of('{"meta": {"v": 1}}').members_of("data"))
    with pytest.raises(MalformedJsonError, match='"data" to be a JSON object'):
        list(stream_of('{"data": [1, 2]}').members_of("data"))


def test_invalid_utf8_is_an_error():
    data = b'[{"name": "caf\xe9"}]'
    with pytest.raises(MalformedJsonError, match="not UTF-8"):
        list(JsonStream(io.BytesIO(data), "latin1.json").array_items())


def test_progress_reports_bytes_read():
    data = json.dumps([{"n": n} for n in range(200)]).encode()
    seen: list[int] = []
    list(JsonStream(io.BytesIO(data), "p.json", chunk_bytes=256, on_progress=seen.append).array_items())
    assert seen == sorted(seen) and seen[-1] == len(data) and len(seen) > 5


def write_scryfall_file(path: Path, count: int) -> Path:
    card = {
        "object": "card", "lang": "en", "layout": "normal", "mana_cost": "{1}{G}", "cmc": 2.0,
        "type_line": "Creature — Bear", "oracle_text": "x" * 400, "power": "2", "toughness": "2",
        "colors": ["G"], "color_identity": ["G"], "keywords": [],
    }
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("[\n")
        for number in range(count):
            handle.write(json.dumps({**card, "name": f"Bear {number}", "oracle_id": f"o{number}"}))
            handle.write(",\n" if number < count - 1 else "\n")
        handle.write("]\n")
    return path


def peak_memory_reading(path: Path) -> tuple[int, int]:
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_entries(path))
        return tracemalloc.get_traced_memory()[1], count
    finally:
        tracemalloc.stop()


def test_memory_stays_flat_as_the_file_grows(tmp_path, monkeypatch):
    """Reading 12k cards needs about the memory of reading 1.2k: nothing accumulates.

    Chunks are made small so that both files span many of them.
    """
    monkeypatch.setattr(jsonstream, "CHUNK_BYTES", 32 * 1024)
    small_file = write_scryfall_file(tmp_path / "small.json", 1_200)
    peak_memory_reading(small_file)  # a first read also allocates one-off things (imports, caches)
    small, small_count = peak_memory_reading(small_file)
    large, large_count = peak_memory_reading(write_scryfall_file(tmp_path / "large.json", 12_000))
    assert (small_count, large_count) == (1_200, 12_000)
    assert (tmp_path / "large.json").stat().st_size > 9 * (tmp_path / "small.json").stat().st_size
    assert large < small * 1.25


# -- format detection -----------------------------------------------------------------


def test_detect_format_by_first_bytes(tmp_path):
    (tmp_path / "s.json").write_text('\n  [{"object": "card"}]')
    (tmp_path / "m.json").write_text('\ufeff{"meta": {}, "data": {}}', encoding="utf-8")
    assert detect_format(tmp_path / "s.json") == "scryfall"
    assert detect_format(tmp_path / "m.json") == "mtgjson"


def test_detect_format_rejects_other_files(tmp_path):
    (tmp_path / "deck.txt").write_text("\n4 Grizzly Bears\n")
    error = pytest.raises(DeckquestError, detect_format, tmp_path / "deck.txt").value
    assert (error.span.line, error.span.col) == (2, 1)
    assert "not a card data file" in error.message
    (tmp_path / "empty.json").write_text("  ")
    assert "empty" in pytest.raises(DeckquestError, detect_format, tmp_path / "empty.json").value.message


def test_missing_file_is_a_user_error(tmp_path):
    with pytest.raises(DeckquestError, match="cannot read"):
        list(read_entries(tmp_path / "nope.json"))


# -- Scryfall ---------------------------------------------------------------------------


@needs_samples
def test_every_real_scryfall_printing_imports_or_is_skipped_with_a_reason():
    items = list(read_entries(SCRYFALL_SAMPLE))
    printings = json.loads(SCRYFALL_SAMPLE.read_text(encoding="utf-8"))
    reversible_faces = sum(len(p["card_faces"]) - 1 for p in printings if p["layout"] == "reversible_card")
    assert len(items) == len(printings) + reversible_faces
    reasons = Counter(item.reason for item in items if isinstance(item, Skipped))
    assert reasons == {importers.REBALANCED: 1}
    assert all(isinstance(item, (Entry, Skipped)) for item in items)


@needs_samples
def test_real_scryfall_multi_faced_cards():
    cards = entries_by_name(SCRYFALL_SAMPLE)
    boom = cards["Boom // Bust"]
    assert boom.front_name == "Boom"
    assert str(boom.card.mana_cost) == "{1}{R}" and boom.card.mana_value == 8  # split: halves' total
    assert boom.card.oracle_text.endswith("\n//\nDestroy all lands.")
    delver = cards["Delver of Secrets // Insectile Aberration"]  # transform: no top-level colours
    assert delver.front_name == "Delver of Secrets"
    assert delver.card.colors == ("U",) and str(delver.card.mana_cost) == "{U}"
    assert (delver.card.power, delver.card.toughness) == ("1", "1")
    assert str(delver.card.type_line) == "Creature — Human Wizard"
    erayo = cards["Erayo, Soratami Ascendant // Erayo's Essence"]  # flip
    assert erayo.front_name == "Erayo, Soratami Ascendant" and erayo.card.supertypes == ("Legendary",)
    cube = cards["Doubling Cube"]  # reversible: each face is a whole card
    assert str(cube.card.mana_cost) == "{2}" and cube.card.is_type("Artifact")
    assert cube.identity == "9afd8f12-0796-4500-aaa3-10b4a46ef6ec"
    who = cards["Who // What // When // Where // Why"]
    assert str(who.card.mana_cost) == "{X}{W}" and who.card.colors == ("W", "U", "B", "R", "G")


@needs_samples
def test_real_scryfall_tokens_planes_and_basics():
    cards = entries_by_name(SCRYFALL_SAMPLE)
    goblin = cards["Goblin"].card
    assert goblin.is_token and goblin.card_types == ("Creature",) and goblin.colors == ("R",)
    assert cards["Akoum"].card.card_types == ("Plane",)
    wastes = cards["Wastes"].card
    assert wastes.supertypes == ("Basic",) and wastes.is_land and wastes.colors == ()
    assert cards["Snow-Covered Forest"].card.basic_land_types == ("Forest",)
    assert "A-Cosmos Elixir" not in cards and "Cosmos Elixir" in cards
    assert cards["Sylvan Library"].lang == "fr" and cards["Sylvan Library"].name_ja is None


def test_scryfall_edge_cases_each_have_a_reason():
    items = list(read_entries(FIXTURES / "scryfall-edge.json"))
    reasons = Counter(item.reason for item in items if isinstance(item, Skipped))
    assert reasons == {
        importers.FRACTIONAL_MANA_VALUE: 1,
        importers.UNKNOWN_MANA_SYMBOL: 1,
        importers.ART_SERIES: 1,
        importers.MALFORMED: 2,
        importers.NOT_A_CARD: 2,
    }
    assert len(items) == 20


def test_scryfall_japanese_printings_carry_printed_names():
    japanese = [item for item in read_entries(FIXTURES / "scryfall-edge.json") if isinstance(item, Entry) and item.lang == "ja"]
    assert [(e.card.name, e.name_ja, e.front_name_ja) for e in japanese] == [
        ("Llanowar Elves", "ラノワールのエルフ", None),
        ("Grizzly Bears", "灰色熊", None),
        ("Boom // Bust", "ブーム // バスト", "ブーム"),
    ]
    german = [item for item in read_entries(FIXTURES / "scryfall-edge.json") if isinstance(item, Entry) and item.lang == "de"]
    assert german[0].name_ja is None and german[0].card.name == "Grizzly Bears"


def test_scryfall_devoid_card_keeps_the_files_colours():
    """T-1.4: a devoid card is colourless though its cost is red."""
    sentinel = entries_by_name(FIXTURES / "scryfall-edge.json")["Kozilek's Sentinel"].card
    assert sentinel.colors == () and sentinel.color_identity == ("R",) and sentinel.has_keyword("Devoid")


def test_scryfall_token_type_line_and_loyalty():
    entries = [item for item in read_entries(FIXTURES / "scryfall-edge.json") if isinstance(item, Entry)]
    constructs = [e.card for e in entries if e.card.name == "Construct"]
    assert [(c.is_token, c.card_types) for c in constructs] == [
        (True, ("Artifact", "Creature")), (False, ("Artifact", "Creature")), (True, ("Artifact", "Creature")),
    ]
    jace = next(e.card for e in entries if e.card.name == "Jace, the Mind Sculptor")
    assert jace.loyalty == "3" and jace.power is None


# -- MTGJSON ----------------------------------------------------------------------------


@needs_samples
def test_every_real_mtgjson_card_imports():
    items = list(read_entries(MTGJSON_SAMPLE))
    assert all(isinstance(item, Entry) for item in items) and len(items) == 4
    cards = {item.card.name: item for item in items}
    wear = cards["Wear // Tear"]
    assert wear.front_name == "Wear" and str(wear.card.mana_cost) == "{R}"
    assert wear.card.colors == ("W", "R") and wear.card.mana_value == 3  # split: both halves' colours
    assert wear.card.oracle_text == "Destroy target artifact.\n//\nDestroy target enchantment."
    assert wear.identity == "oracle-wt"
    sorcerer = cards["Prodigal Sorcerer"].card
    assert (sorcerer.power, sorcerer.toughness, sorcerer.subtypes) == ("1", "1", ("Human", "Wizard"))


def test_mtgjson_edge_cases():
    items = list(read_entries(FIXTURES / "mtgjson-edge.json", "mtgjson"))
    reasons = Counter(item.reason for item in items if isinstance(item, Skipped))
    assert reasons == {importers.FRACTIONAL_MANA_VALUE: 1, importers.SAME_NAME: 1, importers.MALFORMED: 1}
    cards = {item.card.name: item for item in items if isinstance(item, Entry)}
    fire = cards["Fire // Ice"]
    assert (fire.name_ja, fire.front_name_ja, fire.front_name) == ("火 // 氷", "火", "Fire")
    assert fire.card.colors == ("U", "R") and fire.card.color_identity == ("U", "R")
    delver = cards["Delver of Secrets // Insectile Aberration"]  # faces come in side order whatever the file's order
    assert delver.front_name == "Delver of Secrets" and str(delver.card.mana_cost) == "{U}"
    assert delver.card.keywords == ("Transform",)  # the front face's only: no Flying on turn 1
    assert delver.back_names == ("Insectile Aberration",)
    assert cards["Llanowar Elves"].name_ja == "ラノワールのエルフ"
    assert cards["Very Cryptic Command"].card.oracle_text.endswith("first variant")


def test_format_can_be_forced():
    with pytest.raises(MalformedJsonError, match="expected a JSON array"):
        list(read_entries(FIXTURES / "mtgjson-edge.json", "scryfall"))


# -- hostile files (issue 12): bounded values, coded errors ---------------------------


def error_of(text: str, chunk_bytes: int = 7) -> MalformedJsonError:
    with pytest.raises(MalformedJsonError) as caught:
        list(stream_of(text, chunk_bytes).array_items())
    return caught.value


def test_deep_nesting_is_DQ8004_at_the_values_start():
    error = error_of("[1, " + "[" * 100_000, chunk_bytes=1 << 20)
    assert (error.code, error.span.line, error.span.col) == ("DQ8004", 1, 5)
    assert len(error.render()) < 400


def test_a_value_larger_than_the_bound_is_DQ8005_read_only_that_far(monkeypatch):
    monkeypatch.setattr(jsonstream, "MAX_VALUE_CHARS", 1000)
    handle = io.BytesIO(('[{"a": 1}, {"name": "' + "x" * 100_000 + '"}]').encode())
    with pytest.raises(MalformedJsonError) as caught:
        list(JsonStream(handle, "test.json", chunk_bytes=64).array_items())
    assert (caught.value.code, caught.value.span.col) == ("DQ8005", 12)
    assert handle.tell() < 2000  # the rest of the value was never read


def test_a_value_within_the_bound_still_reads_across_many_chunks(monkeypatch):
    monkeypatch.setattr(jsonstream, "MAX_VALUE_CHARS", 1000)
    assert list(stream_of('[{"name": "' + "x" * 900 + '"}]').array_items()) == [{"name": "x" * 900}]


def test_an_integer_of_thousands_of_digits_reads_as_infinity():
    """Python refuses to convert 4,300 digits (ValueError inside the decoder: exit 70 before)."""
    assert list(stream_of("[" + "9" * 5000 + ", -" + "9" * 5000 + ", 12]").array_items()) == [
        float("inf"), float("-inf"), 12]


def test_not_utf8_is_DQ8006():
    with pytest.raises(MalformedJsonError) as caught:
        list(JsonStream(io.BytesIO(b'["\xff"]'), "test.json").array_items())
    assert caught.value.code == "DQ8006"


@pytest.mark.parametrize("cmc", ["1e400", "Infinity", "-Infinity", "NaN", "9" * 5000, "-1", "1000001"])
def test_an_impossible_mana_value_is_skipped_by_reason(tmp_path, cmc):
    """T-1.5 reads a card's mana value; one that is no finite number up to Gleemax's 1,000,000
    is a damaged object, skipped and counted like every other (issue 12, item 6)."""
    path = tmp_path / "cards.json"
    path.write_text(f'[{{"object": "card", "name": "X", "type_line": "Creature", "cmc": {cmc}}}]')
    assert list(read_entries(path)) == [Skipped(importers.MANA_VALUE_OUT_OF_RANGE)]


def test_gleemaxs_mana_value_is_still_a_card(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text('[{"object": "card", "name": "Gleemax", "type_line": "Legendary Artifact", "cmc": 1000000}]')
    (entry,) = read_entries(path)
    assert entry.card.mana_value == 1_000_000


def test_a_fifo_is_not_opened(tmp_path):
    import os

    os.mkfifo(tmp_path / "cards.json")
    with pytest.raises(DeckquestError) as caught:
        detect_format(tmp_path / "cards.json")
    assert caught.value.code == "DQ8001" and "not a regular file" in caught.value.message
