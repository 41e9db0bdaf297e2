"""The bottom bar fits 80 columns with four characters, in every ruleset (issue 18, point 10).

"the bottom bar cut off with three or four characters (at 80 columns it shows none)": each
kit abbreviates (first names, compact figures) and the REPL lays the bar's items out over as
many lines as the width needs, so every line is at most 80 columns and names everyone.
"""

from __future__ import annotations

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text

from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.terminal.toolbar import toolbar_text
from wyrd.rulesets import rulesets

NAMES = ["Bartholomew Ashcombe", "Philippa Greenhalgh", "Maximilian Thorne", "Gwendolyn Harrowgate"]
FIRST = [n.split()[0] for n in NAMES]

WOLDEN_GIFTS = {"lantern-wardens": "roadwise,night-eyes", "brine-choir": "carrying-voice,salt-blessing"}

# Four characters with long-ish names, and something under way that the bar shows too.
TABLES: dict[str, list[str]] = {
    "abacus": [*(f'pc add "{n}" body=5 mind=5 soul=5' for n in NAMES), "scene",
               'challenge add "The Long Drowned Stair" obstruction 5', "attempt drowned by Bartholomew",
               "spend Bartholomew 2"],
    "wolden": [*(f'pc add "{n}" {cult} might=3 agility=2 mind=1 graces=0 gifts={WOLDEN_GIFTS[cult]}'
                 for n, cult in zip(NAMES, ["lantern-wardens", "lantern-wardens", "brine-choir", "brine-choir"],
                                    strict=True)),
               'fight wolf:2 wolf:2 "bog hag":3'],
    "feat": [f'pc add "{n}" vigour=5 mettle=5 wit=5 glamour=5 spirit=5 skill=climbing:vigour:3 '
             "skill=lore:wit:3 skill=rowing:vigour:3 skill=knots:wit:1" for n in NAMES],
    "lots": [*(f'pc add "{n}" prowess=5 willpower=4 survival=3 portents=3' for n in NAMES), "fight",
             "check Bartholomew prowess vs 5 roll 2 3"],
}


def table_of(ruleset: str) -> Console:
    console = Console(Session.new(None, seed=1, ruleset=ruleset))
    for line in TABLES[ruleset]:
        refused = [shown.text for shown in console.handle(line).lines if shown.style == "refused"]
        assert not refused, (line, refused)
    return console


def test_every_ruleset_has_a_table_of_four_here() -> None:
    assert set(TABLES) == {r.id for r in rulesets()}


@pytest.mark.parametrize("ruleset", sorted(TABLES))
@pytest.mark.parametrize("width", [80, 60])
def test_the_bar_fits_the_width_and_names_every_character(ruleset: str, width: int) -> None:
    console = table_of(ruleset)
    try:
        lines = fragment_list_to_text(toolbar_text(console.session.kit, console.session.state, width)).split("\n")
        assert all(len(line) <= width for line in lines), lines
        for name in FIRST:
            assert sum(name in line for line in lines) >= 1, (name, lines)
        assert width < 80 or len(lines) <= 4, lines  # the table on at most three, an odds line below
    finally:
        console.session.close()


@pytest.mark.parametrize("ruleset", sorted(TABLES))
def test_a_wide_terminal_keeps_the_table_on_fewer_lines(ruleset: str) -> None:
    console = table_of(ruleset)
    try:
        state, kit = console.session.state, console.session.kit
        narrow = fragment_list_to_text(toolbar_text(kit, state, 80)).split("\n")
        wide = fragment_list_to_text(toolbar_text(kit, state, 200)).split("\n")
        assert len(wide) <= len(narrow)
        assert all(len(line) <= 200 for line in wide)
    finally:
        console.session.close()


def test_an_item_wider_than_the_bar_is_cut_short() -> None:
    console = table_of("abacus")
    try:
        lines = fragment_list_to_text(toolbar_text(console.session.kit, console.session.state, 80)).split("\n")
        odds = lines[-1]
        assert odds.startswith(" Odds against The Long Drowned Stair") and odds.endswith("…") and len(odds) == 80
    finally:
        console.session.close()
