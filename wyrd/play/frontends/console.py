"""One line in, what to show out: shared by every front-end (the terminal, scripts, a server).

The console hands rules verbs to the :class:`~wyrd.play.engine.session.Session` and carries
out the session verbs itself (help, undo, log, status, pregens, export, quit), and the ruleset's own
look-only verbs through its kit (``PlayHooks.looks``). It returns an :class:`Output`: the
events (for ``--json``) and the styled lines (for people, through :mod:`wyrd.play.frontends.view`),
including what the ruleset shows after each change (the exact odds of an open roll, the steps
the rules say are due). It never prints and knows no terminal: a front-end shows its output.

The truth comes first (issue 19, point 1): :meth:`Console.act` commits a line and gives what
happened; :meth:`Console.tell` then tells its moments, handing each to a :class:`Live` front-end
as it is told (a model's words as they come, a refused reply taken back). :meth:`Console.handle`
does both for callers that want everything at once.
"""

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from wyrd.oracle.events import Narrated
from wyrd.play.engine import meta_verbs  # noqa: F401  (registers the session verbs)
from wyrd.play.engine.events import Recorded
from wyrd.play.engine.journal import journal, transcript
from wyrd.play.engine.overwrite import OverwriteRefused, write_new
from wyrd.play.engine.reply import Reply, Untold, refusal
from wyrd.play.engine.session import Session
from wyrd.play.engine.words import UsageError
from wyrd.play.frontends.live import Live
from wyrd.play.frontends.view import Line, clean, describe, wording
from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list

__all__ = ["MAX_LINE", "Console", "Live", "Output", "farewell", "overlong"]

# What `resume` recalls of the story so far: the events of the last few commands, at most so many lines.
RECAP_COMMANDS = 8
RECAP_LINES = 8
# `recap`: at most this many lines of the scene so far (the rest are in `log`)
RECAP_SCENE_LINES = 40

#: The longest line a front-end hands on, in characters: a longer one is refused before anything
#: parses it (splitting a line of millions of characters into words cost minutes).
MAX_LINE = 4096


