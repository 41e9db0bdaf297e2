"""Which model narrates, and building it: the ``--model`` flag, the environment, the config file.

Each setting is taken from the first place that has it:

1. the command line (``--model``, and ``--base-url`` if the CLI offers it), passed in;
2. the environment: ``WYRD_MODEL``, ``WYRD_BASE_URL``, ``WYRD_API_KEY`` (a provider's own
   key variable, such as ``OPENAI_API_KEY``, is read by its langchain package itself);
3. the config file: ``WYRD_CONFIG`` if set, else ``$WYRD_HOME/config.toml`` if
   ``WYRD_HOME`` is set, else ``config.toml`` in the platform's config folder
   (platformdirs ``user_config_path("wyrd")``)::

       [narrator]
       model = "ollama:llama3.2"      # provider:model; or a bare name with base_url
       base_url = "http://127.0.0.1:8080/v1"
       first_token_timeout = 3.0     # seconds to the first words, else the tables tell it
       total_timeout = 20.0
       max_chars = 500
       token_budget = 200000         # for the whole session
       language = "en"               # replies in another language are refused

A model of ``table``, ``off`` or ``none`` means no LLM, whatever else says so.
A bare model name with a ``base_url`` is served by an OpenAI-compatible server
(llama.cpp, vLLM, LM Studio ...): it becomes ``openai:NAME``.

:func:`wyrd.oracle.narrators.llm.make_narrator` turns these settings into a narrator: None when no
model is configured, and langchain is imported only when one is (a game without an LLM never pays
its second of import). This module never imports the narrator, so the two import one way.
A missing provider package is a :class:`NarratorConfigError` that names the extra
to install (``pip install 'wyrd[openai]'``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wyrd.oracle.narrators import DEFAULT_MAX_CHARS
from wyrd.oracle.narrators.settings import NarratorConfigError, Settings, config_path, narrator_settings

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

__all__ = [
    "EXTRAS",
    "NarratorConfig",
    "NarratorConfigError",
    "build_chat_model",
    "config_from",
    "config_path",
    "install_hint",
    "load_config",
    "split_model",
]

# Providers with an extra of their own in pyproject.toml; others need wyrd[llm] plus their package.
EXTRAS = {"openai": "openai", "anthropic": "anthropic", "ollama": "ollama"}
# Provider keys init_chat_model knows (langchain 1.x), so "provider:model" is read without importing it.
PROVIDERS = frozenset({
    "anthropic", "azure_ai", "azure_openai", "baseten", "bedrock", "bedrock_converse", "cohere", "deepseek",
    "fireworks", "google_anthropic_vertex", "google_genai", "google_vertexai", "groq", "huggingface", "ibm",
    "litellm", "meta", "mistralai", "nvidia", "ollama", "openai", "openrouter", "perplexity", "together",
    "upstage", "xai",
})
_INFER = (("gpt-", "openai"), ("o1", "openai"), ("o3", "openai"), ("chatgpt", "openai"), ("claude", "anthropic"))


class NarratorConfig(BaseModel):
    """The LLM narrator's settings; ``model`` None means the table narrator alone."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = None
    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    temperature: float = Field(default=0.7, ge=0, le=2)
    first_token_timeout: float = Field(default=3.0, gt=0)
    total_timeout: float = Field(default=20.0, gt=0)
    max_chars: int = Field(default=DEFAULT_MAX_CHARS, ge=40)
    max_tokens: int | None = Field(default=None, gt=0)  # per reply; default from max_chars
    token_budget: int | None = Field(default=None, gt=0)  # for the session
    # the table's language: a reply in another is refused (a story that names its own language wins)
    language: str = Field(default="en", pattern=r"^[a-z]{2,3}$")
    readings: bool = True  # a model's reading of each answer, twist and inspiration (`narrator readings`)
    origin: str = ""  # where the model setting came from, for `status`


