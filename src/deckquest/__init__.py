"""deckquest: scenario scripts, exact odds and batch simulation for MTG-TRPG."""

from deckquest.version import __version__
