"""What reading a content file yields, kept on disk between starts under a digest of what it depends on.

Reading and checking content files (a story's YAML, the bundled tables) is most of what a start does
that does not change between starts. Once a file has been read and has passed every check, the
result may be written to a folder the program names (the ``wyrd`` command: ``cache`` in the player's
data folder, :func:`keep_in`) and read back next time in place of the work. The caller chooses the
name of what it keeps, and puts into that name a digest of everything the result depends on: the
file's bytes and the code that reads them (:func:`code_digest`, or :func:`file_stamps` where reading
the code would cost more than the work it saves). A changed file, an upgrade or an
edit to the reading code gives another name, so the work is done again and every problem is reported
as it always is; only a result that passed is written.

What is written carries the digest of its own text: a kept result cut short or changed without its
digest is not given back. It sits in the player's own folder, beside their own files, and is read
through the same models or checks as the file it stands for, or (a validated story,
:mod:`wyrd.stories.modelkept`) by a reader that makes only the story's own models; it is not a guard
against someone who rewrites it with a digest to match.

This module imports only the standard library, and what it needs to read and write only when it
does (hashing, temporary files): every ``wyrd`` command names the folder, ``wyrd --version`` too.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

__all__ = ["code_digest", "file_stamps", "keep", "keep_in", "kept", "kept_in"]

_folder: Callable[[], Path] | None = None


def keep_in(folder: Callable[[], Path] | None) -> None:
    """Keep results in the folder ``folder()`` names when one is read or written (None: nowhere).

    A function, not a path, so that the folder is the one of the moment a file is read.
    """
    global _folder
    _folder = folder


def kept_in() -> Path | None:
    """The folder results are kept in now, or None."""
    return _folder() if _folder is not None else None


def code_digest(modules: Iterable[str], *versions: str) -> bytes:
    """A digest of the source of ``modules`` (imported or not) and of ``versions`` (the libraries' own).

    A module's source, not its bytecode: an installed package ships both, and an edit in place
    (a checkout installed for development) changes the source first.
    """
    import hashlib
    import importlib.util

    digest = hashlib.sha256()
    for name in modules:
        module = sys.modules.get(name)
        origin = getattr(module, "__file__", None) if module is not None else None
        if origin is None:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
        digest.update(name.encode() + b"\0")
        if origin is not None and os.path.isfile(origin):
            digest.update(Path(origin).read_bytes())
    for version in versions:
        digest.update(b"\0" + version.encode())
    return digest.digest()


def file_stamps(folder: str, suffixes: tuple[str, ...] | None = None) -> Iterator[str]:
    """A line for every file under ``folder`` (ending in one of ``suffixes``; None: every file), bytecode
    caches left out: its path under ``folder``, its modification time and its size.

    What tells one installed copy of some code from another without reading it: an edit, an upgrade
    or a file added or removed changes the lines. The order is the folder's; sort to compare.
    """
    cut = len(os.path.join(folder, ""))
    pending = [folder]
    while pending:
        try:
            with os.scandir(pending.pop()) as found:
                for entry in found:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            pending.append(entry.path)
                    elif suffixes is None or entry.name.endswith(suffixes):
                        stat = entry.stat()
                        yield f"{entry.path[cut:]}\0{stat.st_mtime_ns}\0{stat.st_size}"
        except OSError:
            continue


def kept(name: str) -> bytes | None:
    """What was written as ``name``, if it is there whole and unchanged; None otherwise."""
    import hashlib

    folder = kept_in()
    if folder is None:
        return None
    try:
        text = (folder / name).read_bytes()
    except OSError:
        return None
    check, _, body = text.partition(b"\n")
    if check.decode("ascii", "replace") != hashlib.sha256(body).hexdigest():
        return None
    return body


def keep(name: str, body: bytes, *, replacing: str | None = None, most: int = 1) -> None:
    """Write ``body`` as ``name``, and remove what else in the folder matches the glob ``replacing``
    (the results it replaces) but the ``most - 1`` newest of them. A folder that cannot be written
    is left as it is: the next start does the work again."""
    import hashlib
    import tempfile

    folder = kept_in()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".kept-", dir=folder)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body)
            os.replace(temporary, folder / name)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        if replacing is not None:
            others = [path for path in folder.glob(replacing) if path.name != name]
            others.sort(key=lambda path: path.stat().st_mtime_ns, reverse=True)
            for old in others[most - 1:]:
                old.unlink(missing_ok=True)
    except OSError:
        return