def split_model(model: str, base_url: str | None = None) -> tuple[str, str]:
    """``(provider, "provider:model")`` for a model setting.

    Raises:
        NarratorConfigError: the provider can't be told from the name.
    """
    head, sep, _ = model.partition(":")
    if sep and head in PROVIDERS:
        return head, model
    if base_url:
        return "openai", f"openai:{model}"
    for prefix, provider in _INFER:
        if model.lower().startswith(prefix):
            return provider, f"{provider}:{model}"
    raise NarratorConfigError(
        f"Which provider serves {model!r}? Write provider:model (openai:gpt-4o-mini, anthropic:claude-3-5-haiku-latest,"
        f" ollama:llama3.2), or give a base_url for an OpenAI-compatible server.")


def install_hint(provider: str, message: str = "") -> str:
    """The pip command that brings ``provider``'s langchain package."""
    if provider in EXTRAS:
        return f"pip install 'wyrd[{EXTRAS[provider]}]'"
    found = re.search(r"requires the (\S+) package", message)
    package = found.group(1) if found else "langchain-" + provider.replace("_", "-")
    return f"pip install 'wyrd[llm]' {package}"


def config_from(settings: Settings) -> NarratorConfig:
    """The settings checked.

    Raises:
        NarratorConfigError: an unknown setting or a bad value (names the file).
    """
    if not settings.given:
        # Nothing set, or only the model switched off: the defaults, valid as written, need no
        # validator built (the table narrator's case).
        return NarratorConfig.model_construct(**settings.values)
    try:
        return NarratorConfig.model_validate(settings.values)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise NarratorConfigError(f"narrator settings ({settings.path} and the environment): {problems}") from exc


def load_config(model: str | None = None, *, base_url: str | None = None, environ: Mapping[str, str] | None = None,
                path: Path | None = None) -> NarratorConfig:
    """The narrator settings from the command line (``model``, ``base_url``), the environment and the file.

    Raises:
        NarratorConfigError: an unreadable file, an unknown setting or a bad value (names the file).
    """
    return config_from(narrator_settings(model, base_url=base_url, environ=environ, path=path))


def _model_kwargs(provider: str, config: NarratorConfig) -> dict[str, Any]:
    max_tokens = config.max_tokens or max(48, config.max_chars // 3)  # about 3 characters a token, with room
    kwargs: dict[str, Any] = {"temperature": config.temperature}
    if config.base_url:
        kwargs["base_url"] = config.base_url
    if provider == "ollama":  # ChatOllama: no api key; its timeout goes to the HTTP client
        kwargs.update(num_predict=max_tokens, client_kwargs={"timeout": config.total_timeout})
        return kwargs
    if config.api_key:
        kwargs["api_key"] = config.api_key
    elif provider == "openai" and config.base_url and not os.environ.get("OPENAI_API_KEY"):
        kwargs["api_key"] = "none"  # a local OpenAI-compatible server wants none, but the client insists on one
    kwargs.update(timeout=config.total_timeout, max_retries=0, max_tokens=max_tokens)
    return kwargs


def build_chat_model(config: NarratorConfig) -> BaseChatModel:
    """The langchain chat model ``config`` names (no network is used to make it).

    Raises:
        NarratorConfigError: no model, langchain or the provider's package missing
            (the message names the extra to install), or the provider refused the settings.
    """
    if not config.model:
        raise NarratorConfigError("no model is configured")
    provider, model = split_model(config.model, config.base_url)
    try:
        from langchain.chat_models import init_chat_model
    except ImportError as exc:
        raise NarratorConfigError(f"The LLM narrator needs langchain: {install_hint(provider)}") from exc
    try:
        chat: BaseChatModel = init_chat_model(model, **_model_kwargs(provider, config))
    except ImportError as exc:
        raise NarratorConfigError(
            f"The {provider} narrator needs its package: {install_hint(provider, str(exc))}") from exc
    except Exception as exc:
        hint = f" (is {provider.upper()}_API_KEY or WYRD_API_KEY set?)" if "api_key" in str(exc).lower() else ""
        raise NarratorConfigError(f"cannot set up {model}: {type(exc).__name__}: {exc}{hint}") from exc
    return chat
