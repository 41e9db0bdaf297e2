"""How often the narration says the same line twice: a two-hour sitting, and four replays of a story.

Issue 18, point 8: "In an offline two-hour session (the freeform setting included)
fewer than 5% of narrated lines repeat; across four replays of the same story with
different seeds, fewer than 25% of lines are identical."

Every game is played by bots through real play sessions with the tables narrating
(prose on, as at the console): the bots of :mod:`wyrd.sim` for Wolden, Heroes of the
Fall and Thaeborn, and :class:`AbacusBot` below for the Abacus, whose own simulator
plays the rules alone. A narrated line is the text of a ``narration`` event or of a
``twist`` (both are printed to the table).

**The sitting.** Two hours of play is taken as :data:`SITTING_COMMANDS` commands (one
every half minute). The freeform setting plays :data:`FREEFORM_SCENES` scenes and its
finale in one game. A bundled story is shorter than a sitting, so it is played again
and again until the sitting's commands are used up, the tables' no-repeat deck carried
from one playthrough to the next as it would be in one long game. A line repeats if
the same text was already narrated in the sitting; a line in the story's own words
(its scene seeds, a stage rule's text: ``source: story``, or a story scene opening)
comes back by design when the story is played again, so it counts as a repeat only
within its own playthrough.

**The replays.** The story is played to its end four times with different seeds; a
line of one replay is identical if the same text is narrated in any of the other three.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wyrd.play.engine.reply import Reply
from wyrd.play.engine.session import Session
from wyrd.rules.abacus.challenge import roll_terms
from wyrd.sim import BotSimulator, simulator_for
from wyrd.sim.bots import Bot, Outcome, kinds
from wyrd.sim.playthrough import session_seed

__all__ = [
    "FREEFORM_SCENES",
    "SITTING_COMMANDS",
    "STORIES",
    "AbacusBot",
    "Line",
    "Sitting",
    "Story",
    "bot_for",
    "play",
    "play_through",
    "replays",
    "run",
    "sitting",
]

SITTING_COMMANDS = 240  # two hours at one command every 30 seconds
FREEFORM_SCENES = 40  # what a two-hour freeform game holds
STEP_CAP = 600  # one playthrough's lines, at most
# The freeform setting has no pregenerated characters: the bots bring their own.
# When all of them have fallen, the players bring new ones (the next three names).
FREEFORM_PARTY = ('pc add Agnes body=4 mind=6 soul=5 concept="a retired schoolteacher"',
                  'pc add Tom body=7 mind=4 soul=4 wyrd=1 concept="a lifeboatman"',
                  'pc add Idris body=5 mind=5 soul=5 concept="a surveyor for the council"')
SPARE_NAMES = ("Morwenna", "Jory", "Kerensa", "Hedra", "Piran", "Tamsyn", "Bryok", "Elowen", "Lowdy", "Gwen")


@dataclass(frozen=True)
class Story:
    """A bundled story and its ruleset; ``freeform``: played scene after scene, not to an end."""

    ruleset: str
    story: str
    freeform: bool = False


STORIES = (
    Story("abacus", "wrackham", freeform=True),
    Story("abacus", "hollow-fair"),
    Story("abacus", "the-milestones"),
    Story("wolden", "the-drowned-bell"),
    Story("feat", "lantern-at-gull-reach"),
    Story("feat", "the-pardon-at-kell-pass"),
    Story("lots", "harrow-mere"),
    Story("lots", "salt-tithe"),
)


@dataclass(frozen=True)
class Line:
    """One narrated line: its text, and whether it is in the story's own words."""

    text: str
    own: bool
    moment: str


def _lines(events: Iterable[Any]) -> list[Line]:
    found = []
    for event in kinds(list(events)):
        kind = event.get("kind")
        if kind == "narration_failed":  # a broken table would otherwise read as no repetition at all
            raise RuntimeError(f"the narration failed: {event.get('reason')}")
        if kind == "narration":
            found.append(Line(str(event.get("text", "")), event.get("source") == "story",
                              str(event.get("moment") or event.get("table") or "")))
        elif kind == "twist":
            found.append(Line(str(event.get("text", "")), False, str(event.get("table") or "twist")))
    return found


def _quoted(name: str) -> str:
    return f'"{name}"'


