"""Narrators: settled facts in, a line or two of prose out.

:mod:`wyrd.oracle.narrators.base` holds the interface every narrator shares (the
request of settled facts, the narration, the :class:`~wyrd.oracle.narrators.base.Narrator`
base class); :mod:`wyrd.oracle.narrators.moments` groups a command's events into the
moments worth telling; :mod:`wyrd.oracle.narrators.table` is the offline narrator that
tells them from random tables. A future LLM narrator implements the same
interface (and is the only module that may import langchain, lazily).
"""

__all__: list[str] = []
