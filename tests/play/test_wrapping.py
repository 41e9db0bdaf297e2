"""Lines fitted to the terminal: broken between words, a command or a path never split.

The REPL (and a seat at a shared table) prints what happened through ``fitted``: at a terminal
40 columns wide a scene's description breaks between words, with each list item's indent kept,
where the terminal alone would cut a word in two. Checked on the screen pyte draws from the
bytes the real ``show_lines`` wrote, and as invariants over any text (hypothesis).
"""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.data_structures import Size
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.plain_text import PlainTextOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from wyrd.play.frontends.console import farewell
from wyrd.play.frontends.terminal import repl
from wyrd.play.frontends.terminal.wrapping import _WORDS as WORDS
from wyrd.play.frontends.terminal.wrapping import NARROWEST, cells, columns_of, fitted, stream_columns, usable
from wyrd.play.frontends.view import Line

SCENE = ("The First Night of the Fair, at Coldharrow Green. The crowning is over, the dais is empty, "
         "and Tamsin Vell has not been seen for an hour.")
COST = "  A Rigged Game (wits 4): to fail: the lead loses 2 Mind and a Wyrd roll for the lead."


def test_a_line_breaks_between_words_within_the_width() -> None:
    rows = fitted(SCENE, 40).split("\n")
    assert all(len(row) <= 40 for row in rows)
    assert " ".join(rows) == SCENE  # nothing lost, no word cut
    assert rows[0] == "The First Night of the Fair, at"


def test_the_rows_after_the_first_keep_the_lines_indent() -> None:
    rows = fitted(COST, 30).split("\n")
    assert rows[0].startswith("  A Rigged Game") and all(row.startswith("  ") for row in rows)
    assert all(len(row) <= 30 for row in rows)
    assert " ".join(row.strip() for row in rows) == COST.strip()


def test_an_item_of_a_list_goes_on_under_its_first_word() -> None:
    item = "  - a check, Survival vs 5: find the firm stones before the light goes"
    assert fitted(item, 40).split("\n") == ["  - a check, Survival vs 5: find the",
                                             "    firm stones before the light goes"]


def test_a_line_that_fits_and_output_without_a_width_are_left_as_they_are() -> None:
    assert fitted("  two  spaces kept", 40) == "  two  spaces kept"
    assert fitted(SCENE, None) == SCENE
    assert fitted("short\n" + SCENE, 40).split("\n")[0] == "short"  # each of its own lines fitted apart


def test_a_command_in_backticks_and_a_long_path_are_never_split() -> None:
    """A terminal copies its own wrap as one line, ours as two: what a player copies stays whole."""
    path = "/home/someone/.local/share/wyrd/saves/20261202-142246-136377783.wyrd"
    rows = fitted(farewell(Path(path)).text, 50).split("\n")
    assert rows == ["Everything is saved in", path + ".", "Resume with:", f"`wyrd resume {path}`"]
    assert fitted("see `pc take all` first", 12).split("\n") == ["see", "`pc take all`", "first"]


def test_wide_characters_count_as_two_columns() -> None:
    rows = fitted("漢字漢字 漢字漢字 漢字", 10).split("\n")
    assert rows == ["漢字漢字", "漢字漢字", "漢字"]


def test_the_width_is_the_terminals_but_one_and_none_off_a_terminal() -> None:
    terminal = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=72), term="xterm")
    assert columns_of(terminal) == 71  # a full row would leave the terminal's own wrap pending
    assert columns_of(DummyOutput()) is None and columns_of(PlainTextOutput(io.StringIO())) is None
    assert usable(3) == NARROWEST
    assert stream_columns(io.StringIO()) is None  # the host's invitation, printed to a file: as it is


def test_wide_and_combining_characters_take_the_columns_a_terminal_gives_them() -> None:
    from prompt_toolkit.utils import get_cwidth

    for text in ("abc", "漢字", "e\u0301", "\uff26\uff55\uff4c\uff4c", "naïve café"):
        assert cells(text) == sum(get_cwidth(c) for c in text)  # as prompt-toolkit (and the prose) count them


def _tokens(text: str) -> list[str]:
    return WORDS.findall(text)


@given(st.text(alphabet=st.sampled_from("ab cd`é漢 -"), max_size=120), st.integers(min_value=NARROWEST, max_value=60))
def test_fitting_loses_no_word_and_keeps_rows_within_the_width(text: str, width: int) -> None:
    """Any line: the same words (and backticked runs) in the same order; a row over the width holds
    one of them alone; the rows after the first start with the line's indent."""
    out = fitted(text, width)
    if cells(text) <= width:
        assert out == text
        return
    rows = out.split("\n")
    assert [word for row in rows for word in _tokens(row)] == _tokens(text)
    for row in rows:
        assert cells(row) <= width or len(_tokens(row)) == 1
    lead = text[: len(text) - len(text.lstrip(" "))]
    hanging = lead + ("  " if text[len(lead):len(lead) + 2] in ("- ", "* ", "• ") else "")
    indent = hanging if len(hanging) * 2 <= width else ""
    assert rows[0].startswith(lead) and all(row.startswith(indent) for row in rows[1:])


def test_show_lines_fits_what_happened_to_the_terminal_on_screen() -> None:
    """The real show_lines at 40 columns: the scene's text reads whole words on every row."""
    import pyte

    stream = io.StringIO()
    terminal = Vt100_Output(stream, lambda: Size(rows=50, columns=40), term="xterm", enable_cpr=False)
    repl.show_lines([Line(text=SCENE, style="info"), Line(text=COST, style="hint")], terminal)
    screen = pyte.Screen(40, 50)
    pyte.Stream(screen).feed(stream.getvalue().replace("\n", "\r\n"))
    rows = [row.rstrip() for row in screen.display if row.strip()]
    words = set(SCENE.split()) | set(COST.split())
    assert all(word in words for row in rows for word in row.split())  # no word cut in two
    assert rows[0] == "The First Night of the Fair, at"
    cost = rows[rows.index("  A Rigged Game (wits 4): to fail: the"):]
    assert len(cost) > 1 and all(row.startswith("  ") and len(row) <= 39 for row in cost)
