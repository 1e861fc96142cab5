"""Every pack error carries a code of DQ7000-DQ7099 (issue 12), and each code is documented in
docs/errors.md with an example and the fix."""

import re
from pathlib import Path

from deckquest.packs.codes import CODES

ROOT = Path(__file__).resolve().parents[2]
ERRORS = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
PACKS = ROOT / "src" / "deckquest" / "packs"


def pack_sections() -> dict[str, str]:
    parts = re.split(r"^### (DQ70\d\d) ", ERRORS, flags=re.M)
    return dict(zip(parts[1::2], [p.split("\n## ", 1)[0] for p in parts[2::2]]))


def test_every_pack_code_is_documented_once_with_an_example_and_the_fix():
    sections = pack_sections()
    assert sorted(sections) == sorted(CODES)
    for code, section in sections.items():
        assert section.split("\n", 1)[0].strip() == CODES[code], code
        assert "Fix:" in section and "```" in section, code


def test_every_code_raised_by_the_pack_code_is_known():
    used = set()
    for path in PACKS.glob("*.py"):
        used |= set(re.findall(r'"(DQ7\d{3})"', path.read_text(encoding="utf-8")))
    assert used - set(CODES) == set()
    assert set(CODES) - used == set()  # no code documented but never raised


def test_no_pack_error_is_left_without_a_code():
    """Every DeckquestError and diagnostic built in packs/ names its code."""
    for path in PACKS.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for call in re.finditer(r"DeckquestError\(", text):
            depth, end = 0, call.end() - 1
            for end in range(call.end() - 1, len(text)):
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
            assert "code=" in text[call.start():end], f"{path.name}: {text[call.start():end][:120]}"
