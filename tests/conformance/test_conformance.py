"""Conformance: adventures, decks, parties and packs written from the contracts alone.

The scripts in `adventures/` were written from ../shared/language.md, the rules (trpg.md),
the issue texts and docs/, not from the bundled examples: every statement and header form,
every WHO, every trigger event, both rules editions, Japanese text, CRLF and a BOM, GM cards,
Commander decks with 5 critical cards, deck lists as MTGO, Arena and Moxfield export them.
`bad_*.quest` are mistakes a GM would plausibly make; their first line says which errors
(`CODE@LINE:COL`) `deckquest check` must report, all of them, and nothing else.

Each valid adventure compiles, runs to an ending with every non-human agent, gives the same
bytes for the same seed, survives `sim` (2 worker processes) and `sim --explore`, and every
check it makes follows T-4.2 to T-4.4 (2019) or T-5.2 (2014) exactly.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckquest.cards.database import CardDatabase, builtin_index
from deckquest.cli import main
from deckquest.dsl.resolver import compile_file
from deckquest.runtime.interpreter import run_scenario
from deckquest.sim import simulate
from deckquest.sim.explore import explore

HERE = Path(__file__).parent / "adventures"
VALID = sorted(p for p in HERE.glob("*.quest") if not p.name.startswith("bad_"))
BAD = sorted(HERE.glob("bad_*.quest"))
DECKS = sorted((HERE / "decks").glob("*.txt"))
AGENTS = ["first", "random", "best"]
DB = CardDatabase(builtin_index())

# The endings each adventure can reach (anything else is a bug in the interpreter).
ENDINGS = {
    "criticals_2014": {"victory"},
    "every_foe": {"tired", "victory", "defeat"},
    "guild_hall": {"victory", "defeat", "fled"},
    "lantern_road": {"victory", "defeat", "lost in the dark"},
    "life_and_death": {"grim"},
    "mori_2014": {"victory", "defeat", "逃走"},
    "uses": {"victory", "defeat"},
}

# T-4.3: colour bonus, card colour (row) by check kind (column).
BONUS_2019 = {
    "W": {"white": 5, "blue": 3, "black": 0, "red": 0, "green": 3},
    "U": {"white": 3, "blue": 5, "black": 3, "red": 0, "green": 0},
    "B": {"white": 0, "blue": 3, "black": 5, "red": 3, "green": 0},
    "R": {"white": 0, "blue": 0, "black": 3, "red": 5, "green": 3},
    "G": {"white": 3, "blue": 0, "black": 0, "red": 3, "green": 5},
}
# T-5.2 / T-5.4
BONUS_2014 = {
    "W": {"negotiation": 5, "intellect": 4, "dexterity": 2, "reflex": 1, "body": 3},
    "U": {"negotiation": 3, "intellect": 5, "dexterity": 4, "reflex": 2, "body": 1},
    "B": {"negotiation": 1, "intellect": 3, "dexterity": 5, "reflex": 4, "body": 2},
    "R": {"negotiation": 2, "intellect": 1, "dexterity": 3, "reflex": 5, "body": 4},
    "G": {"negotiation": 4, "intellect": 2, "dexterity": 1, "reflex": 3, "body": 5},
    None: {"negotiation": 2, "intellect": 2, "dexterity": 2, "reflex": 2, "body": 2},
}
LAND_COLOURS = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


def invoke(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def colours_of(name: str) -> set[str]:
    """T-1.4: a card's colours, plus those of its basic land types."""
    card = DB.get(name)
    return set(card.colors) | {LAND_COLOURS[t] for t in card.subtypes if t in LAND_COLOURS}


def assert_checks_follow_the_rules(events, rules: str) -> int:
    """Recompute every plain check (no critical card, no redo) from its revealed cards."""
    verified = 0
    for e in events:
        if e["event"] != "check" or not e["cards"] or e["criticals"]:
            continue
        bonus = e["support"] + e["boost_bonus"]
        if rules == "2019":
            first, second = e["cards"]
            assert e["target"] == DB.get(first).mana_value + e["difficulty"]  # T-4.2
            if e["kind"] == "colorless":  # T-4.9
                assert e["color"] is None
            elif e["color"] is None:
                assert not colours_of(second)  # T-4.3: colourless, +0
            else:
                assert e["color"] in colours_of(second)  # T-4.5: one of its colours
                bonus += BONUS_2019[e["color"]][e["kind"]]
            assert e["result"] == DB.get(second).mana_value + bonus  # T-4.3
            assert e["success"] == (e["result"] >= e["target"])  # T-4.4
        else:
            (card,) = e["cards"]
            assert e["target"] == e["difficulty"]  # T-5.1: the GM's target number
            best = max(BONUS_2014[c][e["kind"]] for c in colours_of(card) or {None})
            assert e["result"] == DB.get(card).mana_value + best + bonus  # T-5.2, T-5.3
            assert e["success"] == (e["result"] > e["target"])  # T-5.2: a tie fails
        assert e["degree"] == e["result"] - e["target"]
        verified += 1
    return verified


