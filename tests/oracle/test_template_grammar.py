"""Issue 18, point 7: every narration template of every ruleset reads right with every bundled referent.

Each table row (every ruleset's tables, shared and own) and each bundled story's own
filled texts (Abacus twists and postscripts, Wolden enemies' actions) is filled against
every bundled character (with their pronouns), facet, concept, challenge, enemy,
denizen and place, as the kits pass them, and the result must have none of the faults
that a reader stops on: a doubled word, "is was", an article before a proper name, a
word glued to the next, an outcome told the wrong way round, a chase told as an escape,
or the imagery of the wrong ability. A second check reads every bundled thing's noun
phrase: a clause ("What Tamsin Whispers", "The Pack Runs") is not a noun.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import wyrd.stories as stories_package
from wyrd.oracle.facts import ABILITY_FALLBACK_FACETS
from wyrd.oracle.grammar import PRONOUNS, Referent, group, person, reading, worded
from wyrd.oracle.tables import bundled_tables
from wyrd.oracle.text import FALLBACKS, PEOPLE, PLACEHOLDER, fill, placeholders
from wyrd.stories.abacus.flow import challenge_specs
from wyrd.stories.abacus.loader import load_story
from wyrd.stories.abacus.schema import Story
from wyrd.stories.feat.loader import load_feat_story
from wyrd.stories.feat.scenario import FeatStory
from wyrd.stories.lots.scenario import Scenario as LotsScenario
from wyrd.stories.lots.scenario import load_scenario
from wyrd.stories.wolden.loader import find_scenario, list_scenarios
from wyrd.stories.wolden.scenario import Scenario as WoldenScenario

CONTENT = Path(stories_package.__file__).parent / "content"


@dataclass(frozen=True)
class Bundled:
    abacus: tuple[Story, ...]
    wolden: tuple[WoldenScenario, ...]
    feat: tuple[FeatStory, ...]
    lots: tuple[LotsScenario, ...]


@cache
def bundled() -> Bundled:
    return Bundled(
        abacus=tuple(load_story(p) for p in sorted(CONTENT.glob("*.yaml"))),
        wolden=tuple(find_scenario(i, [CONTENT]) for i, _ in list_scenarios([CONTENT])),
        feat=tuple(load_feat_story(p) for p in sorted((CONTENT / "feat").glob("*.yaml"))),
        lots=tuple(load_scenario(p) for p in sorted((CONTENT / "lots").glob("*.yaml"))),
    )


def _thing(name: str, wording: object) -> Referent:
    from wyrd.stories.wording import Wording

    assert isinstance(wording, Wording)
    return worded(name, wording) or reading(name)


@cache
def samples() -> dict[str, tuple[object, ...]]:
    """Every bundled referent by the placeholder that names it, as the kits pass them."""
    b = bundled()
    people = [person(p.name, p.pronouns) for s in b.abacus for p in s.pregens]
    people += [person(p.name, p.pronouns) for s in b.wolden for p in s.pregens]
    people += [person(p.name.split()[0], p.pronouns) for s in b.feat for p in [*s.cast, *s.others]]
    people += [person(p.name, p.pronouns) for s in b.lots for p in [*s.pregens, *s.npcs]]
    people += [person("Ada"), person("Bo", "he")]  # freeform characters, whose pronouns nobody gave
    challenges = [_thing(c.name, c) for s in b.abacus for c in challenge_specs(s).values()]
    challenges += [_thing(e.name, e) for s in b.wolden for e in [*s.extended, *s.montages]]
    challenges += [reading("Locked gate"), reading("Night Hound")]  # typed by players in freeform play
    enemies = [_thing(e.name, e) for s in b.wolden for e in s.enemies]  # one creature each ("Name 2" the second)
    denizens = [_thing(d.name, d) for s in b.abacus for d in s.denizens]
    places = [_thing(loc.name, loc) for s in b.abacus for loc in s.locations]
    facets = [f for s in b.abacus for p in s.pregens for fs in (p.facets.body, p.facets.mind, p.facets.soul)
              for f in fs]
    facets += list(ABILITY_FALLBACK_FACETS.values())
    concepts = [p.concept for s in b.abacus for p in s.pregens if p.concept]
    concepts += [c.name for s in b.abacus for c in s.concepts]
    concepts += [p.concept for s in b.feat for p in [*s.cast, *s.others] if p.concept]
    concepts += [p.concept for s in b.wolden for p in s.pregens if p.concept]
    concepts += [p.concept for s in b.lots for p in s.pregens if p.concept]
    groups = [group(pair) for pair in itertools.pairwise(people)]
    titles = [x.title for x in [*b.abacus, *b.wolden, *b.feat, *b.lots]]
    scenes = [sc.title for x in [*b.abacus, *b.wolden, *b.feat, *b.lots] for sc in x.scenes]
    return {
        "person": tuple(people), "group": tuple(groups), "challenge": tuple(challenges),
        "enemy": tuple(enemies), "denizen": tuple(denizens), "location": tuple(places),
        "place": tuple(places), "facet": tuple(facets), "concept": tuple(concepts),
        "ability": ("body", "mind", "soul", "might", "agility", "graces"),
        "cause": ("a fall", "the cold", "drowning"), "thing": ("a key", "the ledger"),
        "item": ("a lantern", "the bell rope"), "trait": ("Vigour", "swordplay"),
        "story": tuple(titles), "scene": tuple(scenes),
    }


_GROUPS = frozenset({"party", "others", "present", "casters", "standing", "helpers"})
_KIND = {"lead": "person", "character": "person", "asker": "person", "hurt": "person", "winner": "person",
         "rival": "person", "attacker": "person", "target": "person", "name": "person", "connection": "person",
         "challenge": "challenge", "enemy": "enemy", "denizen": "denizen", "location": "location",
         "place": "place", "facet": "facet", "concept": "concept", "ability": "ability", "cause": "cause",
         "thing": "thing", "item": "item", "trait": "trait", "story": "story", "scene": "scene", "title": "scene"}


@dataclass(frozen=True)
class Template:
    where: str  # table id and row, or story file and field
    text: str


@cache
def templates() -> tuple[Template, ...]:
    found = [Template(f"{t.id}#{r.id}", r.text) for t in bundled_tables().values() for r in t.rows if r.text]
    b = bundled()
    for s in b.abacus:
        for category in ("threat", "eerie", "personal", "intrusion", "friendly"):
            found += [Template(f"{s.id}:twists.{category}.{e.id}", e.text) for e in s.twists.table(category)]
        for result in ("held", "freed", "defeated"):
            found += [Template(f"{s.id}:postscripts.{result}.{e.id}", e.text)
                      for e in getattr(s.postscripts, result)]
        # narration seeds: a scene opening tells one, filled like a table row
        for where, seeds in [*((f"scenes.{x.id}", x.narration) for x in s.scenes),
                             *((f"locations.{x.id}", x.narration) for x in s.locations),
                             *((f"denizens.{x.id}", x.narration) for x in s.denizens)]:
            found += [Template(f"{s.id}:{where}.narration[{i}]", t) for i, t in enumerate(seeds)]
    for f in b.feat:  # a story's own twists, filled like the oracle's
        found += [Template(f"{f.id}:twists.{k}[{i}]", t) for k, rows in f.twists.items() for i, t in enumerate(rows)]
    for sc in b.lots:
        for kind in ("dark", "fortunate", "portent", "ordinary"):
            found += [Template(f"{sc.id}:twists.{kind}[{i}]", t) for i, t in enumerate(getattr(sc.twists, kind))]
    for w in b.wolden:
        found += [Template(f"{w.id}:twists.{k}[{i}]", t) for k, rows in w.twists.items() for i, t in enumerate(rows)]
        found += [Template(f"{w.id}:enemies.{e.id}.actions[{i}]", a.text)
                  for e in w.enemies for i, a in enumerate(e.actions)]
    return tuple(found)


def contexts(template: str) -> Iterator[dict[str, object]]:
    """Contexts that between them give each placeholder every bundled referent of its kind."""
    pools: dict[str, tuple[object, ...]] = {}
    for name in dict.fromkeys(placeholders(template)):
        kind = "group" if name in _GROUPS else _KIND.get(name)
        if kind is not None:
            pools[name] = samples()[kind]
        if name == "hurt":  # a failure may hurt several of those involved at once
            pools[name] = (*samples()["person"], *samples()["group"][:3])
    if not pools:
        yield {}
        return
    longest = max(len(p) for p in pools.values())
    for i in range(longest):
        context = {name: pool[(i + n * 7) % len(pool)] for n, (name, pool) in enumerate(pools.items())}
        # two different people in one sentence, as a table never names one person twice by two roles
        yield context


# -- the faults ---------------------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z]+(?:['\u2019-][A-Za-z]+)*")
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_TWO_VERBS = re.compile(r"\b(is|was|are|were)\s+(is|was|are|were|has|have|had|would|will|does|did|can|could|"
                        r"knows|sings|owes|walks|hates|reads|lies|carries|loves|made)\b", re.IGNORECASE)
# "{x} walks" with x the subject (not "something in {x} tears"): a verb that only fits one
_SUBJECT_VERB = re.compile(r"(?<!\bin )(?<!\bfrom )(?<!\bof )(?<!\bto )(?<!\bfor )(?<!\bat )(?<!\bon )(?<!\bwith )"
                           r"(?<!\bby )\{subject\} ([a-z]+s)\b(?!\{)")
_FORM_WORDS = {w for p in PRONOUNS.values() for w in p[:5]} | {
    "is", "are", "was", "were", "has", "have", "do", "does", "who", "whose", "s"}


def _words(text: str) -> set[str]:
    """The words of ``text``, in lower case, a possessive's ``'s`` taken off."""
    return {re.sub(r"['\u2019]s?$", "", w.casefold()) for w in _WORD.findall(text)}


def faults(template: str, context: dict[str, object]) -> list[str]:
    text = fill(template, context)
    bare = PLACEHOLDER.sub(" ", template)
    found: list[str] = []
    doubled = _DOUBLED.search(text)
    if doubled and not _DOUBLED.search(bare) and doubled.group(1).casefold() not in ("that", "had"):
        found.append(f"doubled word {doubled.group(0)!r}")
    lower = re.search(r"[.!?]\s+([a-z]\w*)", text)
    # a placeholder stands for a word of its own here: "Night falls. {story} begins." is a fault
    # when the story reads "the Pardon ...", though no lower-case word follows the full stop as written
    if lower and not re.search(r"[.!?]\s+[a-z]", PLACEHOLDER.sub("Name", template)):
        found.append(f"a sentence that starts in lower case {lower.group(0)!r} (write {{Name}} to capitalise)")
    pronoun = re.search(r"\b(they (is|was|has|does)|(she|he|it) (are|were|have|do))\b", text, re.IGNORECASE)
    if pronoun and not re.search(pronoun.group(0), bare, re.IGNORECASE):
        found.append(f"a pronoun and its verb disagree {pronoun.group(0)!r} (after {{x.they}} write {{x.are}})")
    verbs = _TWO_VERBS.search(text)
    if verbs and not _TWO_VERBS.search(bare):
        found.append(f"two verbs {verbs.group(0)!r}")
    for value in context.values():
        if isinstance(value, Referent) and value.plural and (m := re.search(
                re.escape(value.phrase) + r"\s+(is|was|has)\b", text, re.IGNORECASE)):
            found.append(f"a plural told as one {m.group(0)!r}")
    for name, value in context.items():
        if isinstance(value, Referent) and value.plural:
            verb = _SUBJECT_VERB.search(template.replace("{" + name + "}", "{subject}"))
            if verb and verb.group(1) not in ("as", "is", "was", "has", "its", "this", "unawares"):
                found.append(f"a verb that does not agree with a plural {verb.group(0)!r} (write {{x}} walk{{x.s}})")
    for value in context.values():
        if isinstance(value, Referent) and value.proper and not value.article and not value.prose and value.name:
            wrong = re.search(r"\b(the|a|an)\s+" + re.escape(value.name) + r"\b", text, re.IGNORECASE)
            if wrong:
                found.append(f"article before a proper name {wrong.group(0)!r}")
    vocabulary = _words(bare) | _FORM_WORDS
    # a verb's ending written as a form ("walk{lead.s}"): both "walk" and "walks" are the text's own words
    for ending in ("s", "es"):
        vocabulary |= _words(PLACEHOLDER.sub(" ", re.sub(r"\{[a-z_]+\." + ending + r"\}", ending, template)))
    for match in PLACEHOLDER.finditer(template):
        if match.group(3):
            vocabulary |= _words(match.group(3))
    for value in context.values():
        vocabulary |= _words(str(value)) | _words(value.prose if isinstance(value, Referent) else "")
        if isinstance(value, Referent):
            vocabulary |= _words(value.name)
    vocabulary |= {w for f in FALLBACKS.values() for w in _words(f)} | {"something"}
    glued = sorted(_words(text) - vocabulary)
    if glued:
        found.append(f"words glued together or out of nowhere: {glued}")
    return found


# Outcome words: a row that tells success must not tell failure, and the other way round.
# (not "wins": a failure may well say that the challenge wins)
_FAILURE_WORDS = re.compile(r"\b(fails?|failed|failure|in vain|falls? short|not enough|no further on|gets? nowhere)\b",
                            re.IGNORECASE)
_SUCCESS_WORDS = re.compile(r"\b(succeeds?|success|overcomes?|triumphs?)\b", re.IGNORECASE)
_ESCAPE_WORDS = re.compile(r"\b(escapes?|escaped|gets? away|got away|shakes? off|throws? off|falls? behind|"
                           r"left behind|leaves? .{0,20} behind|lose[sd]? (?:them|it|the)|loses? the trail|"
                           r"clear of|slips? away|in the mirror|goes? to ground|thundering past|pass(?:es)? close|"
                           r"hides?|hid|hidden|out of sight|never there|runs? for it|flee\w*|fled|caught|catches)\b",
                           re.IGNORECASE)
_HUNT_WORDS = re.compile(r"\b(quarry|closes? the gap|runs? (?:it|them|him|her) down|hunts? down|the scent|"
                         r"track(?:s|ed)? down)\b", re.IGNORECASE)
_BODY_WORDS = re.compile(r"\b(blood|bleed\w*|breath|bones?|bruis\w*|flesh|skin|body|limbs?|muscles?|ankles?|"
                         r"knees?|ribs?|gash|sinews?|wrist|shoulders?)\b", re.IGNORECASE)
_SOUL_WORDS = re.compile(r"\b(soul|spirit|faith|prayer)\b", re.IGNORECASE)
_MIND_TYPES = ("logic", "pressure", "wits")
_SOUL_TYPES = ("foreboding", "invocation", "taint")
_BODY_TYPES = ("obstruction", "pursuit", "threat")
# Which way each outcome table tells a roll: by the last part of its id, except where a word means both.
_WON = frozenset({"overcome", "overcome_wyrd", "success", "critical_success", "won", "lived", "found", "landed",
                  "done", "beaten", "freed", "warm", "weal", "great-weal", "steady"})
_LOST = frozenset({"failed", "failed_damage", "failed_scratch", "failure", "critical_failure", "lost", "died",
                   "fell", "missed", "withdrew", "abandoned", "cold", "woe", "great-woe", "down", "defeated"})
_TOLD_AS = {"narrate/postscript/held": "lost", "feat/shock/held": "won"}  # held by the Vale; held steady


def direction(table: str) -> str | None:
    """``won``, ``lost`` or None (a table that tells no roll's outcome)."""
    if table in _TOLD_AS:
        return _TOLD_AS[table]
    last = table.rsplit("/", 1)[-1]
    return "won" if last in _WON else ("lost" if last in _LOST else None)


def direction_faults(where: str, text: str) -> list[str]:
    table = where.split("#", 1)[0]
    out: list[str] = []
    told = direction(table)
    if told == "won" and (m := _FAILURE_WORDS.search(text)):
        out.append(f"a success told with {m.group(0)!r}")
    if told == "lost" and (m := _SUCCESS_WORDS.search(text)):
        out.append(f"a failure told with {m.group(0)!r}")
    if ("/pursuit/" in table or table.endswith("/pursuit")) and (m := _ESCAPE_WORDS.search(text)):
        out.append(f"a chase told as an escape ({m.group(0)!r}): the character may be the pursuer")
    if ("/pursuit/" in table or table.endswith("/pursuit")) and (m := _HUNT_WORDS.search(text)):
        out.append(f"a chase told as a hunt ({m.group(0)!r}): the character may be the one chased")
    parts = table.split("/")
    kind = parts[2] if table.startswith("narrate/challenge/") and len(parts) > 3 else ""
    if kind in _BODY_TYPES and (m := _SOUL_WORDS.search(text)):
        out.append(f"a Body challenge told with Soul imagery ({m.group(0)!r})")
    if kind in (*_SOUL_TYPES, *_MIND_TYPES) and (m := _BODY_WORDS.search(text)):
        out.append(f"a {kind} challenge told with the body's imagery ({m.group(0)!r})")
    generic = table.startswith(("narrate/harm/", "narrate/challenge/any/failed"))
    if generic and (m := _BODY_WORDS.search(text) or _SOUL_WORDS.search(text)):
        out.append(f"a loss of any ability told with one ability's imagery ({m.group(0)!r})")
    ends = re.search(r"gives? out for good|\bdies\b|\bdeath\b|\bdead\b", text)
    if table.endswith(("/failed_scratch", "harm/scratch")) and ends:
        out.append("a scratched-out ability told as the end of the character")
    return out


def test_every_outcome_table_is_told_one_way() -> None:
    """The outcome tables the check reads (a typo in an id would quietly leave a table unchecked)."""
    told = {t: direction(t) for t in bundled_tables()}
    assert told["narrate/challenge/pursuit/overcome"] == "won" and told["narrate/postscript/held"] == "lost"
    assert told["wolden/check/critical_failure"] == "lost" and told["feat/shock/held"] == "won"
    assert sum(d is not None for d in told.values()) >= 80


def test_every_template_reads_right_with_every_bundled_referent() -> None:
    """Issue 18, point 7: no doubled words, "is was", article before a name, glued words, wrong way round."""
    problems: list[str] = []
    for template in templates():
        seen: set[str] = set()
        for fault in direction_faults(template.where, template.text):
            problems.append(f"{template.where}: {fault}: {template.text!r}")
        for context in contexts(template.text):
            for fault in faults(template.text, context):
                key = fault.split(":")[0] + fault[:40]
                if key in seen:
                    continue
                seen.add(key)
                problems.append(f"{template.where}: {fault}: {fill(template.text, context)!r}")
    assert not problems, f"{len(problems)} faults:\n" + "\n".join(problems)


_CLAUSE_START = re.compile(r"^(what|how|why|where|who|when|whom|whose|drive|win|find|run|get|escape|cross|"
                           r"catch|stop|reach|follow|keep|make|take|open|break|save|unmaking|reading|against|after|into|behind|turn|"
                           r"turning|pulled|race)\b",
                           re.IGNORECASE)
_CLAUSE_END = re.compile(r"\b(runs|calls|walks|reaps|whispers|wakes|rises|falls|comes|closes in|closes|"
                         r"sings|burns|hunts|waits|stirs|speaks|knows|goes|shows|offered|back|under)$", re.IGNORECASE)


def test_every_bundled_thing_reads_as_a_noun() -> None:
    """Issue 18, point 7: a challenge, enemy, denizen or place reads as a noun phrase, never a clause."""
    found = samples()
    things = [*found["challenge"], *found["enemy"], *found["denizen"], *found["location"]]
    bad = [f"{t.name!r} reads as {t.phrase!r}" for t in things if isinstance(t, Referent)
           and (_CLAUSE_START.search(t.phrase) or _CLAUSE_END.search(t.phrase))]
    assert not bad, "clauses used as nouns (give them `prose:`):\n" + "\n".join(bad)


def test_every_pregen_says_their_pronouns() -> None:
    """Issue 18, point 7: the story formats carry each character's pronouns, and the bundled ones give them."""
    b = bundled()
    people = [(s.id, p.name, p.pronouns) for s in b.abacus for p in s.pregens]
    people += [(s.id, p.name, p.pronouns) for s in b.wolden for p in s.pregens]
    people += [(s.id, p.name, p.pronouns) for s in b.feat for p in [*s.cast, *s.others]]
    people += [(s.id, p.name, p.pronouns) for s in b.lots for p in [*s.pregens, *s.npcs]]
    assert [f"{s}: {n}" for s, n, p in people if p is None] == []


@pytest.mark.parametrize(("template", "context", "reads"), [
    ("{Challenge} shrinks in the mirror.", {"challenge": reading("Tamsin Runs")}, "Tamsin Runs shrinks in the mirror."),
    ("{lead} loses {lead.their} footing.", {"lead": person("Coral Vell", "she")}, "Coral Vell loses her footing."),
    ("{lead}, {facet.who}, waits.", {"lead": person("Coral"), "facet": "was crowned Sweetheart"},
     "Coral, who was crowned Sweetheart, waits."),
    ("{hurt} {hurt.is} hurt.", {"hurt": group([person("Ada"), person("Bo")])}, "Ada and Bo are hurt."),
    ("{character} is hurt by {cause|what happened}.", {"character": "Ansel", "cause": "a fall"},
     "Ansel is hurt by a fall."),
])
def test_grammar_forms(template: str, context: dict[str, object], reads: str) -> None:
    """Issue 18, point 7: the placeholder forms the texts use."""
    assert fill(template, context) == reads


def test_people_placeholders_are_proper_names() -> None:
    """A plain string in a person's placeholder is a proper name: never "the ada"."""
    assert "lead" in PEOPLE
    assert fill("{lead.their} turn", {"lead": "Ada"}) == "Their turn"
    assert fill("{challenge.is}", {"challenge": "Hounds"}) == "Is"


# "{character} grits their teeth": a plain pronoun a few words after a person, where the
# person's own pronouns belong ({character.their}); rows about a group say so in other words
_BARE_PRONOUN = re.compile(r"\{(character|lead)\}( [A-Za-z']+){1,3} (their|theirs|themself|themselves)\b")


def test_a_person_s_own_pronouns_come_from_the_person() -> None:
    """Issue 18, point 7: "the pronouns of each character", so a row never gives a character
    "their" where the character's own form belongs (Ysolde is a she, not a they)."""
    found = [f"{t.where}: {t.text}" for t in templates() if _BARE_PRONOUN.search(t.text)]
    assert not found, "\n".join(found)
