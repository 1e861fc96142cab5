"""The command line: a thin click layer over the library API.

Every user error is a DeckquestError; it becomes one message on stderr and
exit code 1 here (2 for usage errors). No traceback ever reaches a user: a bug
in deckquest itself is reported as an internal error, exit code 70
(DECKQUEST_DEBUG=1 shows its traceback).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from deckquest import __version__
from deckquest.errors import DeckquestError, UsageError
from deckquest.i18n import LANGUAGES, _, choose, command_scope, language, language_for
from deckquest.signals import Terminated, exit_code, signal_of, sigterm_as_interrupt


# Written without building anything: when memory is exhausted even formatting can fail.
OUT_OF_MEMORY = (b"error[DQ0101]: deckquest ran out of memory on this input\n"
                 b"hint: the input is too large to process; see the limits in docs/packs.md\n")
INTERNAL_ERROR = (b"deckquest: internal error while reporting an error\n"
                  b"This is a bug in deckquest, not in your files. Please report it with the command "
                  b"and its files; set DECKQUEST_DEBUG=1 to see the traceback.\n")


class DeckquestGroup(click.Group):
    """Turns user errors raised anywhere below into a message and an exit code.

    The guard covers its own error handling too: rendering 100 errors of a hostile script can
    itself run out of memory, and that must end as one short coded message, not a traceback.
    """

    def invoke(self, ctx):
        try:
            return self._reported(ctx)
        except MemoryError:
            pass  # leaving the handler frees the failed command's memory before writing
        except (SystemExit, click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception:
            if os.environ.get("DECKQUEST_DEBUG"):
                raise
            _write_stderr(INTERNAL_ERROR)
            sys.exit(70)
        _write_stderr(OUT_OF_MEMORY)
        sys.exit(1)

    def _reported(self, ctx):
        """The command, with SIGTERM doing what Ctrl-C does (deckquest.signals)."""
        with command_scope(), sigterm_as_interrupt():
            try:
                return self._run(ctx)
            except Terminated as interrupt:  # what the command does on Ctrl-C is done (a save, a file removed)
                sys.exit(exit_code(signal_of(interrupt)))

    def _run(self, ctx):
        try:
            return super().invoke(ctx)
        except UsageError as error:
            click.echo(_rendered(error), err=True)
            sys.exit(2)
        except DeckquestError as error:
            click.echo(_rendered(error), err=True)
            sys.exit(1)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:  # `deckquest run ... | head` closed the pipe: not an error of ours
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except MemoryError:
            raise
        except Exception as error:  # a bug: one message instead of a traceback
            if os.environ.get("DECKQUEST_DEBUG"):
                raise
            click.echo(f"deckquest: internal error: {type(error).__name__}: {error}\n"
                       "This is a bug in deckquest, not in your files. Please report it with the command "
                       "and its files; set DECKQUEST_DEBUG=1 to see the traceback.", err=True)
            sys.exit(70)


def _rendered(error: DeckquestError) -> str:
    """The error in the command's language: ``--lang``, else the failing script's header."""
    with language(language_for(getattr(error, "language", None))):
        return error.render()


def lang_option(command):
    """``--lang ja|en``: the language of the output, over the script's ``language`` header."""
    return click.option("--lang", type=click.Choice(LANGUAGES), default=None, expose_value=False,
                        callback=lambda ctx, param, value: choose(value), is_eager=True,
                        help="Language of the output (transcript, report, messages) [default: the script's "
                             "`language`, else en].")(command)


def _write_stderr(message: bytes) -> None:
    """Write to file descriptor 2 directly, flushing what Python buffered before."""
    try:
        sys.stderr.flush()
    except Exception:  # a stream that failed mid-write: what reaches fd 2 still matters
        pass
    os.write(2, message)


@click.group(cls=DeckquestGroup)
@click.version_option(__version__, prog_name="deckquest")
def main():
    """deckquest: run, check and measure scenarios of games played with Magic cards."""
    from deckquest.systems import load_all

    load_all()  # every game system registers itself (deckquest.systems)


