"""Prompt templates for the LLM narrator, one YAML file per kind of moment, and their loader.

Read by :mod:`wyrd.oracle.narrators.llm` only. Importing this package never imports
langchain: :func:`~wyrd.prompts.loader.chat_prompt` does, when it is called.
"""

from wyrd.prompts.loader import (
    GENERIC,
    PLACEHOLDERS,
    PROMPTS_DIR,
    PromptError,
    PromptSet,
    PromptSpec,
    chat_prompt,
    load_prompts,
    prompt_set,
    render,
    ruleset_prompt_folders,
)

__all__ = [
    "GENERIC",
    "PLACEHOLDERS",
    "PROMPTS_DIR",
    "PromptError",
    "PromptSet",
    "PromptSpec",
    "chat_prompt",
    "load_prompts",
    "prompt_set",
    "render",
    "ruleset_prompt_folders",
]
