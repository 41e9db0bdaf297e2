"""Choosing the narrator: --model beats WYRD_MODEL beats the config file; "table" turns the LLM off;
bad settings and missing provider packages give messages that say what to do; and nothing on the
way to the first prompt imports langchain."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from wyrd.oracle.narrators.llm import make_narrator
from wyrd.oracle.narrators.llm_config import (
    NarratorConfig,
    NarratorConfigError,
    _model_kwargs,
    config_path,
    install_hint,
    load_config,
    split_model,
)
from wyrd.oracle.narrators.settings import narrator_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('[narrator]\nmodel = "ollama:llama3.2"\nfirst_token_timeout = 2.5\ntoken_budget = 9000\n',
                    encoding="utf-8")
    return path


def test_the_flag_beats_the_environment_beats_the_file(config_file: Path) -> None:
    from_file = load_config(environ={}, path=config_file)
    assert (from_file.model, from_file.first_token_timeout, from_file.token_budget) == ("ollama:llama3.2", 2.5, 9000)
    assert from_file.origin == str(config_file)
    env = {"WYRD_MODEL": "openai:gpt-4o-mini", "WYRD_BASE_URL": "http://127.0.0.1:1/v1", "WYRD_API_KEY": "sk-secret"}
    from_env = load_config(environ=env, path=config_file)
    assert (from_env.model, from_env.base_url, from_env.api_key, from_env.origin) == (
        "openai:gpt-4o-mini", "http://127.0.0.1:1/v1", "sk-secret", "WYRD_MODEL")
    assert from_env.first_token_timeout == 2.5  # what the environment doesn't say still comes from the file
    from_flag = load_config("anthropic:claude-3-5-haiku-latest", environ=env, path=config_file)
    assert (from_flag.model, from_flag.origin) == ("anthropic:claude-3-5-haiku-latest", "--model")
    assert "sk-secret" not in repr(from_flag)  # the key is never shown


@pytest.mark.parametrize("off", ["table", "off", "none", "TABLE"])
def test_table_turns_the_llm_off_whatever_else_says(config_file: Path, off: str) -> None:
    config = load_config(off, environ={"WYRD_MODEL": "openai:gpt-4o-mini"}, path=config_file)
    assert config.model is None and make_narrator(config) is None


def test_no_model_anywhere_means_no_llm(tmp_path: Path) -> None:
    config = load_config(environ={}, path=tmp_path / "missing.toml")
    assert config == NarratorConfig() and make_narrator(config) is None


def test_the_config_file_lives_in_the_platform_folder_unless_told_otherwise(tmp_path: Path) -> None:
    assert config_path({"WYRD_CONFIG": str(tmp_path / "c.toml")}) == tmp_path / "c.toml"
    assert config_path({"WYRD_HOME": str(tmp_path)}) == tmp_path / "config.toml"
    assert config_path({}).name == "config.toml" and "wyrd" in str(config_path({})).lower()


@pytest.mark.parametrize(("text", "message"), [
    ("[narrator]\nmodle = 'x'\n", "modle: Extra inputs are not permitted"),
    ("[narrator]\nfirst_token_timeout = -1\n", "first_token_timeout"),
    ("[narrator\n", "config.toml"),
    ("narrator = 3\n", "should be a table"),
])
def test_bad_settings_name_the_file_and_the_setting(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NarratorConfigError) as refused:
        load_config(environ={}, path=path)
    assert str(path) in str(refused.value) and message in str(refused.value)


@pytest.mark.parametrize(("model", "base_url", "split"), [
    ("openai:gpt-4o-mini", None, ("openai", "openai:gpt-4o-mini")),
    ("ollama:llama3.2:1b", None, ("ollama", "ollama:llama3.2:1b")),
    ("smollm2", "http://127.0.0.1:8080/v1", ("openai", "openai:smollm2")),
    ("gpt-4o", None, ("openai", "openai:gpt-4o")),
    ("claude-3-5-haiku-latest", None, ("anthropic", "anthropic:claude-3-5-haiku-latest")),
])
def test_provider_model_strings(model: str, base_url: str | None, split: tuple[str, str]) -> None:
    assert split_model(model, base_url) == split


def test_an_unknown_provider_says_how_to_write_one() -> None:
    with pytest.raises(NarratorConfigError, match="provider:model"):
        split_model("llama3.2")


def test_install_hints_name_the_extra() -> None:
    assert install_hint("openai") == "pip install 'wyrd[openai]'"
    assert install_hint("ollama") == "pip install 'wyrd[ollama]'"
    assert install_hint("groq") == "pip install 'wyrd[llm]' langchain-groq"


@pytest.mark.parametrize(("model", "extra"), [
    ("anthropic:claude-3-5-haiku-latest", "pip install 'wyrd[anthropic]'"),
    ("ollama:llama3.2", "pip install 'wyrd[ollama]'"),
    ("groq:llama-3.1-8b-instant", "pip install 'wyrd[llm]' langchain-groq"),
])
def test_a_missing_provider_package_names_the_extra(model: str, extra: str) -> None:
    pytest.importorskip("langchain")
    package = {"anthropic": "langchain_anthropic", "ollama": "langchain_ollama", "groq": "langchain_groq"}
    if importlib.util.find_spec(package[model.split(":")[0]]) is not None:
        pytest.skip(f"{package[model.split(':')[0]]} is installed here")
    with pytest.raises(NarratorConfigError) as refused:
        make_narrator(NarratorConfig(model=model))
    assert extra in str(refused.value)


def test_a_configured_model_is_made_without_the_network() -> None:
    pytest.importorskip("langchain_openai")
    config = load_config("smollm2", base_url="http://127.0.0.1:9/v1", environ={"WYRD_API_KEY": "none"},
                         path=Path("/nonexistent/config.toml"))
    narrator = make_narrator(config)
    assert narrator is not None and narrator.source == "openai:smollm2"
    assert narrator.first_token_timeout == 3.0 and narrator.tokens_used == 0


LAZY = """
import json, sys, time
start = time.perf_counter()
import wyrd.oracle.narrators.llm_config, wyrd.oracle.narrators.firewall
import wyrd.oracle.narrators.llm, wyrd.oracle.narrators.llm_facts
import wyrd.prompts, wyrd.play.cli.main
from wyrd.oracle.narrators.llm_config import load_config
from wyrd.oracle.narrators.llm import make_narrator
assert make_narrator(load_config(environ={}, path=__import__("pathlib").Path("/nonexistent"))) is None
print(json.dumps({"seconds": time.perf_counter() - start,
                  "langchain": sorted(m for m in sys.modules if m.startswith(("langchain", "langsmith")))}))
