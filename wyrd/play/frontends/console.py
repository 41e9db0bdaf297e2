"""One line in, what to show out: shared by the REPL and scripted play.

The console hands rules verbs to the :class:`~wyrd.play.engine.session.Session` and carries
out the session verbs itself (help, undo, log, status, export, quit). It returns
an :class:`Output`: the events (for ``--json``) and the styled lines (for people),
including the exact odds of an open roll and the steps the rules say are due.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from wyrd.play.engine import meta_verbs  # noqa: F401  (registers the session verbs)
from wyrd.play.engine.journal import journal, transcript
from wyrd.play.engine.session import Reply, Session
from wyrd.play.engine.words import UsageError
from wyrd.play.frontends.view import Line, clean, describe, wording

__all__ = ["Console", "Output"]


class Output(BaseModel):
    events: list[dict[str, Any]] = Field(default_factory=list)
    lines: list[Line] = Field(default_factory=list)
    quit: bool = False


def _info(*texts: str, style: str = "info") -> list[Line]:
    return [Line(text=t, style=style) for t in texts]


class Console:
    """Carries out lines against a session."""

    def __init__(self, session: Session, path: Path | None = None, *, live_narration: bool = False) -> None:
        self.session = session
        self.path = path
        # The model's words were printed as they came: don't print its narration twice.
        self.live_narration = live_narration

    def opening(self) -> Output:
        """What to show when play begins or resumes."""
        state = self.session.state
        lines = _info(f"Saving to {self.path}." if self.path else "Playing without a save file.")
        lines += [describe(e, self.session.ruleset) for e in self.session.opening_events
                  if e.get("kind") != "session_started"]
        if self.session.ruleset == "abacus" and not state.characters and getattr(self.session.follower, "play",
                                                                                  None) is None:
            lines += _info("Make a character: pc add NAME body=5 mind=5 soul=5 (15 points, each 3 to 9).",
                           "Then: scene, challenge add \"NAME\" TYPE VALUE, attempt NAME. `help` lists commands.")
        lines += [Line(text=t, style="hint") for t in self.session.hints()]
        return Output(events=list(self.session.opening_events), lines=lines)

    def handle(self, line: str) -> Output:
        text = line.strip()
        if not text or text.startswith("#"):
            return Output()
        try:
            command = self.session.parse(text)
        except UsageError as exc:
            return self._reply(Reply(line=text, refused={"seq": None, "kind": "refused", "command": clean(text),
                                                         "reason": str(exc), "rule": "usage"}))
        if command.verb.is_change(command.args):
            return self._reply(self.session.apply(text, command))
        handler = getattr(self, f"_do_{command.key}", None)
        if handler is None:
            return Output(lines=_info(f"{command.key} is not available here."))
        result: Output = handler(command.args)
        return result

    def _reply(self, reply: Reply) -> Output:
        if reply.refused is not None:
            return Output(events=[reply.refused], lines=[describe(reply.refused, self.session.ruleset)])
        ruleset = self.session.ruleset
        lines = [describe(e, ruleset) for e in reply.events
                 if not (self.live_narration and e.get("kind") == "narration" and "fallback" not in e
                         and e.get("source") != "table")]
        lines += [Line(text=t, style="hint") for t in self.session.hints(reply.events)]
        return Output(events=reply.events, lines=lines)

    # -- session verbs -----------------------------------------------------------

    def _do_help(self, args: dict[str, Any]) -> Output:
        if args["verb"]:
            try:
                verb = self.session.kit.verbs.find(args["verb"])
            except UsageError as exc:
                return Output(lines=_info(str(exc), style="refused"))
            return Output(lines=_info(*verb.help().splitlines()))
        rows = [f"  {v.usage()}" for k, v in sorted(self.session.kit.verbs.verbs().items()) if k == v.key]
        return Output(lines=_info("Commands (help VERB for more; names and verbs may be shortened):", *rows))

    def _do_undo(self, args: dict[str, Any]) -> Output:
        if self.session.save is None:  # Session.undo raises: it has nothing to rebuild from
            return self._reply(Reply(line="undo", verb="undo", refused={
                "seq": None, "kind": "refused", "command": "undo", "reason": "there is no save file to undo from",
                "rule": "undo"}))
        return self._reply(self.session.undo())

    def _do_log(self, args: dict[str, Any]) -> Output:
        if self.session.save is None:
            return Output(lines=_info("There is no save file to read the log from."))
        return Output(lines=_info(*transcript(self.session.save, wording(self.session.ruleset), audit=args["all"])))

    def _do_status(self, args: dict[str, Any]) -> Output:
        lines = self.session.hooks.status(self.session.state)
        llm = self.session.teller.llm
        status = getattr(llm, "status", None)
        if callable(status):
            lines.append(f"Narrator: {status()}")
        return Output(lines=_info(*lines))

    def _do_narrator(self, args: dict[str, Any]) -> Output:
        teller = self.session.teller
        try:
            now = teller.use(args["use"] or ("llm" if teller.narrator is not teller.table else "table"))
        except ValueError as exc:
            return Output(lines=_info(str(exc), style="refused"))
        return Output(lines=_info(f"The {'language model' if now == 'llm' else 'tables'} tell the story."))

    def _do_challenges(self, args: dict[str, Any]) -> Output:
        from wyrd.rules.abacus import effective_value

        if self.session.ruleset != "abacus":  # another ruleset's challenges are part of its status
            return self._do_status(args)
        scene = self.session.state.scene
        if scene is None:
            return Output(lines=_info("Between scenes there are no challenges."))
        rows = [f"  {c.id}: {clean(c.name)}, {c.type.value} {effective_value(self.session.state, c)} ({c.status.value})"
                for c in scene.challenges.values()]
        return Output(lines=_info(*(rows or ["No challenges in this scene."])))

    def _do_pc(self, args: dict[str, Any]) -> Output:
        lines = self.session.hooks.sheet(self.session.state, args.get("view"))
        return Output(lines=_info(*(lines or ["No characters yet: `help pc` says how to make one."])))

    def _do_export(self, args: dict[str, Any]) -> Output:
        if self.session.save is None:
            return Output(lines=_info("There is no save file to export."))
        target = Path(args["path"]).expanduser()
        try:
            target.write_text(journal(self.session.save, wording(self.session.ruleset)), encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            why = getattr(exc, "strerror", None) or exc
            return Output(lines=_info(f"Could not write {clean(target)}: {clean(why)}", style="refused"))
        return Output(lines=_info(f"Journal written to {clean(target)}."))

    def _do_chances(self, args: dict[str, Any]) -> Output:
        from wyrd.play.kits.abacus.oracle_verbs import chances_lines

        return Output(lines=_info(*chances_lines(self.session.state, args["odds"])))

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
        return Output(lines=_info("Saved. Resume with: wyrd resume" + (f" {self.path}" if self.path else "")),
                      quit=True)
