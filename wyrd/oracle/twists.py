"""The twist engine: Wyrd results become twists, as a narrator would make them.

Seed 000 and DESIGN.md: on a Wyrd roll, each character whose result is a 6 gets a
twist of their own: a new threat, an eerie twist or a personal tie. A die picks
which, by weights (equal by default: a d6 read 1-2 / 3-4 / 5-6; a story may pass
its own). When the best result of the whole roll is 1 or 2, something mundane or
friendly intrudes (a d6: 1-3 mundane, 4-6 friendly). 3 to 5: nothing new.

[ours] Decisions the texts leave open:

* One Wyrd roll across several characters (consecutive ``influence_rolled``
  events of trait ``wyrd`` with the same ``reason``) brings at most one
  intrusion, and only when nobody rolled above 2 ("a best of 1-2", as the scene
  test reads it). It is told for the character with the lowest result (the first
  of them in roll order): the one least tangled in the Wyrd, the anchor to the
  ordinary world. A 6 always brings that character's own twist.
* Wyrd rolls made at defeat and at the finale bring no twists: their 6s already
  mean something (an impediment; held by the Vale) and are narrated as such.
* The scene test's intrusion is always mundane (DESIGN.md); its roll is the one
  with reason ``scene test``.

Where the words come from: the story's own entries for the category first (a
plain mapping ``category -> [entries]``, so this module does not depend on the
story schema), else the generic tables ``twist/<category>`` in ``oracle/tables``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from wyrd.oracle.events import TwistDrawn
from wyrd.oracle.text import Layered
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.oracle.tables import DeckState, Table, TableResult

__all__ = [
    "ALIASES",
    "DEFAULT_LOW_WEIGHTS",
    "DEFAULT_SIX_WEIGHTS",
    "NO_TWIST_REASONS",
    "SCENE_TEST_REASON",
    "Category",
    "category_table",
    "draw_twist",
    "story_categories",
    "twists",
]


class Category(StrEnum):
    THREAT = "threat"  # a new threat
    EERIE = "eerie"  # an eerie twist to the tale
    TIE = "tie"  # a direct and personal tie for the character
    MUNDANE = "mundane"  # a mundane intrusion from outside the Vale
    FRIENDLY = "friendly"  # a friendly intrusion

    @property
    def on_six(self) -> bool:
        return self in (Category.THREAT, Category.EERIE, Category.TIE)


DEFAULT_SIX_WEIGHTS: dict[Category, int] = {Category.THREAT: 2, Category.EERIE: 2, Category.TIE: 2}
DEFAULT_LOW_WEIGHTS: dict[Category, int] = {Category.MUNDANE: 3, Category.FRIENDLY: 3}
NO_TWIST_REASONS = frozenset({"defeat", "finale"})
SCENE_TEST_REASON = "scene test"
ALIASES: dict[str, Category] = {
    "new_threat": Category.THREAT, "new-threat": Category.THREAT, "threats": Category.THREAT,
    "eerie_twist": Category.EERIE, "eerie-twist": Category.EERIE,
    "personal_tie": Category.TIE, "personal-tie": Category.TIE, "ties": Category.TIE,
    "mundane_intrusion": Category.MUNDANE, "mundane-intrusion": Category.MUNDANE,
    "friendly_intrusion": Category.FRIENDLY, "friendly-intrusion": Category.FRIENDLY,
}


def _category(key: str) -> Category:
    word = key.strip().lower()
    if word in ALIASES:
        return ALIASES[word]
    try:
        return Category(word)
    except ValueError:
        names = ", ".join(c.value for c in Category)
        raise ValueError(f"{key!r} is not a twist category ({names})") from None


def story_categories(entries: Mapping[str, Sequence[str]] | None) -> dict[Category, list[str]]:
    """A story's twist entries by category; an unknown category is an error, never ignored."""
    out: dict[Category, list[str]] = {}
    for key, items in (entries or {}).items():
        if isinstance(items, str):
            raise ValueError(f"twist entries for {key!r} must be a list of texts, not one text")
        out.setdefault(_category(key), []).extend(str(i) for i in items)
    return out


def category_table(on_six: bool, weights: Mapping[str, int] | None = None) -> Table:
    """The table that picks a category: a d6 when the weights add up to 6, else by weights.

    A category left out of ``weights`` (or weighted 0) never comes up; a negative weight,
    a category of the other kind, or no category left at all is an error.
    """
    from wyrd.oracle.tables import make_table

    default = DEFAULT_SIX_WEIGHTS if on_six else DEFAULT_LOW_WEIGHTS
    chosen = {_category(k): int(v) for k, v in weights.items()} if weights else dict(default)
    for cat, weight in chosen.items():
        if cat.on_six != on_six:
            raise ValueError(f"{cat.value} is not a category for a {'6' if on_six else 'result of 1-2'}")
        if weight < 0:
            raise ValueError(f"the weight of {cat.value} cannot be {weight}")
    cats = [c for c in default if chosen.get(c, 0) > 0]
    if not cats:
        raise ValueError("twist weights leave no category that can come up")
    kind = "six" if on_six else "low"
    if sum(chosen[c] for c in cats) == 6 and all(chosen[c] > 0 for c in cats):
        rows: list[dict[str, object]] = []
        low = 1
        for cat in cats:
            rows.append({"id": cat.value, "range": f"{low}-{low + chosen[cat] - 1}", "text": cat.value})
            low += chosen[cat]
        return make_table(f"twist/category/{kind}", "Which twist", "d6", rows)
    rows = [{"id": c.value, "weight": chosen[c], "text": c.value} for c in cats]
    return make_table(f"twist/category/{kind}", "Which twist", "weights", rows)


