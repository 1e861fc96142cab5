"""`use "pack-name/path.quest"` across installed packs: names are namespaced, never colliding."""

import pytest

from deckquest.dsl.resolver import compile_file
from deckquest.errors import CompileError
from deckquest.packs.install import install_pack
from deckquest.packs.store import resolve_script_reference

from packtexts import SCENARIO

LIBRARY = 'creature guard "{name}":\n    cost "{{1}}{{R}}"\n    types Goblin Warrior\n    stats {stats}\n'

TWO_PACKS = '''use "goblins/lib/npcs.quest" as goblins
use "orcs/lib/npcs.quest" as orcs
''' + SCENARIO.replace('    "A hill."\n', '    "A hill."\n    encounter goblins.guard\n    encounter orcs.guard\n')


def library_pack(make_pack, name, guard, stats):
    folder = make_pack(name=name, extra="libraries: [lib/npcs.quest]\n",
                       files={"lib/npcs.quest": LIBRARY.format(name=guard, stats=stats)})
    return install_pack(folder).pack


def test_two_packs_declaring_the_same_name_do_not_collide(make_pack):
    library_pack(make_pack, "goblins", "Goblin Guard", "2/1")
    library_pack(make_pack, "orcs", "Orc Guard", "3/3")
    quest = make_pack(name="quest", depends=[("goblins", "^1"), ("orcs", "^1")],
                      files={"tiny.quest": TWO_PACKS})
    scenario = compile_file(quest / "tiny.quest", locator=resolve_script_reference)
    assert {"goblins.guard", "orcs.guard"} <= set(scenario.npcs)
    assert install_pack(quest).pack.name == "quest"


def test_using_an_undeclared_pack_is_a_compile_error(make_pack):
    library_pack(make_pack, "goblins", "Goblin Guard", "2/1")
    library_pack(make_pack, "orcs", "Orc Guard", "3/3")
    quest = make_pack(name="quest", depends=[("goblins", "^1")], files={"tiny.quest": TWO_PACKS})
    with pytest.raises(CompileError) as caught:
        compile_file(quest / "tiny.quest", locator=resolve_script_reference)
    assert "uses pack `orcs` without listing it under `depends`" in caught.value.render()
