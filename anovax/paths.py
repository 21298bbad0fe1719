"""Where AnovaX keeps its own files: config (config.toml), data (memory.json), state (the event
log, the orb's position) and cache (the speech model).

platformdirs knows each platform's convention (``%LOCALAPPDATA%\\anovax`` on Windows,
``~/Library/Application Support/anovax`` and ``~/Library/Caches/anovax`` on macOS, the XDG Base
Directory spec elsewhere), so these are right everywhere. On Linux that gives exactly the folders
AnovaX has always used (``$XDG_STATE_HOME/anovax``, else ``~/.local/state/anovax``...), so existing
users keep their memory and settings.

Each function takes an optional ``env``: ``load_settings(env)`` parses a given environment, not
``os.environ``, and then the XDG variables are read from it with platformdirs' own rule (a blank
variable counts as unset).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import platformdirs

APP = "anovax"
Kind = Literal["config", "data", "state", "cache"]
#: the XDG variable for each kind and its fallback under the home folder
_XDG: dict[Kind, tuple[str, str]] = {
    "config": ("XDG_CONFIG_HOME", ".config"),
    "data": ("XDG_DATA_HOME", ".local/share"),
    "state": ("XDG_STATE_HOME", ".local/state"),
    "cache": ("XDG_CACHE_HOME", ".cache"),
}


#: platformdirs follows the XDG spec everywhere but on Windows and macOS
USES_XDG = not sys.platform.startswith(("win", "darwin"))


def app_dir(kind: Kind, env: Mapping[str, str] | None = None) -> Path:
    """AnovaX's folder of ``kind`` (not created)."""
    if env is not None and env is not os.environ and USES_XDG:
        name, fallback = _XDG[kind]
        base = env.get(name, "").strip()
        return (Path(base) if base else Path.home() / fallback) / APP
    dirs = platformdirs.PlatformDirs(APP, appauthor=False)
    return Path(getattr(dirs, f"user_{kind}_dir"))


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    return app_dir("config", env)


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    return app_dir("data", env)


def state_dir(env: Mapping[str, str] | None = None) -> Path:
    return app_dir("state", env)


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    return app_dir("cache", env)


def shown(path: Path | str, home: Path | None = None) -> str:
    """A path as a person reads it: the whole folder, the home folder written ``~``
    ("~/Pictures/anovax-1.png"); a path outside the home folder is shown whole."""
    path = Path(path)
    try:
        home = home if home is not None else Path.home()
    except (RuntimeError, KeyError):  # no home folder can be found (no HOME, no passwd entry)
        return str(path)
    try:
        rest = path.relative_to(home)
    except ValueError:
        return str(path)
    return "~" if not rest.parts else str(Path("~") / rest)
