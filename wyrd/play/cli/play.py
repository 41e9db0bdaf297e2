"""The ``wyrd`` subcommands for playing: play, resume, log, export, saves.

Only argparse is imported at the top; each handler imports the session, the
save file and the REPL when it runs, so ``wyrd --version`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from wyrd.play.cli.rulesets import add_ruleset_option

if TYPE_CHECKING:
    from wyrd.play.engine.session import Session
    from wyrd.play.frontends.console import Console

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["add_backup", "add_export", "add_log", "add_model_options", "add_play", "add_resume", "add_saves",
           "models_deferred", "narrate_with_model", "plugins_found_when_asked", "setting_up"]


def _fail(message: str) -> int:
    from wyrd.play.frontends.view import clean  # a message may quote a save's or a story's text

    print("wyrd: " + "\n".join(clean(line) for line in message.splitlines()), file=sys.stderr)
    return 1


def add_model_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="a language model to narrate, as PROVIDER:MODEL (openai:gpt-4o-mini, "
                   "ollama:llama3.2, ...); also WYRD_MODEL or the config file; `table` for the tables only")
    p.add_argument("--base-url", help="the address of an OpenAI-compatible server for --model")


def add_play(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("play", help="start a new game (the REPL, or a script)")
    p.add_argument("--story", help="the story to play (`wyrd stories` lists them; default at the terminal: the "
                   "quick-start story; `none` for ad hoc play)")
    p.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                   help="another folder of stories (may be repeated)")
    add_ruleset_option(p, defaulted=False)
    p.add_argument("--seed", type=int, help="the seed of the dice (default: a random one)")
    p.add_argument("--save", type=Path, help="the save file (default: a new file in your data folder)")
    p.add_argument("--script", help="run commands from FILE (- for standard input) instead of the REPL")
    p.add_argument("--json", action="store_true", help="print one JSON object per event")
    add_model_options(p)
    p.add_argument("--dice", choices=["seeded", "typed"], default="seeded",
                   help="typed: roll real dice and type the faces")
    p.set_defaults(handler=run_play)


def add_resume(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("resume", help="carry on a saved game (the newest by default)")
    p.add_argument("file", nargs="?", type=Path)
    add_model_options(p)
    p.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                   help="another folder of stories (may be repeated)")
    p.add_argument("--script", help="run commands from FILE (- for standard input) instead of the REPL")
    p.add_argument("--json", action="store_true", help="print one JSON object per event")
    p.set_defaults(handler=run_resume)


def add_log(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("log", help="print a save's transcript")
    p.add_argument("file", type=Path)
    p.add_argument("--all", action="store_true", help="include undone commands (the audit trail)")
    p.set_defaults(handler=run_log)


def add_export(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("export", help="write a save as a Markdown journal")
    p.add_argument("file", type=Path)
    p.add_argument("--md", action="store_true", help="Markdown (the only format, for now)")
    p.add_argument("-o", "--output", type=Path, help="where to write it (default: standard output; never a save, "
                   "and an existing file only with --force)")
    p.add_argument("--force", action="store_true", help="replace OUTPUT if it exists (a save is never replaced)")
    p.add_argument("--save", dest="save_copy", action="store_true",
                   help="a self-contained copy of the save itself, as `wyrd backup` makes (never overwrites)")
    p.set_defaults(handler=run_export)


def add_backup(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("backup", help="copy a save into one self-contained file, to keep or share")
    p.add_argument("file", type=Path)
    p.add_argument("-o", "--output", type=Path,
                   help="the copy (default: FILE with -backup before its suffix; never overwritten)")
    p.set_defaults(handler=run_backup)


def add_saves(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("saves", help="list the saved games in your data folder")
    p.set_defaults(handler=run_saves)


# -- handlers ---------------------------------------------------------------------


def _script(source: str) -> Iterator[str]:
    from wyrd.play.frontends.script import read_lines

    return read_lines(source)


def _quick_start(ruleset: str) -> str | None:
    """The story a first game of ``ruleset`` starts with at the terminal (its kit says; None: ad hoc)."""
    from wyrd.play.engine.kits import hooks_for

    try:
        return hooks_for(ruleset).quick_start
    except LookupError:
        return None  # Session.new says what is wrong with the ruleset


def _typed_ask(lines: Iterator[str] | None) -> object:
    """Ask for physical dice: the next script line, or a prompt at the terminal."""
    from wyrd.play.engine.words import UsageError, parse_int, split_line

    def ask(n: int, sides: int, purpose: str) -> list[int]:
        while True:
            prompt = f"Roll {n}d{sides} ({purpose}) and type the faces: "
            text = input(prompt) if lines is None else next(lines, "")
            try:
                return [parse_int(w, "face", low=1, high=sides) for w in split_line(text)]
            except UsageError as exc:
                if lines is not None:
                    raise
                print(exc)

    return ask


def _tables_instead(exc: Exception) -> bool:
    """Say why no model narrates (a provider's error cleaned: it may carry escape sequences); False."""
    from wyrd.play.frontends.view import clean

    print(f"wyrd: {clean(exc)}; the tables will tell the story.", file=sys.stderr)
    return False


def narrate_with_model(session: Session, args: argparse.Namespace) -> bool:
    """Put the configured language model, if any, in charge of the prose; True if one is.

    A model that cannot be set up is reported and the tables tell the story instead. Its
    words reach a screen only through the console's telling (the REPL shows them as they
    come, after what happened).
    """
    from wyrd.oracle.narrators.settings import NarratorConfigError, narrator_settings

    try:
        settings = narrator_settings(args.model, base_url=args.base_url)
        if not settings.given:
            return False  # the tables alone: the settings' model, the narrator and its prompts are never loaded
        from wyrd.oracle.narrators.llm_config import config_from

        config = config_from(settings)
    except NarratorConfigError as exc:
        return _tables_instead(exc)
    if not config.model:
        return False
    from wyrd.oracle.narrators.llm import make_narrator

    try:
        llm = make_narrator(config)
    except NarratorConfigError as exc:
        return _tables_instead(exc)
    if llm is None:
        return False
    from wyrd.play.engine.narration import played

    # The model hears the story so far from what the save holds (never its own earlier prose),
    # the same for a game resumed as for one played straight.
    session.teller.use_llm(llm, history=lambda last: played(session, last))
    session.teller.readings = config.readings
    return True


def models_deferred(on: bool) -> None:
    """While ``on``, a pydantic model defined builds its validator when first used, not when defined.

    Setting a game up defines about a hundred models (the rules' state and events, the story
    format's, the narration's) and built 66 validators; a new game of hollow-fair needs 22 of them
    before its first prompt. Deferred, the rest are built at their first use: about 10 ms less wait
    for the prompt (more for a shared table's first page) and 4 to 8 ms more over the game's first
    eleven commands (bench/RESULTS.md, issue 21, point 2). What a model accepts and refuses is the
    same either way. Models defined while it is off (the default, and after setup) are built as
    pydantic always builds them.
    """
    from pydantic import BaseModel

    if on:
        BaseModel.model_config["defer_build"] = True
    else:
        BaseModel.model_config.pop("defer_build", None)


def _collector_held(handler: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Run ``handler`` with the cyclic garbage collector off until :func:`_run` starts the game.

    Setting a game up imports pydantic, the rules' models and prompt-toolkit: tens of
    thousands of objects that last as long as the game. Left on, the collector walks them
    over and over while they are made, about a tenth of the wait for the first prompt.
    The models defined meanwhile build their validators when first used (:func:`models_deferred`).
    Whatever happens, both are back as they were when the handler returns.
    """
    @functools.wraps(handler)
    def held(args: argparse.Namespace) -> int:
        with setting_up():
            return handler(args)

    return held


def plugins_found_when_asked() -> None:
    """Import pydantic's plugin loader with a stand-in for importlib.metadata.

    The loader, imported at the first validator built, takes ``entry_points`` from importlib.metadata,
    which brings email, zipfile and csv with it (about 28 M instructions, 3% of a game's start), and
    calls it only when plugins are on (``wyrd`` turns them off when no package declares one): given the
    stand-in, it loads importlib.metadata only if it calls it. Done where a game is set up, which
    imports pydantic anyway, before the game starts a thread of its own (the host's server has
    imported the real module by then, and is left with it); a pydantic without that module has
    nothing to spare.
    """
    from wyrd.deferred import stood_in

    with stood_in("importlib.metadata", ("entry_points",)), contextlib.suppress(ImportError):
        importlib.import_module("pydantic.plugin._loader")


@contextlib.contextmanager
def setting_up() -> Iterator[None]:
    """The collector off, the models deferred and pydantic's plugins found when asked for, for the
    block; the collector and the models as they were after it."""
    gc.disable()
    models_deferred(True)
    plugins_found_when_asked()
    try:
        yield
    finally:
        models_deferred(False)
        gc.enable()


def _run(console: Console, args: argparse.Namespace, lines: Iterator[str] | None) -> int:
    models_deferred(False)  # the game is set up: what loads later (a language model's library) builds as usual
    if lines is None and sys.stdin.isatty():
        from wyrd.play.frontends.terminal.repl import run_repl

        # Later collections skip what setting up made; that keeps its little garbage (about a megabyte)
        # for the game's life, where collecting it now would cost the player as much as was saved.
        gc.freeze()
        gc.enable()
        return run_repl(console)
    gc.enable()
    from wyrd.play.frontends.script import read_lines, run_script

    return run_script(console, lines if lines is not None else read_lines("-"), args.json)


def _play_on(session: Session, path: Path, args: argparse.Namespace, lines: Iterator[str] | None) -> int:
    """Play a new or resumed session to its end, with the configured narrator, and close it."""
    from wyrd.play.frontends.console import Console

    try:
        narrate_with_model(session, args)
        return _run(Console(session, path), args, lines)
    finally:
        session.close()  # stops a model's stream still running, too


@_collector_held
def run_play(args: argparse.Namespace) -> int:
    import secrets

    from wyrd.play.cli.story import RulesetMismatch, play_ruleset
    from wyrd.play.engine.paths import new_save_path
    from wyrd.play.engine.reply import SessionError
    from wyrd.play.engine.savefile import SaveError
    from wyrd.play.engine.session import Session
    from wyrd.rulesets import find_ruleset

    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    lines = _script(args.script) if args.script else None
    story = args.story
    try:
        ruleset = play_ruleset(story, args.ruleset, args.content)  # the story's own ruleset decides
    except RulesetMismatch as exc:
        return _fail(str(exc))
    # The rules package is imported here, near the top of the stack, not at the end of the
    # kit's chain of imports: CPython 3.11 keeps frames in 16 KiB chunks and frees a chunk
    # whenever the stack drops back below it, and pydantic building the rules' models at a
    # chunk's edge mapped and unmapped one about 900 times before the first prompt
    # (strace, bench/RESULTS.md).
    find_ruleset(ruleset).load()
    if story is None and lines is None and sys.stdin.isatty():
        story = _quick_start(ruleset)  # at the terminal, a first game needs no choices
    if story == "none":
        story = None
    ask = _typed_ask(lines) if args.dice == "typed" else None
    try:
        path = args.save or new_save_path(seed)
        session = Session.new(path, seed=seed, story=story, dice_mode=args.dice, ask=ask,  # type: ignore[arg-type]
                              content=args.content, ruleset=ruleset)
    except (SaveError, SessionError, OSError) as exc:
        return _fail(str(exc))
    return _play_on(session, path, args, lines)


@_collector_held
def run_resume(args: argparse.Namespace) -> int:
    from wyrd.play.engine.paths import newest_save
    from wyrd.play.engine.reply import SessionError
    from wyrd.play.engine.savefile import SaveError
    from wyrd.play.engine.session import Session

    path = args.file or newest_save()
    if path is None:
        return _fail("there is no saved game to resume; start one with: wyrd play")
    lines = _script(args.script) if args.script else None
    try:
        session = Session.resume(path, ask=_typed_ask(lines), content=args.content)  # type: ignore[arg-type]
    except (SaveError, SessionError, OSError) as exc:
        return _fail(str(exc))
    return _play_on(session, path, args, lines)


def run_log(args: argparse.Namespace) -> int:
    from wyrd.play.engine.journal import transcript
    from wyrd.play.engine.savefile import SaveError, SaveFile
    from wyrd.play.engine.session import DAMAGED
    from wyrd.play.frontends.view import wording

    try:
        with SaveFile.open(args.file, readonly=True) as save:
            print("\n".join(transcript(save, wording(str(save.meta.get("ruleset"))), audit=args.all)))
    except BrokenPipeError:
        raise  # `wyrd log F | head`: main() lets the reader go quietly
    except (SaveError, OSError) as exc:
        return _fail(str(exc))
    except DAMAGED as exc:
        return _fail(f"{args.file} is a damaged save file ({exc}).")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from wyrd.play.engine.journal import journal
    from wyrd.play.engine.overwrite import OverwriteRefused, check_target, write_new
    from wyrd.play.engine.savefile import SaveError, SaveFile
    from wyrd.play.engine.session import DAMAGED
    from wyrd.play.frontends.view import wording

    if args.save_copy:
        return run_backup(args)
    try:
        if args.output:  # refused before the save is read: never onto a save, nor an existing file unasked
            check_target(args.output, source=args.file, force=args.force)
        with SaveFile.open(args.file, readonly=True) as save:
            text = journal(save, wording(str(save.meta.get("ruleset"))))
        if args.output:
            write_new(args.output, text, source=args.file, force=args.force)
        else:
            sys.stdout.write(text)
    except OverwriteRefused as exc:
        return _fail(str(exc))
    except (SaveError, OSError) as exc:
        return _fail(str(exc))
    except DAMAGED as exc:
        return _fail(f"{args.file} is a damaged save file ({exc}).")
    return 0


def _backup_path(path: Path) -> Path:
    """FILE with -backup before its suffix (g.wyrd: g-backup.wyrd), numbered past any taken."""
    out = path.with_name(f"{path.stem}-backup{path.suffix}")
    n = 2
    while out.exists() or out.is_symlink():
        out = path.with_name(f"{path.stem}-backup-{n}{path.suffix}")
        n += 1
    return out


def run_backup(args: argparse.Namespace) -> int:
    """One self-contained copy of a save (its write-ahead log folded in); never overwrites."""
    from wyrd.play.engine.savefile import SaveError, SaveFile

    out = args.output or _backup_path(args.file)
    try:
        with SaveFile.open(args.file, readonly=True) as save:
            save.backup(out)
    except (SaveError, OSError) as exc:
        return _fail(str(exc))
    print(f"Copied {args.file} to {out}.")
    return 0


def run_saves(args: argparse.Namespace) -> int:
    from wyrd.play.cli.rulesets import ruleset_name
    from wyrd.play.engine.paths import list_saves
    from wyrd.play.engine.savelist import summarize
    from wyrd.play.frontends.view import clean

    games = [summarize(path) for path in list_saves()]
    shown = sorted((g for g in games if g.damaged or g.commands > 0), key=lambda g: g.last_played, reverse=True)
    if not shown:
        print("No saved games yet. Start one with: wyrd play")
    titles = _story_titles() if any(g.story for g in shown) else {}
    for game in shown:
        if game.damaged:
            head = "a save that cannot be read (wyrd resume FILE says why)"
        else:
            story = titles.get(game.story, game.story) if game.story else "free play, no story"
            moves = f"{game.commands} command{'s' if game.commands != 1 else ''}"
            rules = ruleset_name(game.ruleset) or "unknown ruleset"
            head = f"{story} ({rules}), last played {_when(game.last_played)}, {moves}"
        # Everything here may come from a save or a file name someone else made: cleaned.
        print(clean(head))
        print("    " + clean(str(game.path)))
    if len(shown) < len(games):
        hidden = len(games) - len(shown)
        print(f"({hidden} game{'s' if hidden != 1 else ''} with no command yet not shown)")
    if shown:
        print("Carry on the newest with: wyrd resume (or wyrd resume FILE)")
    return 0


def _story_titles() -> dict[str, str]:
    """Every story's title by its id (the bundled ones and the data folder's)."""
    from wyrd.play.engine.storyplay import content_dirs
    from wyrd.stories.formats import discover

    return {info.id: info.title for info in discover([d for d in content_dirs([]) if d.is_dir()])}


def _when(stamp: str) -> str:
    """A save's UTC time stamp in the player's local time, to the minute."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp or "never"
