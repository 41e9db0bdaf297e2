"""Where the narrator's settings come from, read before anything is built of them.

Each setting is taken from the first place that has it: the command line, the environment
(``WYRD_MODEL``, ``WYRD_BASE_URL``, ``WYRD_API_KEY``), then the config file (``WYRD_CONFIG``, else
``$WYRD_HOME/config.toml``, else ``config.toml`` in the platform's config folder). Reading them needs
neither pydantic nor langchain: most games set nothing, and a start that finds nothing set goes to
the tables without defining the settings' model (:mod:`wyrd.oracle.narrators.llm_config` checks and
builds what is set).
"""

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

__all__ = ["ENV_API_KEY", "ENV_BASE_URL", "ENV_CONFIG", "ENV_MODEL", "OFF", "NarratorConfigError", "Settings",
           "config_path", "narrator_settings"]

ENV_MODEL, ENV_BASE_URL, ENV_API_KEY, ENV_CONFIG = "WYRD_MODEL", "WYRD_BASE_URL", "WYRD_API_KEY", "WYRD_CONFIG"
#: Model settings that mean no model: the tables tell the story.
OFF = frozenset({"table", "off", "none", ""})


class NarratorConfigError(Exception):
    """A narrator that cannot be set up as configured; the message says what to do."""


class Settings(NamedTuple):
    """The narrator's settings as found, not yet checked, and the file they were looked for in."""

    path: Path
    values: dict[str, Any]

    @property
    def given(self) -> bool:
        """Whether anything is set (a model switched off alone is nothing)."""
        return any(value is not None for key, value in self.values.items() if key != "origin")


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the config file is (it need not exist)."""
    env = os.environ if environ is None else environ
    if env.get(ENV_CONFIG):
        return Path(env[ENV_CONFIG])
    if env.get("WYRD_HOME"):
        return Path(env["WYRD_HOME"]) / "config.toml"
    from platformdirs import user_config_path

    return user_config_path("wyrd", appauthor=False) / "config.toml"


def _read_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    import tomllib  # only with a file to read: most games have none, and start sooner for it

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise NarratorConfigError(f"{path}: {exc}") from exc
    section = data.get("narrator", {})
    if not isinstance(section, dict):
        raise NarratorConfigError(f"{path}: [narrator] should be a table of settings")
    return dict(section)


def narrator_settings(model: str | None = None, *, base_url: str | None = None,
                      environ: Mapping[str, str] | None = None, path: Path | None = None) -> Settings:
    """The settings from the command line (``model``, ``base_url``), the environment and the file.

    ``values`` holds every setting found and ``origin``: where the model setting came from.

    Raises:
        NarratorConfigError: an unreadable config file (names it).
    """
    env = os.environ if environ is None else environ
    path = path or config_path(env)
    settings = _read_file(path)
    origin = str(path) if settings.get("model") else ""
    for key, var in (("model", ENV_MODEL), ("base_url", ENV_BASE_URL), ("api_key", ENV_API_KEY)):
        if env.get(var):
            settings[key] = env[var]
            origin = var if key == "model" else origin
    if base_url:
        settings["base_url"] = base_url
    if model is not None:
        settings["model"], origin = model, "--model"
    if str(settings.get("model", "")).strip().lower() in OFF:
        settings["model"] = None
    return Settings(path, {**settings, "origin": origin if settings.get("model") else ""})
