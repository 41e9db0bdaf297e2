"""The oracle's verbs: ``ask`` a yes/no question, ``inspire`` two words, ``chances`` before asking.

They change no rules state; their answers are events saved with the command (the
oracle's dice are its own, so the rules' faces are untouched), and a doubled
answer brings the asker a twist.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import Args, Verb
from wyrd.play.engine.words import Words, resolve
from wyrd.play.kits.abacus.events import Inspiration
from wyrd.play.kits.abacus.verbs import VERBS, character_names, present_names
from wyrd.rules.abacus import GameState, Outcome
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

__all__ = ["ODDS_WORDS", "chances_lines", "tension"]

ODDS_WORDS = ["certain", "likely", "even", "unlikely", "impossible"]


def tension(state: GameState) -> int:
    """The scene Wyrd drawn so far in this scene: the oracle's chaos (DESIGN.md)."""
    return state.scene.drawn if state.scene is not None else 0


def _question(words: Words, state: GameState) -> Args:
    text = words.take("QUESTION")
    odds = "even"
    asker = None
    while not words.empty:
        if words.keyword("by"):
            asker = words.take_name("NAME", character_names(state))
        else:
            odds = resolve(words.take("odds"), ODDS_WORDS, "odds")
    if asker is None:
        here = present_names(state)
        asker = here[0] if here else None
    return {"question": text, "odds": odds, "asker": asker}


def _unchanged(state: GameState) -> Outcome:
    return Outcome(state, [])


@VERBS.register
class Ask(Verb):
    """ask "QUESTION" [certain|likely|even|unlikely|impossible] [by NAME]

    Ask the oracle a yes/no question (d100 against 90/70/50/30/10). A roll at or
    under a fifth of the odds is "yes, and..."; one in the top fifth of the rest
    is "no, but...". A double (11, 22, ...) whose digit is at most the Wyrd drawn
    in this scene + 1 also brings the asker a twist. The exact chances are shown
    with the answer; `chances` shows them before you ask.
    """

    key = "ask"
    completes = ("odds",)

    def parse(self, words: Words, state: GameState) -> Args:
        return _question(words, state)

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return _unchanged(state)

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: GameState) -> list[Event]:
        # The oracle's question machinery is imported when first asked, not before the first prompt.
        from wyrd.oracle.question import answer_twist, ask, question_odds

        odds = question_odds(args["odds"], tension(state))
        answer = ask(args["question"], args["odds"], odds.tension, ctx.dice)
        chances = {k.value: str(v) for k, v in odds.answers.items()} | {"twist": str(odds.twist)}
        out: list[Event] = [answer.event(args["asker"], chances)]
        if args["asker"] is not None:
            twist = answer_twist(answer, args["asker"], ctx.dice)
            if twist is not None:
                out.append(twist)
        return out


@VERBS.register
class Chances(Verb):
    """chances [certain|likely|even|unlikely|impossible]

    The exact chances of each answer of `ask`, and of a twist, before you ask.
    """

    key = "chances"
    changes = False
    completes = ("odds",)

    def parse(self, words: Words, state: GameState) -> Args:
        odds = resolve(words.take("odds"), ODDS_WORDS, "odds") if not words.empty else "even"
        words.done()
        return {"odds": odds}


@VERBS.register
class Inspire(Verb):
    """inspire

    Two words from the meaning tables, an action and a theme, for when the table
    is stuck for what happens next.
    """

    key = "inspire"

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return _unchanged(state)

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: GameState) -> list[Event]:
        from wyrd.oracle.question import inspire

        found = inspire(ctx.dice)
        return [Inspiration(action=found.action, theme=found.theme)]


def chances_lines(state: GameState, odds_word: str) -> list[str]:
    from wyrd.oracle.question import question_odds

    odds = question_odds(odds_word, tension(state))
    parts = ", ".join(f"{k.value.replace('_', '-')} {v} ({float(v):.0%})" for k, v in odds.answers.items())
    return [f"Asking at {odds.word} ({odds.odds}) with the scene's Wyrd drawn at {odds.tension}: {parts}; "
            f"a twist {odds.twist} ({float(odds.twist):.0%})."]
