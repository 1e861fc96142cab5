"""The bundled example adventures (scenarios/) are a pack: it validates, builds and installs."""

from pathlib import Path

from deckquest.packs.build import build_pack
from deckquest.packs.install import install_pack
from deckquest.packs.store import locate_scenario
from deckquest.packs.validate import validate_pack

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_the_examples_pack_validates():
    report = validate_pack(SCENARIOS)
    assert report.manifest.name == "deckquest-examples"
    assert "goblin_cave/goblin_cave.quest" in report.manifest.scenarios


def test_the_examples_pack_builds_reproducibly_and_installs(tmp_path):
    first = build_pack(SCENARIOS, tmp_path / "a.dqpack")
    second = build_pack(SCENARIOS, tmp_path / "b.dqpack")
    assert first.path.read_bytes() == second.path.read_bytes()
    assert validate_pack(first.path).files == validate_pack(SCENARIOS).files
    install_pack(first.path)
    assert locate_scenario("deckquest-examples/goblin_cave").name == "goblin_cave.quest"
