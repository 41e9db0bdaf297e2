"""The Wyrd Abacus story format: the schema of a story file, its scene flow, loader, linter and format.

:mod:`~wyrd.stories.abacus.schema` (the pydantic models), :mod:`~wyrd.stories.abacus.exits`
(where a scene leads), :mod:`~wyrd.stories.abacus.flow` (how play follows a story),
:mod:`~wyrd.stories.abacus.loader`, :mod:`~wyrd.stories.abacus.lint`, and
:mod:`~wyrd.stories.abacus.format`, the ruleset's :class:`~wyrd.stories.formats.StoryFormat`.
"""