@dataclass
class AbacusBot:
    """The Abacus players at the console: every open challenge faced, Wyrd drawn to rescue a miss.

    ``scenes``: in a freeform setting, the scenes to play before the finale.
    """

    rng: random.Random
    scenes: int | None = None
    started: int = 0
    finale: bool = False

    def over(self, session: Session) -> Outcome | None:
        state = session.state
        if state.ended:
            return Outcome.ENDED
        if (state.characters and all(c.defeated for c in state.characters.values()) and state.scene is None
                and self.scenes is None):
            return Outcome.FELL
        return None

    def next_line(self, session: Session, last: Reply | None) -> str:
        state = session.state
        if not state.characters:
            return "pc take all" if last is None or last.verb != "pc" else FREEFORM_PARTY[0]
        if self.scenes is not None and len(state.characters) < len(FREEFORM_PARTY):
            return FREEFORM_PARTY[len(state.characters)]
        if self.scenes is not None and state.scene is None and all(c.defeated for c in state.characters.values()):
            name = SPARE_NAMES[(len(state.characters) - len(FREEFORM_PARTY)) % len(SPARE_NAMES)]
            return f"pc add {name} body=5 mind=5 soul=5"
        pending = state.pending
        if pending is not None:
            if pending.stage == "rolled":
                # A miss is rescued with just the Wyrd it needs, when the pool holds it and it is 1 or 2.
                lead = state.characters[pending.lead]
                terms = roll_terms(state)
                need = 0 if terms is None else terms.value - (pending.die or 0) - terms.points - terms.bonus
                if terms is not None and 0 < need <= min(terms.drawable, 2) and not lead.defeated:
                    return f"draw {_quoted(pending.lead)} {need}"
                return "accept"
            lead = state.characters[pending.lead]
            if pending.points == 0 and self.rng.random() < 0.5:
                ability = max(lead.points, key=lambda a: lead.points[a])
                if lead.points[ability] > 1:
                    return f"spend {_quoted(pending.lead)} 1 {ability.value}"
            return "roll"
        scene = state.scene
        if scene is None:
            if (self.scenes is not None and self.started >= self.scenes) or self.finale:
                return "finale"
            if last is not None and last.refused is not None and last.verb == "scene":
                self.finale = True
                return "finale"
            self.started += 1
            return "scene"
        standing = [n for n in scene.present if not state.characters[n].defeated]
        done = {i for i, c in scene.challenges.items() if c.status != "open"}
        for ident, challenge in scene.challenges.items():
            if challenge.status == "open" and set(challenge.after) <= done | {
                    a for a in challenge.after if a not in scene.challenges}:
                if not standing or (last is not None and last.refused is not None and last.verb == "attempt"):
                    break
                return f"attempt {ident} by {_quoted(self.rng.choice(standing))}"
        if scene.wyrd_rolls == 0:
            return "wyrd"
        return "end scene"


def bot_for(story: Story, rng: random.Random, *, scenes: int = FREEFORM_SCENES) -> Bot:
    """The bot that plays ``story``: the Abacus's own (a freeform setting for ``scenes`` scenes and its
    finale), every other ruleset's bold bot."""
    if story.ruleset == "abacus":
        return AbacusBot(rng, scenes if story.freeform else None)
    simulator = simulator_for(story.ruleset)
    assert isinstance(simulator, BotSimulator)
    return simulator.bots.bot("bold", rng, None)


def play_through(session: Session, story: Story, rng: random.Random, steps: int, *,
                 scenes: int = FREEFORM_SCENES) -> None:
    """Choose ``story`` in ``session``, then let its bot play at most ``steps`` lines, or to its end."""
    chosen = session.execute(f"story {story.story}")
    if chosen.refused is not None:
        raise RuntimeError(f"{story.story}: {chosen.reason}")
    bot, reply = bot_for(story, rng, scenes=scenes), None
    for _ in range(steps):
        if bot.over(session) is not None:
            break
        reply = session.execute(bot.next_line(session, reply))


@dataclass
class Played:
    """One playthrough: its narrated lines, the commands it took, and the deck it left."""

    lines: list[Line] = field(default_factory=list)
    commands: int = 0
    deck: dict[str, list[str]] = field(default_factory=dict)
    outcome: str = ""


def play(story: Story, seed: int, *, deck: dict[str, list[str]] | None = None,
         budget: int = STEP_CAP) -> Played:
    """Play ``story`` with the bots (seeded by ``seed``) to its end or ``budget`` commands, the tables narrating."""
    # The story is chosen after the deck is laid down, so its opening lines draw on the deck too.
    session = Session.new(None, seed=session_seed(seed, 0), ruleset=story.ruleset)
    session.teller.reset(deck)
    chosen = session.execute(f"story {story.story}")
    if chosen.refused is not None:
        session.close()
        raise RuntimeError(f"{story.story}: {chosen.reason}")
    bot = bot_for(story, random.Random(f"repetition:{seed}"))
    played = Played(lines=_lines([*session.opening_events, *chosen.events]))
    reply = None
    try:
        while played.commands < budget:
            outcome = bot.over(session)
            if outcome is not None:
                played.outcome = outcome.value
                break
            reply = session.execute(bot.next_line(session, reply))
            played.commands += 1
            played.lines += _lines(reply.events)
        else:
            played.outcome = "cut off"
        played.deck = {k: list(v) for k, v in session.teller.deck.items()}
    finally:
        session.close()
    return played