class Output(BaseModel):
    """What a line gave: its events (typed: a front-end dumps them at its edge), the lines to
    show, whether play ends, and after :meth:`Console.act` the moments still to tell."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    events: list[Recorded] = Field(default_factory=empty_list)
    lines: list[Line] = Field(default_factory=empty_list)
    quit: bool = False
    untold: Untold | None = Field(default=None, exclude=True)
    notice: str = Field(default="", exclude=True)  # a model gone to rest, said once (also among the lines)


def _info(*texts: str, style: str = "info") -> list[Line]:
    return [Line(text=t, style=style) for t in texts]


def farewell(path: Path | None) -> Line:
    """Where the game is kept, and the command that resumes it (in backticks: kept whole on one row)."""
    if path is None:
        return Line(text="This game had no save file; it ends here.", style="info")
    import shlex

    return Line(text=f"Everything is saved in {path}. Resume with: `wyrd resume {shlex.quote(str(path))}`",
                style="info")


def _same_words(a: str, b: str) -> bool:
    return a.split() == b.split()


def overlong(line: str) -> Output | None:
    """The refusal of a line over :data:`MAX_LINE` characters (None: it is short enough to parse).

    Costs one ``len``: call it before anything else reads the line (the REPL does, before the
    ruleset's questions; :meth:`Console.handle` does first of all)."""
    if len(line) <= MAX_LINE:
        return None
    shown = clean(line[:40]).strip() + "..."
    reason = f"a line may be at most {MAX_LINE:,} characters (MAX_LINE); this one is longer and is not read"
    return Output(events=[refusal(shown, reason, "usage")], lines=[Line(text=f"Refused: {reason}", style="refused")])


class Console:
    """Carries out lines against a session.

    :meth:`handle` gives everything a line did at once: what happened (committed), then its
    narration, then the hints. A live front-end uses the two steps instead (issue 19,
    point 1: the truth comes first): :meth:`act` commits the line and gives what happened,
    with ``untold``; :meth:`tell` then tells it, handing each moment to a :class:`Live` as
    it is told, and gives the rest.
    """

    def __init__(self, session: Session, path: Path | None = None) -> None:
        self.session = session
        self.path = path

    def opening(self) -> Output:
        """What to show when play begins or resumes."""
        state = self.session.state
        lines = _info(f"Saving to {self.path}." if self.path else "Playing without a save file.")
        lines += [describe(e, self.session.ruleset) for e in self.session.opening_events
                  if e.kind != "session_started"]
        lines += self._recap()
        kit = self.session.kit
        lines += _info(*kit.opening(state, self.session.follower))
        lines += [Line(text=t, style="hint") for t in self.session.hints()]
        return Output(events=list(self.session.opening_events), lines=lines)

    def _recap(self) -> list[Line]:
        """On resume, the last lines of the story so far, so a returning table knows where it stands."""
        save = self.session.save
        if self.session.opening_events or save is None:
            return []  # a new game: its own opening says it all
        recent = save.events_since(max(0, save.last_seq() - RECAP_COMMANDS))
        told = [describe(e.data, self.session.ruleset) for e in recent
                if e.kind not in ("session_started", "refused")][-RECAP_LINES:]
        return [Line(text="Previously:", style="info"), *told] if told else []

    def handle(self, line: str) -> Output:
        """Carry out ``line`` whole: what happened, its narration, the hints (scripts, ``--json``, tests)."""
        truth = self.act(line)
        if truth.untold is None:
            return truth
        told = self.tell(truth.untold)
        return Output(events=truth.events + told.events, lines=truth.lines + told.lines, quit=truth.quit)

    def act(self, line: str) -> Output:
        """Carry out ``line`` up to its telling: a change is committed and its events shown.

        For a line that changed the game, ``untold`` is set and :meth:`tell` gives the rest
        (its narration, the hints); the output holds only what happened. Any other line's
        output is whole, ``untold`` None.
        """
        too_long = overlong(line)
        if too_long is not None:
            return too_long
        text = line.strip()
        if not text or text.startswith("#"):
            return Output()
        # A line stopped half-way (Ctrl-C) may have left the game in memory unlike the save's.
        self.session.settle()
        try:
            command = self.session.parse(text)
        except UsageError as exc:
            return self._reply(Reply(line=text, refused=refusal(clean(text), str(exc), "usage")))
        if command.verb.is_change(command.args):
            return self._reply(self.session.act(text, command))
        look = self.session.kit.looks.get(command.key)
        if look is not None:  # the ruleset's own look-only verbs
            return Output(lines=_info(*look(self.session.state, command.args)))
        handler = getattr(self, f"_do_{command.key}", None)
        if handler is None:
            return Output(lines=_info(f"{command.key} is not available here."))
        result: Output = handler(command.args)
        return result

    def tell(self, untold: Untold, live: Live | None = None) -> Output:
        """Tell what :meth:`act` left untold: the narration's events, saved, and the lines after them.

        Without ``live``, the lines are the narration's, then the hints. With it, each moment
        goes to ``live`` as it is told (a model's words as they come, a reply taken back, each
        moment's line) and the lines returned are only what follows (a failure of the whole
        telling, the hints). Safe to skip: the command is saved already, it stays untold.
        """
        ruleset = self.session.ruleset
        shown: list[str] = []  # the model's words on screen for the moment being told

        def words(text: str) -> None:
            shown.append(text)
            if live is not None:
                live.words(text)

        def told(event: Event) -> None:
            line = describe(event, ruleset)
            streamed = "".join(shown)
            kept = bool(streamed) and isinstance(event, Narrated) and event.fallback is None \
                and event.source != "table" and _same_words(streamed, line.text)
            shown.clear()
            handed.append(line)
            if live is not None:
                if streamed and not kept:
                    live.withdraw(streamed)
                live.told(line, streamed=kept)

        handed: list[Line] = []  # the moments' lines, in order, as each was settled
        events = self.session.tell(untold, on_text=words if live is not None else None, on_told=told)
        if shown and live is not None:  # words of a moment that broke off with the whole telling
            live.withdraw("".join(shown))
        lines = [describe(e, ruleset) for e in events]
        if live is not None:
            lines = lines[len(handed):]  # the rest: a failure of the telling as a whole
        after = self._after(list(untold.events))
        return Output(events=events, lines=lines + after.lines, notice=after.notice)

    def _after(self, events: list[Recorded]) -> Output:
        """The lines after a change: the ruleset's hints, and a model's rest, said once."""
        lines = [Line(text=t, style="hint") for t in self.session.hints(events)]
        take_notice = getattr(self.session.teller.llm, "take_notice", None)  # a model gone to rest says so once
        notice = clean(take_notice()) if callable(take_notice) else ""
        return Output(lines=lines + ([Line(text=notice, style="hint")] if notice else []), notice=notice)

    def _reply(self, reply: Reply) -> Output:
        if reply.refused is not None:
            return Output(events=[reply.refused], lines=[describe(reply.refused, self.session.ruleset)])
        ruleset = self.session.ruleset
        lines = [describe(e, ruleset) for e in reply.events]
        if reply.untold is not None:
            return Output(events=reply.events, lines=lines, untold=reply.untold)
        after = self._after(reply.events)
        return Output(events=reply.events, lines=lines + after.lines, notice=after.notice)

    # -- session verbs -----------------------------------------------------------

    def _do_help(self, args: dict[str, Any]) -> Output:
        verbs = self.session.kit.verbs
        if args["verb"]:
            try:
                verb = verbs.find(args["verb"])
            except UsageError as exc:
                return Output(lines=_info(str(exc), style="refused"))
            return Output(lines=_info(*verb.help().splitlines()))
        # every form of every verb (`pc`, `pc add ...`, `pc take ...`), then the other names they go by
        rows = [f"  {form}" for k, v in sorted(verbs.verbs().items()) if k == v.key for form in v.forms()]
        aliases = ", ".join(f"{alias} ({key})" for alias, key in sorted(verbs.aliases().items()))
        return Output(lines=_info("Commands (help VERB for more; names and verbs may be shortened):", *rows,
                                  *([f"Also: {aliases}."] if aliases else [])))

    def _do_undo(self, args: dict[str, Any]) -> Output:
        if self.session.save is None:  # Session.undo raises: it has nothing to rebuild from
            return self._reply(Reply(line="undo", verb="undo", refused=refusal(
                "undo", "there is no save file to undo from", "undo")))
        return self._reply(self.session.undo())

    def _do_log(self, args: dict[str, Any]) -> Output:
        if self.session.save is None:
            return Output(lines=_info("There is no save file to read the log from."))
        return Output(lines=_info(*transcript(self.session.save, wording(self.session.ruleset), audit=args["all"])))

    def _do_status(self, args: dict[str, Any]) -> Output:
        lines = self.session.kit.status(self.session.state)
        llm = self.session.teller.llm
        status = getattr(llm, "status", None)
        if callable(status):
            lines.append(f"Narrator: {clean(status())}")  # a provider's error may carry escape sequences
        return Output(lines=_info(*lines))

    def _do_narrator(self, args: dict[str, Any]) -> Output:
        teller = self.session.teller
        if args.get("readings") is not None:  # `narrator readings [on|off]`
            if args["readings"] != "say":
                teller.readings = args["readings"] == "on"
            said = f"Readings of answers, twists and inspirations are {'on' if teller.readings else 'off'}"
            return Output(lines=_info(said + ("." if teller.llm is not None else
                                              ": only a language model gives them (wyrd play --model).")))
        try:
            now = teller.use(args["use"] or ("llm" if teller.narrator is not teller.table else "table"))
        except ValueError as exc:
            return Output(lines=_info(str(exc), style="refused"))
        told = "The language model tells the story." if now == "llm" else "The tables tell the story."
        return Output(lines=_info(told))

    def _do_challenges(self, args: dict[str, Any]) -> Output:
        # A ruleset with challenges of its own lists them (PlayHooks.looks); for the others
        # they are part of the status.
        return self._do_status(args)

    def _do_pc(self, args: dict[str, Any]) -> Output:
        lines = self.session.kit.sheet(self.session.state, args.get("view"))
        if lines:
            return Output(lines=_info(*lines))
        pregens = self._pregens()
        if pregens:  # nobody made yet, but the story has characters ready
            return Output(lines=_info("No characters yet. The story's pregenerated characters, ready to take "
                                      "with `pc take NAME` or `pc take all` (`help pc` says how to make your own):",
                                      *pregens))
        return Output(lines=_info("No characters yet: `help pc` says how to make one."))

    def _pregens(self) -> list[str]:
        return self.session.kit.pregens(self.session.state, self.session.follower)

    def _do_pregens(self, args: dict[str, Any]) -> Output:
        pregens = self._pregens()
        if not pregens:
            return Output(lines=_info("There are no pregenerated characters here: they come with a story "
                                      "(`story ID`), and `pc add` makes your own (`help pc`)."))
        return Output(lines=_info("The story's pregenerated characters (`pc take NAME` or `pc take all`):",
                                  *pregens))

    # -- the narrator's looks: each ruleset's kit answers them --------------------

    def _story_look(self, answer: list[str], none: str) -> Output:
        return Output(lines=_info(*(answer or [none])))

    def _do_look(self, args: dict[str, Any]) -> Output:
        kit, session = self.session.kit, self.session
        return self._story_look(kit.frame(session.state, session.follower), "No scene is being played.")

    def _do_rules(self, args: dict[str, Any]) -> Output:
        kit, session = self.session.kit, self.session
        return self._story_look(kit.stage_rules(session.state, session.follower), "No stage rule is in force.")

    def _do_exits(self, args: dict[str, Any]) -> Output:
        kit, session = self.session.kit, self.session
        return self._story_look(kit.exits(session.state, session.follower),
                                "The story says nothing of where it goes from here.")

    def _do_turn(self, args: dict[str, Any]) -> Output:
        kit, session = self.session.kit, self.session
        return self._story_look(kit.spotlight(session.state, session.follower), "Nobody is waiting to act.")

    def _do_chances(self, args: dict[str, Any]) -> Output:
        from wyrd.play.engine.oracle_verbs import chances_lines

        return Output(lines=_info(*chances_lines(self.session.state, args["odds"])))

    def _do_odds(self, args: dict[str, Any]) -> Output:
        try:
            command = self.session.parse(args["line"])
        except UsageError as exc:
            return Output(lines=_info(f"Refused: {exc}", style="refused"))
        if command.key == "odds":
            return Output(lines=_info("odds weighs another command: odds COMMAND", style="refused"))
        lines = self.session.kit.preview(self.session.state, self.session.follower, command)
        return Output(lines=_info(*(lines or [f"{command.key} rolls no dice: nothing to weigh."])))

    def _do_recap(self, args: dict[str, Any]) -> Output:
        save = self.session.save
        if save is None:
            return Output(lines=_info("There is no save file to recap from."))
        opened = save.last_command_with(self.session.kit.scene_opens)
        told = [describe(e.data, self.session.ruleset) for e in save.events_since((opened or 1) - 1)
                if e.kind not in ("session_started", "refused")]
        if not told:
            return Output(lines=_info("Nothing has happened yet."))
        head = "This scene so far:" if opened is not None else "The story so far:"
        skipped = len(told) - RECAP_SCENE_LINES
        lines = [Line(text=head, style="info")]
        if skipped > 0:
            lines.append(Line(text=f"({skipped} earlier lines: `log` has them all)", style="info"))
        return Output(lines=lines + told[-RECAP_SCENE_LINES:])

    def _do_export(self, args: dict[str, Any]) -> Output:
        if self.session.save is None:
            return Output(lines=_info("There is no save file to export."))
        target = Path(args["path"]).expanduser()
        try:
            write_new(target, journal(self.session.save, wording(self.session.ruleset)),
                      source=self.session.save.path, force=bool(args.get("force")))
        except OverwriteRefused as exc:
            return Output(lines=_info(clean(exc), style="refused"))
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            why = getattr(exc, "strerror", None) or exc
            return Output(lines=_info(f"Could not write {clean(target)}: {clean(why)}", style="refused"))
        return Output(lines=_info(f"Journal written to {clean(target)}."))

    def _do_stories(self, args: dict[str, Any]) -> Output:
        from wyrd.play.engine.storyplay import list_stories

        found = list_stories(self.session.dirs)
        if not found:
            return Output(lines=_info("No stories found."))
        rows = [f"  {clean(i.id)}: {clean(i.title)}" for i in found]
        return Output(lines=_info("Stories (wyrd play --story ID, or `story ID` before the first scene):", *rows))

    def _do_save(self, args: dict[str, Any]) -> Output:
        where = f"Every command is saved as it happens, in {self.path}." if self.path else "This game has no save file."
        return Output(lines=_info(where))

    def _do_quit(self, args: dict[str, Any]) -> Output:
        return Output(lines=[farewell(self.path)], quit=True)
