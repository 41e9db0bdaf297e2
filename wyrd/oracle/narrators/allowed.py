"""What a request lets a model's reply say: its numbers, its people, and what its facts settle.

:class:`Allowed` reads a :class:`~wyrd.oracle.narrators.base.NarrationRequest` once, for the
firewall (:mod:`wyrd.oracle.narrators.firewall`) to check each piece of a reply against:

- the numbers the request holds anywhere (its events, its cast, the story's text), and
  those of the facts alone (``counts``: what a number of points may be);
- the words that make a word near them a claim (``about``): the cast's names and the
  story's persons, pronouns for a person, counting words;
- the names of things and places, read as names not claims ("the Drowned Dead");
- what is settled: a defeat or death, harm, a recovery, and the outcome of a roll.

Words in the request never switch a check off: they only say what happened.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from wyrd.oracle.narrators.base import MomentKind, NarrationRequest, Outcome
from wyrd.oracle.narrators.lexicon import TOKEN
from wyrd.oracle.narrators.normalize import QUANTITY_WORDS, for_checking

__all__ = ["Allowed", "names_in", "number"]

# Moments and event kinds in which someone may heal: a rest, a recovery, a Wolden downtime, healing.
_RECOVERING = ("rest", "recover", "downtime", "heal")

_NUMBER_WORDS = {
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "million": 1_000_000, "dozen": 12, "twice": 2, "thrice": 3,
}
# Event fields whose values are the engine's words, not the story's ("overcome", "to overcome the door").
_MACHINE_KEYS = frozenset({"kind", "status", "outcome", "category", "answer", "reason", "moment", "detail", "trait",
                           "ability", "type", "form", "id", "challenge"})


# Who a word can be about: a word like "dead" or a number is a claim only within a few words of one of these
# (a character's name, a pronoun for a person, a word that counts a game quantity).
_PEOPLE = frozenset({"he", "she", "they", "him", "her", "them", "himself", "herself", "themselves", "everyone",
                     "everybody", "someone", "somebody", "i", "we", "you", "us"})

def _strings(value: Any) -> Iterator[str]:
    """Every string value in ``value`` (not the keys), skipping fields that hold machine words."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in _MACHINE_KEYS:
                yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _ints(value: Any) -> Iterator[int]:
    """Every whole number in ``value``, and the length of every list (a count is a fact too)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, float) and value.is_integer():
        yield int(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ints(item)
    elif isinstance(value, list | tuple):
        yield len(value)
        for item in value:
            yield from _ints(item)


def number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _NUMBER_WORDS.get(token)


@dataclass(frozen=True)
class Allowed:
    """What a request lets a reply say."""

    numbers: frozenset[int]
    counts: frozenset[int]  # the numbers of the facts themselves (not of the story's prose): what points may be
    about: frozenset[str]  # words that make a word near them a claim: names, pronouns, quantities
    names: tuple[str, ...]  # the request's multi-word names ("the drowned dead"), read as names, not claims
    things: frozenset[str]  # words of the request's names for things and places: a capital there is no person
    points: bool  # the facts speak of points lost or spent
    defeat: bool
    harm: bool
    recovery: bool  # someone heals or rests in this moment
    outcome: str | None  # "overcome", "overcome_wyrd", "failed", "falter" or None

    @classmethod
    def of(cls, request: NarrationRequest) -> Allowed:
        data = request.model_dump(mode="json", exclude={"tables"})
        prose = [request.story, request.scene, request.location, *request.seeds, *request.tone, *request.denizens]
        for char in request.characters:
            prose += [char.name, char.concept, char.connection or "", *(f for fs in char.facets.values() for f in fs)]
        if request.challenge is not None:
            prose += [request.challenge.name, request.challenge.denizen or ""]
        prose += list(_strings(data["events"]))
        tokens = TOKEN.findall(for_checking(" ".join(prose)))
        numbers = {*_ints(data), *(n for t in tokens if (n := number(t)) is not None)}
        # people: the cast and the story's persons (a referent said "he" or "she"; "it" and "they" name things,
        # challenges and crowds, whose words like "straw" or "fair" would make imagery a claim)
        people = [c.name for c in request.characters] + [request.subject or ""]
        people += [name for name, said in request.referents.items() if said.pronouns in ("he", "she")]
        if request.challenge is not None:
            people += [request.challenge.lead or "", *request.challenge.involved, *request.challenge.damage]
        about = set(_PEOPLE | QUANTITY_WORDS)
        about.update(t for name in people for t in TOKEN.findall(for_checking(name))
                     if len(t) > 1 and t not in _NOT_NAMES)
        if request.challenge is not None and request.challenge.ability:
            about.update(TOKEN.findall(for_checking(request.challenge.ability)))
        names = {for_checking(n).strip() for n in [request.story, request.location, request.scene, *request.denizens,
                                                    *(([request.challenge.name, request.challenge.denizen])
                                                      if request.challenge is not None else [])] if n}
        things = [name for name, said in request.referents.items() if said.pronouns not in ("he", "she")]
        things += [n for n in names if n]
        thing_words = {t for name in things for t in TOKEN.findall(for_checking(name))} - about
        events = " ".join(str(e.model_dump(mode="json")) for e in request.events)
        kinds = {e.kind for e in request.events}
        defeat = (request.moment == MomentKind.DEFEAT or "character_defeated" in kinds
                  or (request.moment == MomentKind.POSTSCRIPT and request.detail == "defeated"))
        if request.death is not None:  # a kit's own moment says it
            defeat = request.death
        challenge = request.challenge
        harm = (defeat or request.moment == MomentKind.HARM or bool(kinds & {"damage", "ability_scratched"})
                or bool(challenge and (challenge.damage or challenge.scratched)))
        if request.harm is not None:
            harm = defeat or request.harm
        outcome: str | None = None
        if request.success is not None:  # a kit's roll, settled: told the other way is a contradiction
            outcome = Outcome.OVERCOME.value if request.success else "failed"
        elif request.moment == MomentKind.CHALLENGE_OUTCOME and request.detail != Outcome.BYPASSED:
            detail = request.detail or ""
            outcome = detail if detail in (Outcome.OVERCOME, Outcome.OVERCOME_WYRD) else "failed"
        elif request.moment == MomentKind.FALTER:
            outcome = "falter"
        moment = str(request.moment)
        recovery = (any(word in moment for word in _RECOVERING)
                    or any(word in kind for kind in kinds for word in _RECOVERING))
        points = harm or recovery or "point" in events or bool(challenge and challenge.damage)
        multiword = tuple(sorted((n for n in names if " " in n), key=len, reverse=True))
        return cls(frozenset(numbers), frozenset(_ints(data)), frozenset(about), multiword, frozenset(thing_words),
                   points, defeat, harm, recovery, outcome)


_NAMED = re.compile(r"[A-Z][a-z]+(?:'[a-z]+)?")
# Capitalised words that are not names; at a sentence's start a capital is a name only before one of _BEING.
_NOT_NAMES = frozenset({"the", "a", "an", "and", "but", "or", "in", "on", "at", "of", "to", "for", "with", "by",
                        "from", "as", "then", "there", "here", "now", "when", "while", "it", "its", "this", "that",
                        "these", "those", "somewhere", "nothing", "no", "not", "beyond", "above", "below", "over",
                        "under", "after", "before", "all", "every", "each", "some", "few", "many", "one"})
_BEING = frozenset({"is", "was", "lies", "lay", "will", "has", "had", "falls", "fell", "dies", "died", "bleeds", "bled",
                    "loses", "lost", "gets", "gains", "takes", "took", "can", "must"})


def names_in(text: str) -> frozenset[str]:
    """The words of ``text`` (normalised, case kept) written as names: someone a reply may claim things of,
    though the request never named them ("Grub is wounded")."""
    found = set()
    for match in _NAMED.finditer(text):
        word = match.group(0).lower()
        if word in _NOT_NAMES:
            continue
        head = text[:match.start()].rstrip()
        if head and head[-1] not in ".!?;:\"\u201c(":  # inside a sentence: a capital says name
            found.add(word)
            continue
        following = TOKEN.findall(text[match.end():].lower())[:1]
        if following and following[0] in _BEING:
            found.add(word)
    return frozenset(found)


