"""Content folders may hold anything: only regular files are read, each bounded before parsing (Issue 16, point 6).

Each hostile folder (a FIFO named ``f.yaml``, a link to ``/dev/zero``, a symlink loop, a link
to ``/``, a 200 MB file) is read by a child process with a generous time limit and a bound on
its memory, so a regression fails here instead of hanging the suite or filling the machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from wyrd.stories import files
from wyrd.stories.files import FileRefused, list_yaml, read_bytes, regular_file
from wyrd.stories.loader import read_yaml
from wyrd.stories.problems import StoryError

STORY = "id: mine\ntitle: Mine\npremise: A story of my own.\nscenes:\n  - title: One\n"

# A child with at most 1 GiB of address space and 60 s: far beyond what reading these folders
# safely takes, far below what the old reads took (16 GB for /dev/zero, minutes for a link to /).
CHILD = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from wyrd.play.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def wyrd_bounded(*argv: str, home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WYRD_HOME": str(home)}
    return subprocess.run([sys.executable, "-c", CHILD, *argv], input=stdin, capture_output=True, text=True,
                          timeout=60, env=env, check=False)


def hostile(folder: Path) -> Path:
    """A story folder holding one good story and every shape that used to hang or fill memory."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mine.yaml").write_text(STORY)
    os.mkfifo(folder / "f.yaml")
    (folder / "z.yaml").symlink_to("/dev/zero")
    (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
    (folder / "root").symlink_to("/")
    (folder / "a").mkdir()
    (folder / "a" / "up").symlink_to(folder)  # a loop through a folder
    with (folder / "big.yaml").open("wb") as f:  # 200 MB, sparse: costs no disk
        f.truncate(200 * 1024 * 1024)
    return folder


# -- the module -------------------------------------------------------------------------------


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    """Issue 16, point 6: a FIFO named f.yaml is opened without blocking and refused."""
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match="not a regular file"):
        read_bytes(fifo)  # no writer: a blocking open would wait forever
    assert regular_file(fifo) == "is not a regular file"


def test_a_device_is_refused_unread(tmp_path: Path) -> None:
    """Issue 16, point 6: z.yaml -> /dev/zero is refused, not read to the end of memory."""
    link = tmp_path / "z.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(FileRefused, match="not a regular file"):
        read_bytes(link)
    assert list_yaml(tmp_path).files == []


