"""Fixtures for pack tests: a private user folder and small packs written on the fly.

Malicious packs (zip bombs, escaping entries, bad checksums) are generated in
tmp_path at test time, so no hostile file is ever committed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from packtexts import write_pack


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> Path:
    """DECKQUEST_HOME in tmp_path: installed packs never touch the real user folder."""
    folder = tmp_path / "home"
    monkeypatch.setenv("DECKQUEST_HOME", str(folder))
    return folder


@pytest.fixture
def make_pack(tmp_path):
    """make_pack(name=..., version=..., depends=[(name, range)], files={path: text})."""
    def make(name="tiny", version="1.0.0", **options) -> Path:
        return write_pack(tmp_path / "src" / f"{name}-{version}", name, version, **options)

    return make