@main.group()
def cards():
    """Look up cards and import card data."""


@cards.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--format", "file_format", type=click.Choice(["auto", "scryfall", "mtgjson"]), default="auto",
    show_default=True, help="Scryfall bulk JSON or MTGJSON AtomicCards.json; auto looks at the first bytes.",
)
def cards_import(file: Path, file_format: str):
    """Import FILE into the user card database: it replaces the previous import of the same
    source (Scryfall or MTGJSON) and keeps the other's."""
    from deckquest.cards.userdb import import_file

    if not sys.stderr.isatty():
        report = import_file(file, file_format=file_format)
    else:
        size = file.stat().st_size if file.is_file() else 0
        with click.progressbar(length=size, label="importing", file=sys.stderr) as bar:
            report = import_file(file, file_format=file_format, on_progress=lambda done: bar.update(done - bar.pos))
    click.echo(report.summary())


@cards.command("show")
@click.argument("name", nargs=-1, required=True)
def cards_show(name: tuple[str, ...]):
    """Print the card called NAME (English or Japanese), from the imported or built-in cards."""
    from deckquest.cards.database import default_database
    from deckquest.cards.userdb import card_sheet, find_with_origin

    wanted = " ".join(name)
    database = default_database()
    found = find_with_origin(database, wanted)
    if found is None:
        suggestion = database.suggest(wanted)
        raise DeckquestError(_("unknown card `{wanted}`", wanted=wanted), hint=_("did you mean `{suggestion}`?", suggestion=suggestion) if suggestion else None)
    click.echo(card_sheet(*found))


@cards.command("coverage")
@click.argument("deck", type=click.Path(dir_okay=False, path_type=Path))
def cards_coverage(deck: Path):
    """List which cards of DECK battles simulate fully, partly, or not at all."""
    from deckquest.cards.decklist import load_deck
    from deckquest.cards.oracle import coverage, format_coverage

    loaded = load_deck(deck)
    click.echo(format_coverage(coverage(loaded.main_cards()), str(deck)))


@main.command()
@lang_option
@click.argument("deck", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--critical",
    "critical",
    multiple=True,
    metavar="NAME[:COUNT]",
    help="Designate COUNT copies (default 1) of NAME as critical cards (T-4.7); repeatable.",
)
@click.option("--rules", type=click.Choice(["2019", "2014"]), default=None,
              help="Check rules for a deck (default 2019); a script names its own.")