@dataclass(frozen=True)
class Sitting:
    """A two-hour sitting's figures: lines narrated, lines that repeat, games played, commands."""

    story: Story
    lines: int
    repeats: int
    games: int
    commands: int
    worst: tuple[tuple[str, int], ...]  # the moments with most repeats

    @property
    def share(self) -> float:
        return self.repeats / self.lines if self.lines else 0.0


def sitting(story: Story, seed: int = 1, commands: int = SITTING_COMMANDS) -> Sitting:
    """A two-hour sitting of ``story`` (see the module docstring)."""
    said: set[str] = set()
    repeats = lines = games = used = 0
    by_moment: dict[str, int] = {}
    deck: dict[str, list[str]] = {}
    while used < commands:
        played = play(story, seed * 1000 + games, deck=deck,
                      budget=STEP_CAP if story.freeform else commands - used)
        games += 1
        used += played.commands
        deck = played.deck
        own_said: set[str] = set()
        for line in played.lines:
            seen = own_said if line.own else said
            lines += 1
            if line.text in seen:
                repeats += 1
                by_moment[line.moment] = by_moment.get(line.moment, 0) + 1
            seen.add(line.text)
        if story.freeform or played.commands == 0:
            break
    worst = tuple(sorted(by_moment.items(), key=lambda kv: (-kv[1], kv[0]))[:4])
    return Sitting(story, lines, repeats, games, used, worst)


@dataclass(frozen=True)
class Replays:
    """Four replays' figures: lines narrated in all, and lines also narrated in another replay."""

    story: Story
    lines: int
    identical: int

    @property
    def share(self) -> float:
        return self.identical / self.lines if self.lines else 0.0


def replays(story: Story, seeds: Sequence[int] = (1, 2, 3, 4), *, scenes: int = 12) -> Replays:
    """The same story played with each seed; ``scenes``: a freeform setting's scenes in each."""
    games = []
    for seed in seeds:
        if story.freeform:
            games.append(_freeform(story, seed, scenes))
        else:
            games.append([line.text for line in play(story, seed).lines])
    lines = identical = 0
    for i, game in enumerate(games):
        elsewhere = set().union(*(set(g) for j, g in enumerate(games) if j != i))
        lines += len(game)
        identical += sum(1 for text in game if text in elsewhere)
    return Replays(story, lines, identical)


def _freeform(story: Story, seed: int, scenes: int) -> list[str]:
    session = Session.new(None, seed=session_seed(seed, 0), story=story.story, ruleset=story.ruleset)
    bot = AbacusBot(random.Random(f"repetition:{seed}"), scenes)
    texts = [line.text for line in _lines(session.opening_events)]
    reply = None
    try:
        for _ in range(STEP_CAP):
            if bot.over(session) is not None:
                break
            reply = session.execute(bot.next_line(session, reply))
            texts += [line.text for line in _lines(reply.events)]
    finally:
        session.close()
    return texts


def _name(story: Story) -> str:
    return f"{story.ruleset} {story.story}"


def run(stories: Sequence[Story] = STORIES, sittings: int = 10, rounds: int = 5) -> list[str]:
    """Each story: ``sittings`` sittings (seeds 1, 2, ...) and ``rounds`` sets of four replays (seeds 1-4, 5-8, ...)."""
    out = [f"a sitting: {SITTING_COMMANDS} commands (two hours at one every 30 s), the bundled story played "
           f"again and again with the deck carried over; the freeform setting: {FREEFORM_SCENES} scenes and its "
           "finale; target under 5% of lines repeated",
           "four replays: each story to its end with four seeds (the freeform setting 12 scenes each); "
           "target under 25% of lines identical",
           f"{sittings} sittings (seeds 1 to {sittings}) and {rounds} sets of four replays (seeds 1-4, 5-8, ...) "
           "a story; each figure is all of them pooled, then the worst one"]
    for story in stories:
        sits = [sitting(story, seed) for seed in range(1, sittings + 1)]
        reps = [replays(story, tuple(range(4 * r + 1, 4 * r + 5))) for r in range(rounds)]
        lines, repeats = sum(s.lines for s in sits), sum(s.repeats for s in sits)
        worst = max(sits, key=lambda s: s.share)
        rep_lines, same = sum(r.lines for r in reps), sum(r.identical for r in reps)
        rep_worst = max(reps, key=lambda r: r.share)
        moments: dict[str, int] = {}
        for sit in sits:
            for moment, n in sit.worst:
                moments[moment] = moments.get(moment, 0) + n
        most = ", ".join(f"{m} {n}" for m, n in sorted(moments.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
        out.append(f"{_name(story):<32} sitting: {repeats:>4}/{lines:<5} repeat ({repeats / max(1, lines):5.1%}, "
                   f"worst {worst.share:5.1%}; {sum(s.games for s in sits) / len(sits):.0f} game(s) a sitting; "
                   f"most: {most or 'none'}); replays: {same:>4}/{rep_lines:<5} identical "
                   f"({same / max(1, rep_lines):5.1%}, worst {rep_worst.share:5.1%})")
    return out
