"""`deckquest pack …` end to end through click: messages, exit codes, no tracebacks."""

import pytest
from click.testing import CliRunner

from deckquest.cli import main


@pytest.fixture
def cli(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def invoke(*args):
        return CliRunner().invoke(main, list(args))

    return invoke


def test_init_validate_build_install_list_remove(cli, tmp_path):
    assert cli("pack", "init", "my-quest").exit_code == 0
    result = cli("pack", "validate", "my-quest")
    assert result.exit_code == 0, result.output
    assert result.output == "ok: my-quest 0.1.0: 1 scenario, 1 deck, 0 card files, 3 files\n"
    result = cli("pack", "build", "my-quest")
    assert result.exit_code == 0 and "built" in result.output
    assert (tmp_path / "my-quest-0.1.0.dqpack").is_file()
    assert cli("pack", "install", "my-quest-0.1.0.dqpack").output == "installed my-quest 0.1.0\n"
    assert cli("pack", "list").output.splitlines() == ["my-quest 0.1.0  My Quest", "    my-quest/my_quest"]
    assert cli("pack", "remove", "my-quest").output == "removed my-quest 0.1.0\n"
    assert cli("pack", "list").output.startswith("no packs installed")


def test_schema_errors_print_every_location_and_exit_1(cli, tmp_path):
    cli("pack", "init", "bad")
    manifest = tmp_path / "bad" / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("version: 0.1.0", "version: 1") + "colour: red\n")
    result = cli("pack", "validate", "bad")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert lines[0] == "bad/pack.yaml:4:10: error[DQ7002]: `version` must be a string, not the number 1"
    assert lines[1:3] == ["    version: 1", "             ^"]
    assert any(line.startswith("bad/pack.yaml:18:1: error[DQ7002]: unknown key `colour`") for line in lines)
    assert lines[-1] == "2 errors"


def test_bad_yaml_is_one_located_error(cli, tmp_path):
    cli("pack", "init", "bad")
    (tmp_path / "bad" / "pack.yaml").write_text("name: [oops\n")
    result = cli("pack", "validate", "bad")
    assert result.exit_code == 1 and result.output.startswith("bad/pack.yaml:2:1: error[DQ7001]: invalid YAML")


def test_refused_archive_exits_1_with_a_message(cli, tmp_path):
    (tmp_path / "x.dqpack").write_bytes(b"not a zip")
    result = cli("pack", "install", "x.dqpack")
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "is not a pack archive" in result.output


def test_remove_unknown_pack(cli):
    result = cli("pack", "remove", "nothing")
    assert result.exit_code == 1 and "no installed pack `nothing`" in result.output


def test_validate_accepts_the_manifest_file_itself(cli):
    cli("pack", "init", "quest")
    result = cli("pack", "validate", "quest/pack.yaml")
    assert result.exit_code == 0 and result.output.startswith("ok: quest 0.1.0")


def test_run_an_installed_scenario_named_with_or_without_quest(cli, tmp_path):
    """`deckquest run PACK/SCENARIO` (issue 7) also takes the script's file name, as `use`
    and pack.yaml spell it; a missing local .quest file is still a located read error."""
    cli("pack", "init", "my-quest")
    assert cli("pack", "install", "my-quest").exit_code == 0
    plain = cli("run", "my-quest/my_quest", "--agent", "first")
    named = cli("run", "my-quest/my_quest.quest", "--agent", "first")
    assert plain.exit_code == named.exit_code == 0, named.output
    assert plain.output == named.output and "== The end" in plain.output
    missing = cli("run", "elsewhere/nothing.quest")
    assert missing.exit_code == 1 and "DQ0014" in missing.output and "Traceback" not in missing.output


def test_init_into_a_missing_folder_creates_it_issue_18(cli, tmp_path):
    """Issue 18 item 12: `pack init NAME --dir missing/folder` was an internal error (exit 70)."""
    result = cli("pack", "init", "my-quest", "--dir", "missing/folder")
    assert result.exit_code == 0, result.output
    assert result.output == ("created missing/folder/my-quest; check it with "
                             "`deckquest pack validate missing/folder/my-quest`\n")
    assert cli("pack", "validate", "missing/folder/my-quest").exit_code == 0


def test_init_under_a_file_is_a_user_error(cli, tmp_path):
    (tmp_path / "notes.txt").write_text("x")
    result = cli("pack", "init", "my-quest", "--dir", "notes.txt/sub")
    assert result.exit_code == 1
    assert "error[DQ7051]: cannot create the folder notes.txt/sub" in result.output
    assert "Traceback" not in result.output


def test_init_makes_folders_others_can_read_issue_18(cli, tmp_path):
    """Issue 18 item 12: the pack folder got mkdtemp's private mode 0700; it is made to be shared,
    so it gets what any folder gets (0777 less the umask), like its decks/ folder."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        assert cli("pack", "init", "my-quest", "--dir", "new").exit_code == 0
    finally:
        os.umask(old)
    modes = {path: stat.S_IMODE((tmp_path / path).stat().st_mode) for path in ("new", "new/my-quest", "new/my-quest/decks")}
    assert modes == {"new": 0o755, "new/my-quest": 0o755, "new/my-quest/decks": 0o755}
