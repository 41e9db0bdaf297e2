"""The question oracle's verbs, the same in every ruleset: ``ask``, ``chances``, ``inspire``.

``ask`` puts a yes/no question to the oracle, ``chances`` shows the exact chance of
each answer before asking, ``inspire`` draws two words when the table is stuck. They
change no rules state; their answers are events saved with the command (the
oracle's dice are the narration's own, so the rules' faces are untouched). What
differs between rulesets is in the kit's :class:`~wyrd.play.engine.kits.OracleHooks`:
who may ask, what stands for the scene's tension, and what a doubled answer brings
the asker (each ruleset's own sign of fate chooses the twist).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wyrd.play.engine.kits import OracleHooks, kit_of
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import SHARED, Args, Verb
from wyrd.play.engine.words import Words, resolve
from wyrd.rules.actions import Event, Outcome

__all__ = ["ODDS_WORDS", "chances_lines", "oracle_of"]

ODDS_WORDS = ["certain", "likely", "even", "unlikely", "impossible"]


def oracle_of(state: Any) -> OracleHooks:
    """The oracle hooks of the ruleset whose rules made ``state``."""
    return kit_of(state).oracle


def _question(words: Words, state: Any) -> Args:
    """``ask`` reads its question quoted or not: ``ask is the mere watching likely by Tam``.

    Every word before ``by`` is the question, but a last one that names the odds; a quoted
    question may be followed by a beginning of one (``"is it safe" lik``).
    """
    oracle = oracle_of(state)
    parts = words.until("by")
    if not parts:
        raise words.fail("missing QUESTION")
    odds = "even"
    if len(parts) > 1 and parts[-1].casefold() in ODDS_WORDS:
        odds = parts.pop().casefold()
    elif len(parts) == 2 and " " in parts[0]:  # a quoted question, then the odds
        odds = resolve(parts.pop(), ODDS_WORDS, "odds")
    text = " ".join(parts)
    asker = None
    while not words.empty:
        if words.keyword("by"):
            asker = words.take_name("NAME", oracle.askers(state))
        else:
            odds = resolve(words.take("odds"), ODDS_WORDS, "odds")
    if asker is None:
        here = oracle.present(state)
        asker = here[0] if here else None
    return {"question": text, "odds": odds, "asker": asker}


class _Asking(Verb):
    """A verb whose answer is saved as events and which leaves the rules state as it was."""

    def apply(self, state: Any, dice: Any, args: Mapping[str, Any]) -> Outcome[Any]:
        return Outcome(state, [])


@SHARED.register
class Ask(_Asking):
    """ask "QUESTION" [certain|likely|even|unlikely|impossible] [by NAME]

    Ask the oracle a yes/no question (d100 against 90/70/50/30/10). A roll at or
    under a fifth of the odds is "yes, and..."; one in the top fifth of the rest
    is "no, but...". A double (11, 22, ...) whose digit is at most the scene's
    tension + 1 also brings the asker a twist, chosen by the ruleset's sign of
    fate. `chances` shows every answer's exact chance before you ask. The
    quotes may be left out (`ask is the mere watching likely`): a last word
    that names the odds sets them.
    """

    key = "ask"
    completes = ("odds",)

    def parse(self, words: Words, state: Any) -> Args:
        return _question(words, state)

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> list[Event]:
        # The oracle's question machinery is imported when first asked, not before the first prompt.
        from wyrd.oracle.question import answer_twist, ask, question_odds

        oracle = oracle_of(state)
        odds = question_odds(args["odds"], oracle.tension(state))
        answer = ask(args["question"], args["odds"], odds.tension, ctx.dice)
        chances = {k.value: str(v) for k, v in odds.answers.items()} | {"twist": str(odds.twist)}
        told = answer.event(args["asker"], chances)
        out: list[Event] = [told]
        asker = args["asker"]
        if asker is not None and answer.twist:
            if oracle.twist is not None:
                out += oracle.twist(told, asker, state, ctx.dice, ctx.follower)
            else:
                twist = answer_twist(answer, asker, ctx.dice)
                if twist is not None:
                    out.append(twist)
        return out


@SHARED.register
class Chances(Verb):
    """chances [certain|likely|even|unlikely|impossible]

    The exact chance of each answer of `ask`, and of a twist, before you ask.
    """

    key = "chances"
    changes = False
    completes = ("odds",)

    def parse(self, words: Words, state: Any) -> Args:
        odds = resolve(words.take("odds"), ODDS_WORDS, "odds") if not words.empty else "even"
        words.done()
        return {"odds": odds}


@SHARED.register
class Inspire(_Asking):
    """inspire

    Two words from the meaning tables, an action and a theme, for when the table
    is stuck for what happens next.
    """

    key = "inspire"

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> list[Event]:
        from wyrd.oracle.events import Inspiration
        from wyrd.oracle.question import inspire

        found = inspire(ctx.dice)
        return [Inspiration(action=found.action, theme=found.theme)]


def chances_lines(state: Any, odds_word: str) -> list[str]:
    """The `chances` line: each answer's exact chance, and a twist's, at these odds and this tension."""
    from wyrd.oracle.question import question_odds

    oracle = oracle_of(state)
    odds = question_odds(odds_word, oracle.tension(state))
    parts = ", ".join(f"{k.value.replace('_', '-')} {float(v):.0%} ({v})" for k, v in odds.answers.items())
    return [f"Asking at {odds.word} ({odds.odds}%) with {oracle.tension_words} at {odds.tension}: {parts}; "
            f"a twist {float(odds.twist):.0%} ({odds.twist})."]