# ---------------------------------------------------------------- valid adventures


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_the_adventure_compiles_cleanly(path):
    result = invoke("check", path)
    assert result.exit_code == 0, result.output
    assert "error" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_every_agent_plays_it_to_a_sensible_ending_and_the_checks_follow_the_rules(path, agent):
    scenario = compile_file(path)
    rules = str(scenario.rules)
    checked = 0
    for seed in (1, 2, 3):
        result = run_scenario(scenario, agent, seed)
        assert result.outcome in ENDINGS[path.stem], (seed, result.outcome, result.text)
        checked += assert_checks_follow_the_rules(result.events, rules)
        assert all(e["clock"] >= 0 for e in result.events)
        clocks = [e["clock"] for e in result.events]
        assert clocks == sorted(clocks)  # the game clock never runs backwards
    if path.stem not in ("every_foe", "uses", "life_and_death"):  # no check, or none possible
        assert checked > 0


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_same_seed_same_bytes_in_text_and_jsonl(path):
    for agent in AGENTS:
        for fmt in ("text", "jsonl"):
            one = invoke("run", path, "--agent", agent, "--seed", 11, "--format", fmt)
            two = invoke("run", path, "--agent", agent, "--seed", 11, "--format", fmt)
            assert one.exit_code == 0 and "Traceback" not in one.output, one.output
            assert one.output == two.output
    lines = invoke("run", path, "--agent", "best", "--seed", 11, "--format", "jsonl").output.splitlines()
    events = [json.loads(line) for line in lines]
    assert all("event" in e and "clock" in e for e in events)
    assert events[-1]["event"] == "end" and {"outcome", "text"} <= set(events[-1])


@pytest.mark.parametrize("name", ["lantern_road", "mori_2014"])
def test_the_lantern_road_with_crlf_and_a_bom_plays_exactly_as_with_lf(tmp_path, name):
    """language.md: CRLF line endings and a UTF-8 BOM change nothing."""
    source = HERE / f"{name}.quest"
    shutil.copytree(HERE / "decks", tmp_path / "decks")
    copy = tmp_path / f"{name}.quest"  # next to copies of its decks: the repository is not written
    copy.write_bytes(b"\xef\xbb\xbf" + source.read_bytes().replace(b"\n", b"\r\n"))
    plain = invoke("run", source, "--agent", "best", "--seed", 4, "--format", "jsonl").output
    crlf = invoke("run", copy, "--agent", "best", "--seed", 4, "--format", "jsonl").output
    assert plain == crlf and plain


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_sim_with_two_jobs_finds_no_error_or_dead_end(path):
    report = simulate(path, runs=40, seed=3, jobs=2, agent="random")
    assert report.runs == 40
    assert {k for k, n in report.endings.items() if n} <= ENDINGS[path.stem], report.endings
    assert not report.data["errors"] and not report.data["stuck"]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_explore_finds_no_error_or_dead_end(path):
    # The search, not sim's 2,000 fallback runs: every search but the Lantern Road's ends within
    # 150 runs (the Guild Hall's in 13, with its battles searched for each outcome: 4.5 s of CPU).
    found = explore(path, seed=1, max_runs=150)
    assert not found.problems, [f.as_dict() if hasattr(f, "as_dict") else f for f in found.findings]
    assert found.runs >= 1 and found.taken <= found.alternatives


def test_sim_cli_runs_200_runs_on_two_jobs():
    result = invoke("sim", HERE / "lantern_road.quest", "-n", 200, "--jobs", 2, "--no-progress")
    assert result.exit_code == 0 and "200 runs" in result.output, result.output


def test_sim_cli_explore_exits_0_without_a_dead_end():
    """The command's whole exploration: the search, then sim's own runs for the lines it left
    unreached (2,002 runs here, 1 s of CPU). Every adventure's search is checked above; the
    Lantern Road's whole exploration (2,808 runs) costs 15 s of CPU, too long for one test on
    a busy machine (docs/development.md, "The test suite")."""
    result = invoke("sim", HERE / "criticals_2014.quest", "--explore", "--no-progress")
    assert result.exit_code == 0 and "No dead ends and no runtime errors found." in result.output, result.output
    assert "explored in 2,002 runs" in result.output  # the search and the sim runs after it


