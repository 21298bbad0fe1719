"""Settings: parsed once from the environment and an optional TOML file, with clear errors."""

from pathlib import Path

import pytest

from anovax.errors import ConfigError
from anovax.settings import SETTINGS_DOC, load_settings

REPO = Path(__file__).resolve().parents[1]


def test_defaults_without_environment(tmp_path):
    s = load_settings(env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert s.planner == "auto" and not s.use_gemini and s.gemini_api_key == ""
    assert s.log_level == "warning"
    assert s.config_file is None


def test_environment_overrides_file(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[anovax]\nplanner = "offline"\nmodel = "m-file"\nmemory_path = "~/facts.json"\n')
    s = load_settings(env={"ANOVAX_CONFIG": str(cfg), "ANOVAX_MODEL": "m-env"})
    assert s.planner == "offline" and s.model == "m-env"
    assert s.memory_path == Path("~/facts.json").expanduser()
    assert s.config_file == cfg


def test_key_from_either_variable_and_auto_uses_gemini():
    assert load_settings(env={"GOOGLE_API_KEY": "k2"}).use_gemini
    s = load_settings(env={"GEMINI_API_KEY": "k1", "GOOGLE_API_KEY": "k2"})
    assert s.gemini_api_key == "k1" and "k1" not in repr(s)
    assert not load_settings(env={"GEMINI_API_KEY": "k", "ANOVAX_PLANNER": "offline"}).use_gemini


@pytest.mark.parametrize(
    "env, fragment",
    [
        ({"ANOVAX_PLANNER": "gpt"}, "ANOVAX_PLANNER must be one of auto, gemini, ollama, offline"),
        ({"ANOVAX_LOG_LEVEL": "loud"}, "ANOVAX_LOG_LEVEL must be one of"),
    ],
)
def test_bad_values_are_config_errors(env, fragment):
    with pytest.raises(ConfigError, match=fragment):
        load_settings(env=env)


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("planner = [", "not valid TOML"),
        ('colour = "red"', "Unknown settings"),
        ("planner = 3", "must be a string"),
        ('gemini_api_key = "k"', "secrets are read from the environment only"),  # keys never come from files
    ],
)
def test_bad_files_are_config_errors(tmp_path, content, fragment):
    cfg = tmp_path / "c.toml"
    cfg.write_text(content)
    with pytest.raises(ConfigError, match=fragment):
        load_settings(env={}, config_file=cfg)


@pytest.mark.parametrize("content, fragment", [
    ('remote_port = "99999"', "remote_port in {cfg} must be a number from 1 to 65535"),
    ('remote = "maybe"', "remote in {cfg} must be 0 or 1"),
    ('remote_bind = "my laptop"', "remote_bind in {cfg} must be an IP address"),
])
def test_a_bad_remote_value_from_the_file_is_named_as_the_files_key(tmp_path, content, fragment):
    # it was named as an environment variable the user never set (ANOVAX_REMOTE_PORT)
    cfg = tmp_path / "c.toml"
    cfg.write_text(f"[anovax]\n{content}\n")
    with pytest.raises(ConfigError) as raised:
        load_settings(env={}, config_file=cfg)
    assert str(raised.value).startswith(fragment.format(cfg=cfg)), raised.value
    assert "ANOVAX_" not in str(raised.value)


def test_a_bad_search_template_from_the_file_is_named_as_the_files_key(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[anovax]\nsearch_url = "ftp://x/{query}"\n')
    (notice,) = load_settings(env={}, config_file=cfg).notices
    assert notice.startswith(f"search_url in {cfg} must start with http:// or https://"), notice
    (notice,) = load_settings(env={"ANOVAX_SEARCH_URL": "ftp://x/{query}"}).notices
    assert notice.startswith("ANOVAX_SEARCH_URL must start with http"), notice


def test_missing_explicit_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="Cannot read"):
        load_settings(env={"ANOVAX_CONFIG": str(tmp_path / "nope.toml")})


def test_readme_documents_every_setting():
    readme = (REPO / "README.md").read_text()
    for setting in SETTINGS_DOC:
        for var in setting.env:
            assert f"`{var}`" in readme, var


def test_event_log_path_and_off(tmp_path):
    assert load_settings(env={"ANOVAX_LOG": str(tmp_path / "e.jsonl")}).log_path == tmp_path / "e.jsonl"
    assert load_settings(env={"ANOVAX_LOG": "off"}).log_path is None
    assert load_settings(env={"XDG_STATE_HOME": str(tmp_path)}).log_path.name == "events.jsonl"


def test_model_settings_are_validated():
    s = load_settings(env={"ANOVAX_PLANNER": "ollama", "ANOVAX_OLLAMA_HOST": "http://127.0.0.1:9",
                           "ANOVAX_PLANNER_TIMEOUT": "2.5"})
    assert s.effective_planner == "ollama" and s.planner_timeout_s == 2.5
    assert load_settings(env={"GEMINI_API_KEY": "k"}).effective_planner == "gemini"
    assert load_settings(env={}).effective_planner == "offline"
    for env in ({"ANOVAX_PLANNER_TIMEOUT": "soon"}, {"ANOVAX_PLANNER_TIMEOUT": "0"},
                {"ANOVAX_GEMINI_BASE_URL": "file:///etc/passwd"}, {"ANOVAX_OLLAMA_HOST": "localhost:11434"}):
        with pytest.raises(ConfigError):
            load_settings(env=env)
