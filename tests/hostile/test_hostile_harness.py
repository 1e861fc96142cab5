"""The hostile helpers measure the command, not pytest (tests/hostile/conftest.py)."""

def test_the_peak_memory_is_the_commands_own_however_large_pytest_is(folders, run_command):
    """A process's `ru_maxrss` counts the image it was forked from until it exec'd: a command
    forked straight from a pytest process of 150 MB reported 150 MB whatever it used itself,
    and `cards coverage` of a refused 50 MB line failed its 150 MB budget late in a full run.
    With 300 MB held here, `deckquest --version` must still report its own few megabytes."""
    cwd, home = folders
    held = bytearray(300 * 1024 * 1024)
    held[::4096] = b"x" * len(held[::4096])  # touched: resident, not only reserved
    result = run_command(["--version"], cwd=cwd, env_home=home, memory_mb=512, seconds=20)
    assert result.returncode == 0 and "deckquest" in result.stdout
    assert 1_000 < result.peak_kb < 100_000, result.peak_kb