def test_the_human_agent_fed_by_a_script_and_by_nothing():
    """Bad answers are asked again; the end of input ends the run, never a traceback."""
    path = HERE / "lantern_road.quest"
    answers = "\n".join(["", "x", "99", "-1", "2", "", "", "1", "n", "y"] + [""] * 200) + "\n"
    played = invoke("run", path, "--agent", "human", "--seed", 2, input=answers)
    assert played.exit_code == 0 and "Traceback" not in played.output
    assert "== The end" in played.output
    silent = invoke("run", path, "--agent", "human", "--seed", 2, input="")
    assert silent.exit_code == 0 and "end of input" in silent.output


def test_life_and_death_follows_t7():
    """T-7.1 dying at 0, T-7.4 a dying PC losing life dies, T-7.2 unconscious on an empty
    library: such PCs make no check (nobody is left for `by party`)."""
    result = run_scenario(compile_file(HERE / "life_and_death.quest"), "first", 1)
    kinds = [e["event"] for e in result.events]
    assert result.outcome == "grim"
    assert result.text == "Rika fell; Tomo remains with 21 life."
    checks = [e for e in result.events if e["event"] == "check"]
    assert checks and all(not e["success"] and not e["cards"] for e in checks)
    assert "narration" in kinds


def test_2014_criticals_are_ordinary_cards():
    """T-5 has no critical cards: the trigger never fires and no check is automatic."""
    for seed in range(1, 9):
        result = run_scenario(compile_file(HERE / "criticals_2014.quest"), "first", seed)
        narration = [e["text"] for e in result.events if e["event"] == "narration"]
        assert narration[-1] == "0"
        assert all(e["critical"] is None for e in result.events if e["event"] == "check")


# ---------------------------------------------------------------- bad scripts


