"""deckquest: scenario scripts, exact odds and batch simulation for MTG-TRPG."""

__version__ = "0.1.0"
