"""The ``--ruleset`` option, its choices and default asked of the registry.

Every subcommand that plays or reads a ruleset takes ``--ruleset ID`` through
:func:`add_ruleset_option`: the choices are the rulesets installed (the bundled
four and any other package's), the default is the registry's
(:func:`~wyrd.rulesets.default_ruleset`), so no subcommand keeps its own list.
"""

from __future__ import annotations

import argparse

from wyrd.rulesets import UnknownRuleset, default_ruleset, find_ruleset, rulesets

__all__ = ["add_ruleset_option", "ruleset_ids", "ruleset_name"]


def ruleset_name(ident: str) -> str:
    """A ruleset's display name, or its id as given when no installed ruleset has it."""
    try:
        return find_ruleset(ident).name
    except UnknownRuleset:
        return ident


def ruleset_ids() -> list[str]:
    """The id of every ruleset installed, in the registry's order."""
    return [r.id for r in rulesets()]


def add_ruleset_option(
    parser: argparse.ArgumentParser, purpose: str = "the rules to play by", *, defaulted: bool = True
) -> None:
    """Add ``--ruleset ID`` to ``parser``, one of the rulesets installed.

    Args:
        parser: The subcommand's parser.
        purpose: What the option chooses, the start of its help.
        defaulted: Whether an absent ``--ruleset`` means the registry's default ruleset (its id
            is then the parsed value); if False it is None, for a subcommand that finds the
            ruleset elsewhere first (a story's own ``ruleset:``) and falls back to
            :func:`~wyrd.rulesets.default_ruleset` itself.
    """
    default = default_ruleset()
    # argparse reads % in help as a format: an installed ruleset's name may hold one.
    names = ", ".join(f"{r.id} ({r.name})" for r in rulesets()).replace("%", "%%")
    parser.add_argument("--ruleset", default=default.id if defaulted else None, choices=ruleset_ids(),
                        metavar="ID", help=f"{purpose}: {names}; default {default.id}")