def expected(path: Path) -> list[str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: ")
    return first.removeprefix("# expect: ").split()


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_a_bad_script_gets_every_located_error_and_nothing_else(path):
    result = invoke("check", path)
    assert result.exit_code == 1 and "Traceback" not in result.output
    found = re.findall(r"^(?:.*[/\\])?[^/\\:]+:(\d+):(\d+): error\[(DQ\d{4})\]: .+$", result.output, re.M)
    assert [f"{code}@{line}:{col}" for line, col, code in found] == expected(path), result.output
    lines = result.output.splitlines()
    for number, line in enumerate(lines):
        if re.match(r"^.+:\d+:\d+: error\[", line):
            assert lines[number + 2].lstrip().startswith("^"), result.output  # source line, caret


def test_a_bad_script_is_an_error_for_run_and_sim_too():
    path = HERE / "bad_misspelt_names.quest"
    for args in (["run", path, "--agent", "first"], ["sim", path, "-n", 5, "--no-progress"],
                 ["sim", path, "--explore"]):
        result = invoke(*args)
        assert result.exit_code == 1 and "DQ0031" in result.output and "Traceback" not in result.output


def test_huge_and_garbage_files_are_clear_errors(tmp_path):
    huge = tmp_path / "huge.quest"
    huge.write_text('scenario "H":\n    rules 2019\nstart scene s "S":\n' + '    "x"\n' * 200_000)
    binary = tmp_path / "binary.quest"
    binary.write_bytes(bytes(range(256)) * 50)
    empty = tmp_path / "empty.quest"
    empty.write_text("")
    for path, code in ((huge, "DQ0005"), (binary, None), (empty, "DQ0020")):
        result = invoke("check", path)
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert f"{path.name}:" in result.output
        if code:
            assert code in result.output


# ---------------------------------------------------------------- decks and odds


# typo.txt is a bad deck; imp_horde.txt names the GM cards of guild_hall.quest, known only there
@pytest.mark.parametrize("deck", [d for d in DECKS if d.stem not in ("typo", "imp_horde")], ids=lambda p: p.stem)
def test_odds_json_of_every_deck_format(deck):
    for rules, kinds, top in (("2019", ["white", "blue", "black", "red", "green", "colorless"], 8),
                              ("2014", ["negotiation", "intellect", "dexterity", "reflex", "body"], 12)):
        result = CliRunner().invoke(main, ["odds", str(deck), "--rules", rules, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["rules"] == rules and data["library"] in (40, 60, 100)
        assert sorted(data["odds"]) == sorted(kinds)
        for kind in kinds:
            chances = [data["odds"][kind][str(n)] for n in range(top + 1)]
            assert all(0 <= p <= 1 for p in chances)
            assert chances == sorted(chances, reverse=True)  # harder never helps
        assert ("odds_boost" in data) == (rules == "2019")


def test_odds_of_a_commander_deck_with_five_criticals_and_an_all_land_deck():
    result = CliRunner().invoke(main, ["odds", str(HERE / "decks" / "arena_commander.txt"), "--json",
                                       "--critical", "Krenko, Mob Boss", "--critical", "Mountain:4"])
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["library"] == 100
    assert "note" not in result.stderr  # 5 criticals: what T-4.7 asks of a Commander deck
    lands = CliRunner().invoke(main, ["odds", str(HERE / "decks" / "lands.txt"), "--json", "--rules", "2014"])
    body = json.loads(lands.stdout)["odds"]["body"]
    # T-5.2/T-5.3: Forest 0+5, Mountain 0+4; success iff value > target
    assert (body["3"], body["4"], body["5"]) == (1.0, 0.5, 0.0)


def test_an_unknown_card_gets_did_you_mean_and_the_import_command(tmp_path):
    result = invoke("odds", HERE / "decks" / "typo.txt")
    assert result.exit_code == 1
    assert "typo.txt:2:3: error[DQ1001]: unknown card `Lightnig Bolt`" in result.output
    assert "did you mean `Lightning Bolt`?" in result.output and "deckquest cards import" in result.output


# ---------------------------------------------------------------- parties and packs


def test_a_party_file_replaces_the_pcs_and_bad_ones_are_located_errors():
    path = HERE / "lantern_road.quest"
    good = invoke("run", path, "--party", HERE / "table.yaml", "--agent", "best", "--seed", 1)
    assert good.exit_code == 0 and "party: リカ, Tomo the Goblin Lord" in good.output
    for name, where in [("bad_missing_deck", "bad_missing_deck.yaml:4:11"), ("bad_key", "bad_key.yaml:3:5"),
                        ("bad_criticals", "bad_criticals.yaml:2:5"), ("bad_ids", "lantern_road.quest:"),
                        ("bad_tag", "bad_tag.yaml:1:8"), ("bad_deck_outside", "bad_deck_outside.yaml:5:11")]:
        result = invoke("run", path, "--party", HERE / f"{name}.yaml")
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert where in result.output and "error" in result.output, result.output


def test_a_pack_from_init_to_run(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKQUEST_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    assert invoke("pack", "init", "lantern-road").exit_code == 0
    root = tmp_path / "lantern-road"
    shutil.copy(HERE / "lantern_road.quest", root / "road.quest")
    for deck in ("red_mtgo", "green_arena", "horde"):
        shutil.copy(HERE / "decks" / f"{deck}.txt", root / "decks")
    manifest = root / "pack.yaml"
    text = manifest.read_text()
    assert invoke("pack", "validate", root).exit_code == 1  # the new files are not listed yet
    text = text.replace("  - decks/hero.txt\n", "  - decks/hero.txt\n  - decks/red_mtgo.txt\n"
                        "  - decks/green_arena.txt\n  - decks/horde.txt\n")
    manifest.write_text(text.replace("scenarios:\n", "scenarios:\n  - road.quest\n"))
    validated = invoke("pack", "validate", root)
    assert validated.exit_code == 0, validated.output
    assert invoke("pack", "build", root, "-o", "one.dqpack").exit_code == 0
    assert invoke("pack", "build", root, "-o", "two.dqpack").exit_code == 0
    assert (tmp_path / "one.dqpack").read_bytes() == (tmp_path / "two.dqpack").read_bytes()
    assert invoke("pack", "install", "one.dqpack").exit_code == 0
    by_pack = invoke("run", "lantern-road/road", "--agent", "best", "--seed", 3)
    local = invoke("run", root / "road.quest", "--agent", "best", "--seed", 3)
    assert by_pack.exit_code == 0 and by_pack.output == local.output
    assert invoke("run", "lantern-road/road.quest", "--agent", "best", "--seed", 3).output == local.output
    # a hostile edit: a deck outside the pack
    manifest.write_text(manifest.read_text())
    (root / "road.quest").write_text((root / "road.quest").read_text().replace(
        '"decks/red_mtgo.txt"', '"../../etc/passwd"'))
    refused = invoke("pack", "validate", root)
    assert refused.exit_code == 1 and "DQ0050" in refused.output
