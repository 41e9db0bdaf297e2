"""How Heroes of the Fall reads on a screen: one line per event, and the character sheets.

:data:`TEXTS` maps every event kind the ``feat`` ruleset and its play layer
emit to a function giving its line (the shared renderer cleans it of control
characters and styles it). Odds are shown as a percentage that never rounds a possibility
away, with the exact fraction after it (``0.2% (1/512)``, ``<0.1%``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from wyrd.rules.feat import Attribute, Character, Skill, skill_rating

__all__ = ["RECALL", "TEXTS", "chance", "first_name", "sheet_lines"]

Event = Mapping[str, Any]
ATTRIBUTES = [a.value for a in Attribute]


def first_name(name: str) -> str:
    """The name people use at the table: the first word (``Wenna`` for Wenna Tarr)."""
    return name.split()[0] if name.split() else name


def chance(text: str) -> str:
    """``"3/10"`` as ``30.0% (3/10)``: the percentage a player reads first (Issue 18, point 4), the exact
    fraction after it; a possibility never reads as 0% or 100%."""
    p = Fraction(text)
    if p in (0, 1):
        return f"{int(p) * 100}%"
    percent = f"{float(p) * 100:.1f}%"
    return f"{ {'100.0%': '>99.9%', '0.0%': '<0.1%'}.get(percent, percent)} ({p})"


def _signed(level: int) -> str:
    return f"{level:+d}" if level else "0"


def _rating(skill: Mapping[str, Any], attributes: Mapping[str, int]) -> str:
    found = Skill.model_validate(skill)
    return str(found.rating or skill_rating(found.ranks, int(attributes[found.attribute.value])))


def _eights(n: int) -> str:
    return "one automatic 8" if n == 1 else f"{n} automatic 8s"


def _also(text: object, form: str = " ({})") -> str:
    return form.format(text) if text else ""


def _created(e: Event) -> str:
    attrs = e["attributes"]
    values = ", ".join(f"{a.title()} {attrs[a]}" for a in ATTRIBUTES if a in attrs)
    skills = ", ".join(f"{k} {_rating(v, attrs)}" for k, v in e["skills"].items())
    edges = ", ".join(f"an Edge of {edge}" for edge in e.get("edges", []))
    return (f"{e['name']} joins{_also(e.get('tier'))}: {values}{_also(skills, '; {}')}"
            f"{_also(e['wyrd'], '; {} Wyrd')}{_also(edges, '; {}')}.")


def _step_up(e: Event) -> str:
    head = f"{e['character']}'s d100 for {e['trait']} ({e['level']}/{e['modifier']}): {e['d100']}, "
    if e["stepped"]:
        return head + f"at or over {e['modifier']}: level {e['effective']} for this feat."
    return head + f"under {e['modifier']}: level {e['level']}."


def _feat(e: Event) -> str:
    level = e["level"]
    minimums = ",".join(map(str, e["minimums"]))
    mode = "" if len(e["minimums"]) == 1 else f" ({e['needs']})"
    how = f"{e['trait']} at {e['effective']} against {e['difficulty']}; " if e.get("difficulty") is not None else ""
    off = f"clamped from {_signed(e['raw_level'])}; " if e["raw_level"] != level else ""
    read = f", read as {' '.join(map(str, e['read']))}" if e["bought"] else ""
    paid = f"; {_eights(len(e['bought']))} for {e['wyrd_spent']} Wyrd, {e['wyrd_after']} left" if e["bought"] else ""
    return (f"{e['character']} rolls {' '.join(map(str, e['dice']))}{read} at Feat level {_signed(level)} "
            f"({off}{how}needs {minimums}{mode}){paid}: {'success' if e['success'] else 'failure'}.")


def _odds(e: Event) -> str:
    who = e["character"]
    if e.get("opponent") and e.get("opposing"):
        extra = f" {e['extra']:+d}" if e.get("extra") else ""
        what = f"{e['trait']} {e['rating']} against {e['opponent']}'s {e['opposing']}{extra}"
    elif e.get("opponent"):
        level = _signed(e["level"])
        what = f"{e['trait']} {e['rating']} against {e['opponent']}'s {e['difficulty']} (Feat level {level})"
    elif e.get("difficulty") is not None:
        level = f" (Feat level {_signed(e['level'])})" if e.get("level") is not None else ""
        what = f"{e['trait']} {e['rating']} against Difficulty {e['difficulty']}{level}"
    else:
        what = f"Feat level {_signed(e['level'])}{_also(e['trait'], ', {}')}"
    step = (f"; a d100 of {e['rating'].split('/')[1]} or more steps it up, {chance(e['p_step_up'])}"
            if e.get("p_step_up") and "/" in e["rating"] else "")
    bought = f", buying up to {_eights(e['eights'])}" if e.get("eights") else ""
    return f"Odds for {who}, {what}{bought}: {chance(e['p_success'])}{step}."


def _initiative(e: Event) -> str:
    order, vigour = e["order"], e["vigour"]
    if e["rolled"]:
        return f"{order[0]} acts before {order[1]} (Vigour {vigour[order[0]]} against {vigour[order[1]]})."
    # a tie keeps the order the names were given in (Issue 18, point 6: the tie-break is shown)
    tied = "; ".join(" and ".join(group) + " (as named; `first` settles it)" for group in e.get("tied", []))
    if e.get("edges"):
        fast = ", ".join(f"{n} {vigour[n]}" for n in order if n in e["edges"])
        rest = ", ".join(f"{n} {vigour[n]}" for n in order if n not in e["edges"])
        return f"First by an Edge of speed: {fast}; then by Vigour: {rest}" + _also(tied, "; tied: {}") + "."
    return "In order of Vigour: " + ", ".join(f"{n} {vigour[n]}" for n in order) + _also(tied, "; tied: {}") + "."


def _moved(e: Event) -> str:
    def feet(text: str) -> str:
        return f"{float(Fraction(text)):g}"

    level = Fraction(e["gradient"].replace(":", "/")) == 0
    slope = " on the level" if level else f" going {e['going']} {e['gradient']}"
    text = f"{e['character']} {e['pace']}s{slope}: {feet(e['feet_per_round'])} ft a round"
    if e.get("feet") is not None:
        text += f"; {e['feet']} ft take {e['rounds']} rounds"
    elif e.get("covered") is not None:
        text += f"; {e['rounds']} rounds cover {feet(e['covered'])} ft"
    return text + "."


def _scene(e: Event) -> str:
    """The scene framed: title and place, its text, who is present, what stands in the way, the ways on."""
    place = f", {e['place']}" if e.get("place") else ""
    present = f" Present: {', '.join(e['present'])}." if e.get("present") else ""
    stakes = "; ".join(f"{s['name']} ({_also(s.get('ask'), '`{}`; ')}if lost: {s['lost'].rstrip('.')})"
                       for s in e.get("stakes", []))
    way = f" In the way: {stakes}." if stakes else ""
    rules = f" Standing rules: {', '.join(r['name'] for r in e['rules'])} (`rules`)." if e.get("rules") else ""
    staked = {s.get("ask") for s in e.get("stakes", [])}
    more = [a for a in e.get("asks", []) if a not in staked]  # a stake's own command is told with it
    asks = f" {'Also try' if staked else 'Try'}: {'; '.join(more)}." if more else ""
    if e.get("ways"):
        then = f" Ways on: {'; '.join(e['ways'])}."
    elif e.get("exits"):  # scenes saved before ways were told by title
        then = f" Then: scene {' or scene '.join(e['exits'])}."
    else:
        then = " Then: `scene` ends the story."
    return f"Scene {e['number']}, {e['title']}{place}. {e['text']}{present}{way}{rules}{asks}{then}"


def _stake(e: Event) -> str:
    opens = f" Open now: {', '.join(e['opens'])}." if e.get("opens") else ""
    return f"{e['name'][:1].upper()}{e['name'][1:]}: {'won' if e['won'] else 'lost'}. {e['text']}{opens}"


def _ended(e: Event) -> str:
    standing = ", ".join(e["standing"]) or "no one"
    return f"The story ends. {e['ending']} Standing: {standing}{_also(', '.join(e['fallen']), '; fallen: {}')}."


TEXTS: dict[str, Callable[[Event], str]] = {
    "character_created": _created,
    "step_up_rolled": _step_up,
    "feat_rolled": _feat,
    "odds_shown": _odds,
    "opposed_decided": lambda e: (
        f"{e['active']} ({e['trait']} {e['active_level']}) against {e['opponent']} ({e['opposing_trait']} "
        f"{e['opposing_level']}{_also(e['extra'], ' {:+d}')}): {e['winner']} wins."),
    "shock_tested": lambda e: (
        f"{e['character']} holds against the shock (Mettle against {e['difficulty']})." if e["success"] else
        f"The shock takes {e['character']} (Mettle against {e['difficulty']}): out of action until recovered."),
    "survival_tested": lambda e: (
        f"{e['character']} {'survives' if e['survived'] else 'does not survive'}{_also(e['cause'], ' {}')} "
        f"(Mettle against {e['difficulty']})."),
    "mettle_lost": lambda e: f"{e['character']} loses {e['n']} Mettle{_also(e['cause'])}; {e['mettle_after']} left.",
    "character_killed": lambda e: f"{e['character']} is dead ({e['cause']}).",
    "character_recovered": lambda e: f"{e['character']} can act again.",
    "search_made": lambda e: (
        f"{e['character']} searches for {e['target']} (hidden at {e['concealment']}{', again' if e['again'] else ''}): "
        f"{'found' if e['found'] else 'not found'}."),
    "reaction_tested": lambda e: (
        f"{e['character']} hopes for a welcome{_also(e['toward'], ' from {}')} (Difficulty {e['difficulty']}): "
        f"{'warmer' if e['favourable'] else 'colder'} than expected."),
    "initiative_decided": _initiative,
    "race_decided": lambda e: (
        f"{'A long race' if e['long'] else 'A race'}: {e['runner']} ({e['runner_score']}) against {e['rival']} "
        f"({e['rival_score']}): {e['winner']} wins."),
    "edge_activated": lambda e: (
        f"{e['character']} activates an Edge of {e['edge']}"
        + (", as does the other: the Edges cancel out." if e.get("cancelled") else " to act first.")),
    "fatigue_tested": lambda e: (
        f"{e['character']} {'pushes on' if e['success'] else 'is exhausted'}"
        f"{' under a heavy load' if e['encumbered'] else ''}{_also(e['cause'])} (Mettle against {e['difficulty']})"
        + ("." if e["success"] else ": no physical feat until rested.")),
    "rested": lambda e: f"{e['character']} rests, and can push on again.",
    "wyrd_awarded": lambda e: f"{e['character']} earns {e['n']} Wyrd{_also(e['reason'])}; {e['wyrd_after']} now.",
    "moved": _moved,
    "scene_started": _scene,
    "story_ended": _ended,
    "stake_decided": _stake,
    "story_chosen": lambda e: (
        f"{e['title']}. {e.get('premise', '')} In play: {', '.join(e['pregens'])}. Begin with: scene."),
}
"""Event kind -> its line, for every kind the ``feat`` game emits."""


def sheet_lines(char: Character) -> list[str]:
    """A character sheet in three lines: who, the attributes and Wyrd, the skills."""
    state = " (dead)" if char.dead else (" (out of action)" if char.out_of_action else "")
    state += " (exhausted)" if char.exhausted and not char.dead else ""
    lines = [f"{char.name}{_also(char.concept, ', {}')}{_also(char.tier.value if char.tier else '')}{state}"]
    values = "  ".join(f"{a.value.title()} {char.attributes[a]}" for a in Attribute)
    edges = "".join(f"  Edge of {e.value}" for e in char.edges)
    lines.append(f"  {values}  Wyrd {char.wyrd}{edges}")
    skills = [f"{k} {char.rating(k)} ({s.attribute.value}{_also(s.ranks, ', {} ranks')})"
              for k, s in char.skills.items()]
    lines.append("  " + ("; ".join(skills) if skills else "no skills trained"))
    return lines


def _won(key: str, yes: str, no: str) -> Callable[[dict[str, Any]], str]:
    """A line for a test whose ``key`` field says whether it went the character's way (words may name fields)."""
    return lambda e: f"{e['character']} " + (yes if e[key] else no).format(**e) + "."