def test_a_large_file_is_refused_having_read_at_most_the_limit(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, point 6: a 200 MB table is refused before it is read whole (by its size, or after limit + 1)."""
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(200 * 1024 * 1024)
    read: list[int] = []
    real_read = os.read

    def counting(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(files.os, "read", counting)
    with pytest.raises(FileRefused, match="limit"):
        read_bytes(big, 1000)
    assert sum(read) <= 1001
    # A file that says it is small but is longer (it grew, or lies) is cut off at limit + 1 too.
    small = tmp_path / "small.yaml"
    small.write_bytes(b"x" * 5000)
    monkeypatch.setattr(files.os, "fstat", lambda fd: os.stat_result((0o100644, 0, 0, 1, 0, 0, 10, 0, 0, 0)))
    read.clear()
    with pytest.raises(FileRefused, match="limit"):
        read_bytes(small, 1000)
    assert sum(read) == 1001


def test_a_file_within_the_limit_reads_whole(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_bytes(b"a" * 1000)
    assert read_bytes(path, 1000) == b"a" * 1000


def test_listing_refuses_links_out_loops_and_special_files_and_keeps_links_inside(tmp_path: Path) -> None:
    """Issue 16, point 6: symlinks that leave the folder or loop are refused; one inside is read."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("secret: 1\n")
    folder = hostile(tmp_path / "stories")
    (folder / "out.yaml").symlink_to(outside)
    (folder / "inside.yaml").symlink_to(folder / "mine.yaml")
    (folder / "sub").mkdir()
    (folder / "sub" / "deep.yaml").write_text(STORY)

    listing = list_yaml(folder, depth=8)

    assert listing.files == [folder / n for n in ("big.yaml", "inside.yaml", "mine.yaml", "sub/deep.yaml")]
    refused = dict(listing.refused)
    assert refused[folder / "out.yaml"] == "is a symlink that leaves its folder"
    assert refused[folder / "loop.yaml"] == "is a symlink that loops or leads nowhere"
    assert refused[folder / "f.yaml"] == "is not a regular file"
    assert refused[folder / "z.yaml"] == "is a symlink that leaves its folder"
    assert folder / "big.yaml" not in refused  # a regular file: refused when read, by its size
    walked = {p.relative_to(folder).parts[0] for p, _ in listing.refused} | {p.relative_to(folder).parts[0]
                                                                           for p in listing.files}
    assert not walked & {"root", "a"}  # a link to / and a loop through a folder are never walked


def test_listing_stops_past_its_cap_on_entries(tmp_path: Path) -> None:
    """Issue 16, point 6: a folder of very many entries is not walked to its end."""
    for i in range(30):
        (tmp_path / f"{i:02}.yaml").write_text("a: 1\n")
    listing = list_yaml(tmp_path, max_entries=10)
    assert len(listing.files) <= 10
    assert any("more than 10 entries" in why for _, why in listing.refused)


def test_a_folder_on_the_way_that_is_a_link_out_counts_as_leaving(tmp_path: Path) -> None:
    """Issue 16, point 6: ID/story.yaml through a linked folder ID -> elsewhere is outside the story folder."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "story.yaml").write_text(STORY)
    folder = tmp_path / "stories"
    folder.mkdir()
    (folder / "mine").symlink_to(elsewhere)
    assert regular_file(folder / "mine" / "story.yaml", folder) == "is a symlink that leaves its folder"


# -- the readers that use it ------------------------------------------------------------------


def test_read_yaml_refuses_a_fifo_and_a_device(tmp_path: Path) -> None:
    """Issue 16, point 6: the story reader opens only regular files."""
    os.mkfifo(tmp_path / "f.yaml")
    (tmp_path / "z.yaml").symlink_to("/dev/zero")
    for name in ("f.yaml", "z.yaml"):
        with pytest.raises(StoryError, match="not a regular file"):
            read_yaml(tmp_path / name)


@pytest.mark.parametrize("argv", [["stories"], ["play", "--script", "-", "--ruleset", "abacus", "--story", "none"]])
def test_a_hostile_content_folder_is_listed_quickly_in_bounded_memory(tmp_path: Path, argv: list[str]) -> None:
    """Issue 16, point 6: `--content DIR` (stories) and its tables/ with a FIFO, /dev/zero, loops, a link
    to / and a 200 MB file: the command ends, within 1 GiB, and the good story is still found."""
    folder = hostile(tmp_path / "content")
    hostile(folder / "tables")
    for sub in ("feat", "wolden", "lots"):
        hostile(folder / sub)
    done = wyrd_bounded(*argv, "--content", str(folder), home=tmp_path / "home",
                        stdin="status\nquit\n")
    if argv == ["stories"]:
        assert done.returncode == 0, done.stderr
        assert any(line.startswith("mine:") for line in done.stdout.splitlines())  # the good file is still listed
    else:  # the big table file is refused by name and size; nothing hangs
        assert "big.yaml" in done.stdout + done.stderr
        assert "Traceback" not in done.stderr


def test_the_data_folders_tables_are_read_the_same_way(tmp_path: Path) -> None:
    """Issue 16, point 6: the data folder's tables/ is a content folder like any other."""
    home = tmp_path / "home"
    hostile(home / "tables")
    (home / "tables" / "big.yaml").unlink()
    done = wyrd_bounded("play", "--script", "-", "--ruleset", "abacus", "--story", "none", home=home,
                        stdin="quit\n")
    assert "Traceback" not in done.stderr
    assert "f.yaml" in done.stdout + done.stderr  # refused by name, not waited on


def test_scenario_loaders_refuse_special_files(tmp_path: Path) -> None:
    """Issue 16, point 6: the feat, wolden and lots loaders read through the same guard."""
    from wyrd.stories.feat.loader import FeatStoryError, load_feat_story
    from wyrd.stories.lots.scenario import ScenarioError as LotsError
    from wyrd.stories.lots.scenario import load_scenario

    os.mkfifo(tmp_path / "f.yaml")
    with pytest.raises(FeatStoryError, match="not a regular file"):
        load_feat_story(tmp_path / "f.yaml")
    with pytest.raises(LotsError, match="not a regular file"):
        load_scenario(tmp_path / "f.yaml")
    script = textwrap.dedent(f"""
        from pathlib import Path
        from wyrd.stories.wolden.format import FORMAT
        print(FORMAT.lint(Path({str(tmp_path / 'f.yaml')!r})))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert "not a regular file" in done.stdout, done.stderr
