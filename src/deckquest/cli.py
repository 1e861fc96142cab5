"""The command line: a thin click layer over the library API.

Every user error is a DeckquestError; it becomes one message on stderr and
exit code 1 here (2 for usage errors). No traceback ever reaches a user.
"""

from __future__ import annotations

import sys

import click

from deckquest import __version__
from deckquest.errors import DeckquestError, UsageError


class DeckquestGroup(click.Group):
    """Turns user errors raised anywhere below into a message and an exit code."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UsageError as error:
            click.echo(error.render(), err=True)
            sys.exit(2)
        except DeckquestError as error:
            click.echo(error.render(), err=True)
            sys.exit(1)


@click.group(cls=DeckquestGroup)
@click.version_option(__version__, prog_name="deckquest")
def main():
    """deckquest: run, check and measure MTG-TRPG scenarios."""


@main.group()
def cards():
    """Look up cards and import card data."""