# The feats that another test rolled (its reason says which): that test's own event is recalled instead.
_TOLD_ELSEWHERE = ("reaction", "search", "survival", "shock", "race", "first to act", "against", "fatigue")
# The story so far as a model is told it (PlayHooks.recall): what was reached, settled and suffered.
RECALL: dict[str, Callable[[dict[str, Any]], str]] = {
    "scene_started": lambda e: f"Scene: {e['title']}" + (f", at {e['place']}." if e.get("place") else "."),
    "feat_rolled": lambda e: "" if str(e.get("reason", "")).startswith(_TOLD_ELSEWHERE) else (
        f"{e['character']}'s {e['trait']} feat" + (f" ({e['reason']})" if e.get("reason") else "") + ": "
        + ("a success." if e["success"] else "a failure.")),
    "opposed_decided": lambda e: f"{e['winner']} won a contest of {e['trait']}.",
    "race_decided": lambda e: f"{e['winner']} won a race.",
    "search_made": _won("found", "found {target}", "did not find {target}"),
    "reaction_tested": _won("favourable", "won over {toward}", "did not win over {toward}"),
    "shock_tested": _won("success", "held against the shock", "fell to the shock"),
    "survival_tested": _won("survived", "survived", "did not survive"),
    "mettle_lost": lambda e: f"{e['character']} was hurt.",
    "character_killed": lambda e: f"{e['character']} died.",
    "character_recovered": lambda e: f"{e['character']} recovered.",
}