def _entries_table(story: str, category: Category, entries: Sequence[str]) -> Table:
    from wyrd.oracle.tables import make_table

    rows = [{"id": str(i + 1), "text": text} for i, text in enumerate(entries)]
    return make_table(f"{story}/twists/{category.value}", f"{story}: {category.value}", "weights", rows,
                      file=f"<{story} twists>")


def draw_twist(
    character: str, category: Category | str, dice: Dice, *, result: int = 6,
    story_tables: Mapping[str, Sequence[str]] | None = None, context: Mapping[str, object] | None = None,
    deck_state: DeckState | None = None, tables: Mapping[str, Table] | None = None, story: str = "story",
    generic: str | None = None,
) -> TwistDrawn:
    """One twist event for ``character`` in ``category``: the story's entries first, then the generic table.

    ``generic`` is the id of the ruleset's own table for this twist (default ``twist/CATEGORY``,
    the Vale's), or a prefix ending in ``/`` that the category completes (``wolden/twist/``).
    With a deck, once every one of the story's entries has come up, the generic table's rows
    come next, and only when both are spent does the story's deck start again: a long session
    hears every twist it has before it hears one twice.
    """
    from wyrd.oracle.tables import bundled_tables, roll

    cat = _category(category) if isinstance(category, str) else category
    entries = story_categories(story_tables).get(cat)
    ctx: Mapping[str, object] = Layered({"character": character, "asker": character}, context or {})
    general = f"twist/{cat.value}" if generic is None else generic + (cat.value if generic.endswith("/") else "")
    chosen: Table | str = general
    if entries:
        own = _entries_table(story, cat, entries)
        chosen = own
        if deck_state is not None and _spent(own, deck_state):
            fallback = (tables if tables is not None and general in tables else bundled_tables())[general]
            if _spent(fallback, deck_state):
                deck_state[fallback.id] = []  # both dealt out: the story's deck starts again, then this one
            else:
                chosen = fallback
    result_row: TableResult = roll(chosen, dice, ctx, deck_state, tables=tables)
    return TwistDrawn(character=character, result=result, category=cat.value, text=result_row.text,
                      table=result_row.table, row=result_row.row)


def _spent(table: Table, deck_state: DeckState) -> bool:
    """Whether every row of ``table`` has come up since its deck last started again."""
    return {r.id for r in table.rows} <= set(deck_state.get(table.id, []))


def _groups(events: Sequence[Event]) -> list[list[Any]]:
    """The runs of Wyrd rolls (``influence_rolled`` of the trait ``wyrd``) for one reason each."""
    groups: list[list[Any]] = []
    for event in events:
        if event.kind != "influence_rolled" or getattr(event, "trait", None) != "wyrd":
            if groups and groups[-1]:
                groups.append([])
            continue
        if groups and groups[-1] and groups[-1][-1].reason == getattr(event, "reason", None):
            groups[-1].append(event)
        else:
            groups.append([event])
    return [g for g in groups if g]


def twists(
    events: Event | Sequence[Event], dice: Dice, *,
    story_tables: Mapping[str, Sequence[str]] | None = None, weights: Mapping[str, int] | None = None,
    intrusion_weights: Mapping[str, int] | None = None, context: Mapping[str, object] | None = None,
    characters: Mapping[str, Mapping[str, object]] | None = None, deck_state: DeckState | None = None,
    tables: Mapping[str, Table] | None = None, story: str = "story",
    quiet: Collection[str] = NO_TWIST_REASONS, mundane: str = SCENE_TEST_REASON,
) -> list[TwistDrawn]:
    """The twist events a command's Wyrd rolls bring (see the module docstring).

    Args:
        events: one ``influence_rolled`` event, or a command's events (others are passed over).
        dice: picks the categories and the entries.
        story_tables: the story's own entries, ``{category: [text, ...]}`` (aliases like ``new_threat`` work).
        weights: the story's weights for a 6 (``{"threat": 3, "eerie": 2, "tie": 1}``).
        intrusion_weights: the story's weights for a best of 1-2 (``mundane``, ``friendly``).
        context: placeholder values for every twist (location, denizen, ...).
        characters: placeholder values per character (concept, facet, connection), over ``context``.
        deck_state: draw entries without repeats across the session (see :mod:`wyrd.oracle.tables`).
        quiet: the reasons of rolls that bring no twist; ``mundane`` the reason whose intrusion is
            always mundane (the ruleset's own enums; the defaults are their words).
    """
    found = [events] if isinstance(events, Event) else list(events)
    out: list[TwistDrawn] = []
    for group in _groups(found):
        reason = str(group[0].reason)
        if reason in quiet:
            continue
        picks: list[tuple[str, int, Category | None]] = [
            (str(e.character), 6, None) for e in group if int(e.result) >= 6]
        best = max(int(e.result) for e in group)
        if best <= 2:
            lowest = min(group, key=lambda e: int(e.result))
            forced = Category.MUNDANE if reason == mundane else None
            picks.append((str(lowest.character), int(lowest.result), forced))
        for name, result, forced in picks:
            if forced is not None:
                cat = forced
            else:
                # The tables are loaded at the first Wyrd roll that brings a twist, not with the kit.
                from wyrd.oracle.tables import roll

                table = category_table(result >= 6, weights if result >= 6 else intrusion_weights)
                cat = Category(roll(table, dice).row)
            ctx: Mapping[str, object] = Layered(dict((characters or {}).get(name, {})), context or {})
            out.append(draw_twist(name, cat, dice, result=result, story_tables=story_tables, context=ctx,
                                  deck_state=deck_state, tables=tables, story=story))
    return out