@click.option("--party", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With a script: a party file to use instead of the script's PCs.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--attack", type=click.IntRange(0, 30), help="Arena: attack dice; with --defence, the wound table (A-19).")
@click.option("--defence", "--defense", "defence", type=click.IntRange(0, 30), help="Arena: defence dice.")
@click.option("--height", type=click.Choice(["attacker", "defender"]), help="Arena: who stands higher (+1 die, A-21).")
def odds(deck: Path | None, critical: tuple[str, ...], rules: str | None, party: Path | None, as_json: bool,
         attack: int | None, defence: int | None, height: str | None):
    """Print DECK's memo (T-1.6) and the exact chance of success of every check.

    Given a scenario script (.quest) instead of a deck list, print every PC's exact odds at
    every check of the script; with --attack and --defence, an Arena attack's exact wound
    distribution (docs/arena.md).
    """
    import json

    if attack is not None or defence is not None:
        _arena_odds(deck, attack, defence, height, as_json)
        return
    if deck is None:
        raise UsageError("odds needs a DECK or a SCRIPT, or --attack and --defence")
    if deck.suffix == ".quest":
        from deckquest.runtime.command import compile_script, party_members
        from deckquest.sim.script_odds import format_script_odds, script_odds

        if critical or rules:
            raise UsageError(_("--critical and --rules go with a deck list; a script names its PCs' critical cards and its rules"))
        scenario = compile_script(str(deck))
        edition, sites = script_odds(scenario, party_members(party))
        script_language = scenario.language
        if as_json:
            click.echo(json.dumps({"rules": edition, "checks": [site.as_dict() for site in sites]}))
        else:
            with language(language_for(script_language)):
                click.echo(format_script_odds(edition, sites), nl=False)
        return
    if party is not None:
        raise UsageError(_("--party goes with a script"))
    from deckquest.cards.decklist import load_deck
    from deckquest.engine.pc import required_critical_count
    from deckquest.engine.odds import critical_ids_from_options, format_odds, odds_report

    rules = rules or "2019"
    loaded = load_deck(deck)
    cards = loaded.main_cards()
    critical_ids = critical_ids_from_options(cards, critical)
    required = required_critical_count(loaded.is_commander)
    if rules == "2019" and len(critical_ids) != required:
        click.echo(_("note: T-4.7 designates exactly {required} critical cards; these odds use {count}",
                     required=required, count=len(critical_ids)), err=True)
    report = odds_report(cards, critical_ids, rules)
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo(format_odds(report, [cards[i].name for i in sorted(critical_ids)]))


def _arena_odds(deck: Path | None, attack: int | None, defence: int | None, height: str | None, as_json: bool) -> None:
    import json

    from deckquest.systems.arena.odds import format_wound_report, wound_report

    if deck is not None or attack is None or defence is None:
        raise UsageError("an attack's odds take --attack and --defence, and no DECK")
    report = wound_report(attack, defence, {"attacker": 1, "defender": -1}.get(height or "", 0))
    click.echo(json.dumps(report) if as_json else format_wound_report(report))


@main.command()
@lang_option
@click.argument("scripts", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--watch", is_flag=True, help="Check again whenever a script or a file it reads changes (Ctrl-C stops).")
def check(scripts: tuple[Path, ...], watch: bool):
    """Compile each SCRIPT and print its errors and warnings; exit 1 if any has errors."""
    from deckquest.dsl.command import check_scripts, watch as watch_scripts

    if watch:
        try:
            watch_scripts(list(scripts), click.echo)
        except KeyboardInterrupt:
            click.echo(_("stopped watching"), err=True)
        return
    failed, _read = check_scripts(scripts, click.echo)
    if failed:
        sys.exit(1)


@main.command("lsp")
def lsp_command():
    """Run the language server over stdio, for an editor (docs/editor.md; needs deckquest[lsp])."""
    try:
        from deckquest.lsp.server import main as serve
    except ImportError:
        raise UsageError(_("the language server needs pygls: pip install 'deckquest[lsp]'")) from None
    serve()


@main.command("run")
@lang_option
@click.argument("script")
@click.option("--party", "party", type=click.Path(dir_okay=False), help="A party YAML file replacing the pre-generated PCs.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run's random generator.")
@click.option("--agent", metavar="NAME", default=None,
              help="Who decides for the players: human, random, first, best, scripted, or a game system's "
                   "agent [default: scripted with --choose, human on a terminal, else first].")
@click.option("--choose", default=None, help="Option numbers for the choices in order, e.g. 1,2,1.")
@click.option("--format", "output_format", type=click.Choice(["text", "jsonl"]), default="text", show_default=True)
@click.option("--max-steps", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="A run longer than this many statements ends as stuck.")
@click.option("--save", "save", type=click.Path(dir_okay=False), default=None,
              help="Save the run to this file if it stops before its end (end of input, `save` at a prompt, Ctrl-C).")
@click.option("--resume", "resume", type=click.Path(dir_okay=False), default=None,
              help="Continue the run saved in this file (same script and party).")
def run_command(script, party, seed, agent, choose, output_format, max_steps, save, resume):
    """Play SCRIPT (a .quest file or PACK/SCENARIO) and print its transcript."""
    from deckquest.runtime.command import play

    play(script, party=party, seed=seed, agent=agent, choose=choose, output_format=output_format,
         echo=click.echo, ask=input, interactive=sys.stdin.isatty(), max_steps=max_steps,
         save=save, resume=resume)


@main.group()
def pack():
    """Make, check, share and install scenario packs (docs/packs.md)."""


@pack.command("init")
@click.argument("name")
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=".",
              help="Create the pack folder inside this folder.")
def pack_init(name: str, parent: Path):
    """Create the folder NAME: a pack skeleton with one scenario."""
    from deckquest.packs.build import init_pack

    root = init_pack(name, parent)
    click.echo(f"created {root}; check it with `deckquest pack validate {root}`")


@pack.command("validate")
@click.argument("location", type=click.Path(exists=True, path_type=Path))
def pack_validate(location: Path):
    """Check a pack folder, its pack.yaml or a .dqpack archive, reporting every problem."""
    from deckquest.packs.validate import validate_pack

    report = validate_pack(location)
    manifest = report.manifest
    click.echo(f"ok: {manifest.name} {manifest.version}: {_count(report.scenarios, 'scenario')}, "
               f"{_count(report.decks, 'deck')}, {_count(report.cards, 'card file')}, "
               f"{_count(len(report.files), 'file')}")


def _count(number: int, noun: str) -> str:
    """"1 scenario", "2 scenarios"."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


@pack.command("build")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--output", "-o", type=click.Path(path_type=Path), default=None,
              help="Archive file or folder (default: NAME-VERSION.dqpack in the current folder).")
def pack_build(folder: Path, output: Path | None):
    """Validate FOLDER and write a reproducible .dqpack archive of it."""
    from deckquest.packs.build import build_pack

    result = build_pack(folder, output)
    click.echo(f"built {result.path} ({_count(result.files, 'file')}, {_count(result.size, 'byte')})")


@pack.command("install")
@click.argument("source", type=click.Path(exists=True, path_type=Path))
@click.option("--force", is_flag=True,
              help="Replace an installed pack of the same name and version whose contents differ.")
@click.option("--allow-downgrade", is_flag=True, help="Replace an installed pack with an older version.")
def pack_install(source: Path, force: bool, allow_downgrade: bool):
    """Install a .dqpack archive or a pack folder into the user data folder."""
    from deckquest.packs.install import install_pack

    result = install_pack(source, force=force, allow_downgrade=allow_downgrade)
    name = f"{result.pack.name} {result.pack.version}"
    if result.unchanged:
        click.echo(f"{name} is already installed, with the same contents")
    elif result.forced:
        click.echo(f"installed {name} (replacing the installed {result.replaced}, whose contents differed)")
    else:
        click.echo(f"installed {name}" + (f" (replacing {result.replaced})" if result.replaced else ""))


@pack.command("list")
def pack_list():
    """List the installed packs and their scenarios."""
    from deckquest.packs.store import installed_packs, packs_dir, scenario_refs

    packs = installed_packs()
    if not packs:
        click.echo(f"no packs installed in {packs_dir()}")
    for installed in packs.values():
        manifest = installed.manifest
        click.echo(f"{manifest.name} {manifest.version}  {manifest.title}")
        for ref in scenario_refs(manifest):
            click.echo(f"    {ref}")


@pack.command("remove")
@click.argument("name")
def pack_remove(name: str):
    """Uninstall the pack NAME."""
    from deckquest.packs.install import remove_pack

    removed = remove_pack(name)
    click.echo(f"removed {removed.name} {removed.version}")


@main.command("sim")
@lang_option
@click.argument("script")
@click.option("-n", "--runs", type=click.IntRange(min=1), default=None,
              help="How many runs; with --precision, the most runs [default: 2,000; 100,000 with --precision].")
@click.option("--precision", metavar="P", default=None,
              help="Stop once every ending and battle outcome is known to ±P (95%), e.g. 2% or 0.02.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run i is seeded from (SEED, i) alone.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Worker processes [default: one per core].")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Play the runs on the Dask cluster at ADDRESS, e.g. tcp://10.0.0.5:8786 (the `cluster` extra).")
@click.option("--scheduler-timeout", metavar="SECONDS", type=click.FloatRange(min=0, min_open=True), default=None,
              help="With --scheduler: how long to wait for the scheduler to answer [default: 10].")
@click.option("--party", type=click.Path(dir_okay=False), help="A party YAML file replacing the pre-generated PCs.")
@click.option("--agent", metavar="NAME", default="best", show_default=True,
              help="Who decides for the players: random, first, best, or a game system's agent (docs/agents.md).")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), help="Write the report as JSON to this file.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False), help="Write a self-contained HTML report.")
@click.option("--max-steps", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="A run longer than this many statements counts as stuck.")
@click.option("--explore", is_flag=True, help="Cover every choice option, check outcome and battle outcome instead of random runs.")
@click.option("--compare", "changes", metavar="OPTIONS",
              help='Play the script as written and with OPTIONS (e.g. "no option dragon bounty, reading home square") '
                   "on the same seeds; report each figure's difference with its interval.")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr [default: when it is a terminal].")
def sim_command(script, runs, precision, seed, jobs, scheduler, scheduler_timeout, party, agent, json_file,
                html_file, max_steps, explore, changes, progress):
    """Simulate SCRIPT many times and report how hard it is (docs/sim.md)."""
    from deckquest.sim.command import compare_command, explore_command, sim

    show = sys.stderr.isatty() if progress is None else progress
    if changes is not None:
        if explore or html_file or precision or scheduler:
            raise UsageError("--compare prints its figures and writes --json; it goes without --explore, --html, "
                             "--precision and --scheduler")
        code = compare_command(script, changes, runs=runs or 2_000, seed=seed, jobs=jobs, party=party, agent=agent,
                               json_file=json_file, max_steps=max_steps, echo=click.echo)
    elif explore:
        code = explore_command(script, party=party, seed=seed, max_steps=max_steps, json_file=json_file,
                               html_file=html_file, echo=click.echo)
    else:
        code = sim(script, runs=runs, seed=seed, jobs=jobs, party=party, agent=agent, json_file=json_file,
                   html_file=html_file, max_steps=max_steps, progress=show, echo=click.echo,
                   precision=precision, scheduler=scheduler, scheduler_timeout=scheduler_timeout)
    sys.exit(code)


@main.command("graph")
@click.argument("script")
@click.option("--format", "fmt", type=click.Choice(["svg", "dot", "mermaid"]), default="svg", show_default=True,
              help="SVG (a picture), Graphviz DOT or Mermaid text.")
@click.option("--sim", "sim_json", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A `deckquest sim --json` report of SCRIPT: label each exit with its rate.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of stdout.")
def graph_command(script, fmt, sim_json, output):
    """Draw SCRIPT's scenes and their exits (each ->, each end), with the branch that takes
    each exit and, given a sim report, how often runs take it."""
    from deckquest.sim.command import graph

    graph(script, fmt=fmt, sim_json=sim_json, output=output, echo=click.echo)


@main.command("tune")
@lang_option
@click.argument("script")
@click.option("--check", "check_site", required=True, metavar="LABEL|LINE", help="The check to tune.")
@click.option("--target", required=True, metavar="RATE", help="The success rate wanted, e.g. 60%.")
@click.option("-n", "--runs", type=click.IntRange(min=1), default=2_000, show_default=True,
              help="Runs per difficulty tried.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Worker processes [default: one per core].")
@click.option("--party", type=click.Path(dir_okay=False), help="A party YAML file replacing the pre-generated PCs.")
@click.option("--agent", type=click.Choice(["random", "first", "best"]), default="best", show_default=True)
@click.option("--max-steps", type=click.IntRange(min=1), default=10_000, show_default=True)
def tune_command(script, check_site, target, runs, seed, jobs, party, agent, max_steps):
    """Find the difficulty of one check that brings its success rate closest to RATE."""
    from deckquest.sim.command import tune

    sys.exit(tune(script, check=check_site, target=target, runs=runs, seed=seed, jobs=jobs, party=party,
                  agent=agent, max_steps=max_steps, echo=click.echo))