"""


def test_nothing_on_the_way_to_the_first_prompt_imports_langchain() -> None:
    done = subprocess.run([sys.executable, "-c", LAZY], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False, env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(ROOT / "nonexistent")})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["langchain"] == []


def test_a_local_openai_compatible_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19, point 7: the README's recipe (``--model openai:smollm2 --base-url ...``) runs without a key."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    local = NarratorConfig(model="openai:smollm2", base_url="http://127.0.0.1:8080/v1")
    assert _model_kwargs("openai", local)["api_key"] == "none"
    assert _model_kwargs("openai", local.model_copy(update={"api_key": "sk-x"}))["api_key"] == "sk-x"
    assert "api_key" not in _model_kwargs("openai", NarratorConfig(model="openai:gpt-4o-mini"))  # the client's own
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    assert "api_key" not in _model_kwargs("openai", local)  # a key in the environment is the client's to read


def test_configuring_a_narrator_imports_neither_the_narration_nor_the_firewall() -> None:
    """Issue 21, point 2: a resumed game reads its narrator settings before its first prompt, and
    importing the narration's base with them (its requests, the oracle's facts) cost about 3 ms there.
    With nothing set, not even the settings' model is defined (a start goes to the tables without it)."""
    code = ("import sys\n"
            "from pathlib import Path\n"
            "from wyrd.oracle.narrators.settings import narrator_settings\n"
            "assert not narrator_settings(environ={}, path=Path('/nonexistent/config.toml')).given\n"
            "print(sorted(m for m in sys.modules if m.startswith(('wyrd.oracle.narrators.', 'wyrd.oracle.facts'))))\n"
            "from wyrd.oracle.narrators.llm_config import load_config\n"
            "assert load_config(environ={}, path=Path('/nonexistent/config.toml')).model is None\n"
            "print(sorted(m for m in sys.modules if m.startswith(('wyrd.oracle.narrators.', 'wyrd.oracle.facts'))))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True, env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(ROOT / "nonexistent")})
    assert done.stdout.splitlines() == ["['wyrd.oracle.narrators.settings']",
                                        "['wyrd.oracle.narrators.llm_config', 'wyrd.oracle.narrators.settings']"]


@pytest.mark.parametrize(("environ", "given"), [
    ({}, False), ({"WYRD_MODEL": "table"}, False), ({"WYRD_MODEL": "off"}, False),
    ({"WYRD_MODEL": "openai:gpt-4o-mini"}, True), ({"WYRD_BASE_URL": "http://127.0.0.1:8080/v1"}, True),
])
def test_settings_say_whether_anything_is_set(tmp_path: Path, environ: dict[str, str], given: bool) -> None:
    """A start that finds nothing set plays with the tables and never checks the settings; a model
    switched off is nothing set, a base URL alone is something (a bad one is then reported)."""
    assert narrator_settings(environ=environ, path=tmp_path / "none.toml").given is given


@pytest.mark.parametrize("environ", [{}, {"WYRD_MODEL": "table"}, {"WYRD_MODEL": "off"}])
def test_with_nothing_set_the_settings_are_the_defaults_as_validation_gives_them(
        tmp_path: Path, environ: dict[str, str]) -> None:
    """Issue 21, point 2: no validator is built for the defaults, and they are what validating gives."""
    found = load_config(environ=environ, path=tmp_path / "none.toml")
    expected = NarratorConfig.model_validate({"model": None, "origin": ""})
    assert found == expected and found.model_dump() == expected.model_dump()
    assert found.model_fields_set == expected.model_fields_set
    assert found.model is None and found.origin == ""
