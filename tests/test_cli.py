"""The CLI's error contract: user errors exit 1, usage errors 2, bugs 70 -- never a traceback."""

from __future__ import annotations

from click.testing import CliRunner

from deckquest import cli


def test_a_bug_is_one_message_and_exit_70_not_a_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("stalemate")

    monkeypatch.setattr("deckquest.runtime.command.play", broken)
    monkeypatch.delenv("DECKQUEST_DEBUG", raising=False)
    result = CliRunner().invoke(cli.main, ["run", "scenarios/drowned_shrine/drowned_shrine.quest"])
    assert result.exit_code == 70
    assert "internal error: KeyError" in result.output and "Traceback" not in result.output


def test_usage_errors_still_exit_2():
    result = CliRunner().invoke(cli.main, ["sim", "x.quest", "--runs", "0"])
    assert result.exit_code == 2 and "Invalid value" in result.output
