"""Narrators: settled facts in, a line or two of prose out.

:mod:`wyrd.oracle.narrators.base` holds the interface every narrator shares (the
request of settled facts, the narration, the :class:`~wyrd.oracle.narrators.base.Narrator`
base class); :mod:`wyrd.oracle.narrators.telling` is what each ruleset's kit hands the
narration (the moments worth telling, grouped from a command's events by the kit);
:mod:`wyrd.oracle.narrators.table` is the offline narrator that tells them from random
tables; :mod:`wyrd.oracle.narrators.llm` the LLM narrator, behind the firewall
(:mod:`wyrd.oracle.narrators.firewall`), the only module that imports langchain, lazily,
with :mod:`wyrd.oracle.narrators.llm_config` choosing and building the model.
"""

__all__ = ["DEFAULT_MAX_CHARS"]

# The most a language model's telling of one moment may run to (the firewall cuts the rest);
# here, not in the firewall nor in the base, so configuring a narrator imports neither.
DEFAULT_MAX_CHARS = 500
