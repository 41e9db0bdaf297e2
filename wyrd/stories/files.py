"""Reading content files from a player's folders: only regular files, each read bounded before it is parsed.

Story folders (``--content DIR``), the data folder's ``tables/`` and the files named on
the command line may hold anything: a FIFO named ``f.yaml`` (opening it would wait
forever), a link to ``/dev/zero`` (reading it never ends), symlink loops and links to
``/`` (walking them never ends), a 200 MB file. So:

- :func:`read_bytes` opens without blocking (``O_NONBLOCK``: a FIFO opens at once), checks
  the open file is a regular one (``fstat`` of the descriptor, so what is checked is what
  is read), and reads at most the limit and one byte more: a bigger file is refused having
  read no more than that.
- :func:`list_yaml` lists a folder's ``*.yaml``/``*.yml`` files (and, with ``depth``, its
  sub-folders'), never descending into a symlinked folder nor anything but a folder, and
  refusing a symlink that leaves the folder, loops or leads to anything but a regular
  file; it gives up past :data:`MAX_ENTRIES` entries. What it refuses comes back with
  the reason, for ``wyrd check`` to say.

It lives in ``stories`` (below ``oracle``), so the story loaders and the table loader read
the same way. Bundled package content is read as before: it is not a player's.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import NamedTuple

from wyrd.stories.yamlguard import MAX_BYTES

__all__ = [
    "MAX_DEPTH",
    "MAX_ENTRIES",
    "YAML_SUFFIXES",
    "FileRefused",
    "Listing",
    "list_yaml",
    "read_bytes",
    "read_text",
    "regular_file",
    "subfolders",
    "yaml_files",
]

#: at most this many entries are looked at in one listing (a folder and its sub-folders)
MAX_ENTRIES = 10_000
#: sub-folders deeper than this are not searched
MAX_DEPTH = 16
YAML_SUFFIXES = (".yaml", ".yml")


class FileRefused(OSError):
    """A file that is not read: ``reason`` says why in words (``is not a regular file``, ``is larger than ...``)."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(errno.EINVAL, reason, str(path))
        self.path = str(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path} {self.reason}"


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> bytes:
    """The bytes of the regular file ``path``: at most ``limit``, else :class:`FileRefused`.

    Raises:
        FileRefused: not a regular file (a FIFO, a device, a folder), or larger than ``limit``.
        OSError: it cannot be opened or read (missing, no permission).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(path, "is not a regular file")
        if info.st_size > limit:
            raise FileRefused(path, f"is {info.st_size:,} bytes; the limit is {limit:,} bytes")
        chunks: list[bytes] = []
        left = limit + 1  # one more than the limit: a file that grew after fstat is still caught
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FileRefused(path, f"is more than {limit:,} bytes, the limit")
    return data


def read_text(path: str | os.PathLike[str], limit: int = MAX_BYTES) -> str:
    """:func:`read_bytes` as UTF-8 text (a BOM dropped); UnicodeDecodeError if it is not UTF-8."""
    return read_bytes(path, limit).decode("utf-8-sig")


def _inside(target: Path, root: Path) -> bool:
    return target == root or root in target.parents


def regular_file(path: Path, root: Path | None = None) -> str | None:
    """Why ``path`` is not a content file to read (None: it is a regular file, inside ``root`` if given).

    A symlink is followed only as far as checking where it leads: it must resolve (no loop),
    stay inside ``root`` and reach a regular file.
    """
    try:
        mode = path.lstat().st_mode
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if stat.S_ISLNK(mode) or root is not None:
        # Resolved even when the last step is no symlink: a folder on the way may be one.
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):  # RuntimeError: a loop, before Python 3.13
            return "is a symlink that loops or leads nowhere"
        if root is not None and not _inside(target, root.resolve()):
            return "is a symlink that leaves its folder"
        try:
            mode = target.stat().st_mode
        except OSError as exc:
            return f"cannot be read: {exc.strerror or exc}"
    if not stat.S_ISREG(mode):
        return "is not a regular file"
    return None


class Listing(NamedTuple):
    """What :func:`list_yaml` found: the files to read, and what it would not read with why."""

    files: list[Path]
    refused: list[tuple[Path, str]]


def list_yaml(folder: str | os.PathLike[str], *, depth: int = 0, max_entries: int = MAX_ENTRIES) -> Listing:
    """The YAML files in ``folder`` and in its sub-folders ``depth`` levels down (sorted), and those refused.

    Sub-folders are real folders only (a symlink to a folder is never entered, so no loop and no
    link to ``/`` is walked); a file may be a symlink that stays inside ``folder``. Past
    ``max_entries`` entries looked at, the listing stops with one refusal saying so.
    """
    root = Path(folder)
    files: list[Path] = []
    refused: list[tuple[Path, str]] = []
    seen = 0
    todo: list[tuple[Path, int]] = [(root, 0)]
    while todo:
        here, level = todo.pop()
        try:
            with os.scandir(here) as entries:
                names = []
                for entry in entries:
                    seen += 1
                    if seen > max_entries:
                        refused.append((here, f"has more than {max_entries:,} entries; the rest is not read"))
                        return Listing(sorted(files), refused)
                    names.append(entry)
        except OSError:
            continue
        for entry in names:
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if level < min(depth, MAX_DEPTH):
                    todo.append((path, level + 1))
                continue
            if not entry.name.endswith(YAML_SUFFIXES):
                continue
            why = regular_file(path, root)
            if why is None:
                files.append(path)
            else:
                refused.append((path, why))
    return Listing(sorted(files), sorted(refused))


def yaml_files(folder: str | os.PathLike[str], *, depth: int = 0) -> list[Path]:
    """Only the files :func:`list_yaml` would read (what it refuses is left out in silence)."""
    return list_yaml(folder, depth=depth).files


def subfolders(folder: str | os.PathLike[str], *, max_entries: int = MAX_ENTRIES) -> list[Path]:
    """The real sub-folders of ``folder`` (no symlinks), sorted; at most ``max_entries`` entries looked at."""
    found: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            for seen, entry in enumerate(entries):
                if seen >= max_entries:
                    break
                try:
                    if entry.is_dir(follow_symlinks=False):
                        found.append(Path(entry.path))
                except OSError:
                    continue
    except OSError:
        return []
    return sorted(found)
