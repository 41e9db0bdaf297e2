"""Stories and their formats: one story format per ruleset, behind one protocol.

:mod:`wyrd.stories.formats` is the protocol (:class:`~wyrd.stories.formats.StoryFormat`) and
finds each ruleset's format through the registry; each format lives in a package named for
its ruleset. :mod:`wyrd.stories.loader` reads YAML with the line of every field,
:mod:`wyrd.stories.problems` is what a check finds, :mod:`wyrd.stories.yamlguard` the limits
on untrusted YAML; the bundled stories are in ``content/``.
"""

from pathlib import Path

__all__ = ["BUNDLED"]

# Where the bundled stories are: known without importing any format (the first prompt needs only this).
BUNDLED = Path(__file__).resolve().parent / "content"
