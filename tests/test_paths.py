"""anovax.paths: platformdirs' folders, which on Linux are the XDG folders AnovaX always used."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs
import pytest

from anovax import paths, settings
from anovax.orb.store import prefs_path
from anovax.voice import stt

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG folders are Linux's")

KINDS = ("config", "data", "state", "cache")


def the_old_rule(kind: str, env) -> Path:
    """How settings.py, orb/store.py and voice/stt.py built these folders before platformdirs."""
    name, fallback = {"config": ("XDG_CONFIG_HOME", ".config"), "data": ("XDG_DATA_HOME", ".local/share"),
                      "state": ("XDG_STATE_HOME", ".local/state"), "cache": ("XDG_CACHE_HOME", ".cache")}[kind]
    return Path(env.get(name) or Path.home() / fallback) / "anovax"


@linux_only
@pytest.mark.parametrize("kind", KINDS)
def test_linux_folders_are_the_old_ones_with_the_xdg_variables_set(kind, monkeypatch, tmp_path):
    monkeypatch.setenv(f"XDG_{kind.upper()}_HOME",
                       str(tmp_path / kind))
    assert paths.app_dir(kind) == tmp_path / kind / "anovax" == the_old_rule(kind, os.environ)


@linux_only
@pytest.mark.parametrize("kind", KINDS)
def test_linux_folders_fall_back_to_the_home_folder(kind, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    expected = {"config": ".config", "data": ".local/share", "state": ".local/state", "cache": ".cache"}[kind]
    assert paths.app_dir(kind) == tmp_path / expected / "anovax" == the_old_rule(kind, os.environ)
    # an empty variable counts as unset, as it always did
    assert paths.app_dir(kind, {f"XDG_{kind.upper()}_HOME": ""}) == tmp_path / expected / "anovax"


def test_the_default_folders_are_platformdirs(monkeypatch, tmp_path):
    dirs = platformdirs.PlatformDirs("anovax", appauthor=False)
    assert [paths.app_dir(kind) for kind in KINDS] == [
        Path(dirs.user_config_dir), Path(dirs.user_data_dir), Path(dirs.user_state_dir), Path(dirs.user_cache_dir)]


@linux_only
def test_a_given_env_is_read_instead_of_os_environ(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "from-os-environ"))
    env = {"XDG_STATE_HOME": str(tmp_path / "given")}
    assert paths.state_dir(env) == tmp_path / "given" / "anovax"
    assert settings.default_log_path(env) == tmp_path / "given" / "anovax" / "events.jsonl"
    assert prefs_path(env) == tmp_path / "given" / "anovax" / "orb.json"
    assert settings.load_settings(env).log_path == tmp_path / "given" / "anovax" / "events.jsonl"


@linux_only
def test_every_file_keeps_its_linux_place(monkeypatch, tmp_path):
    monkeypatch.setattr(settings, "_CHECKOUT_MEMORY", tmp_path / "no-checkout" / "memory.json")
    for name, sub in (("XDG_CONFIG_HOME", "c"), ("XDG_DATA_HOME", "d"), ("XDG_STATE_HOME", "s"),
                      ("XDG_CACHE_HOME", "k")):
        monkeypatch.setenv(name, str(tmp_path / sub))
    assert settings.default_config_path() == tmp_path / "c" / "anovax" / "config.toml"
    assert settings.default_memory_path() == tmp_path / "d" / "anovax" / "memory.json"
    assert settings.default_log_path() == tmp_path / "s" / "anovax" / "events.jsonl"
    assert prefs_path() == tmp_path / "s" / "anovax" / "orb.json"
    assert stt.default_cache_dir() == tmp_path / "k" / "anovax" / "stt"


def test_a_path_is_shown_with_its_folder_and_the_home_folder_as_tilde(tmp_path):
    from anovax.paths import shown

    home = tmp_path / "home" / "ana"
    assert shown(home / "Pictures" / "anovax-1.png", home) == str(Path("~") / "Pictures" / "anovax-1.png")
    assert shown(home, home) == "~"
    elsewhere = tmp_path / "mnt" / "shots" / "anovax-2.png"
    assert shown(elsewhere, home) == str(elsewhere)  # outside the home folder: whole
