"""Where the orb was and how it looked, kept between runs in ``orb.json`` in the state folder
(anovax.paths: ``$XDG_STATE_HOME/anovax/orb.json`` on Linux).

Losing this file costs nothing but a window position, so any problem reading it (missing,
corrupt, wrong types) means the defaults, and a failed write is ignored.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from anovax import paths


@dataclass(frozen=True)
class OrbPrefs:
    #: top-left corner on the screen; None: let the window manager place it
    x: int | None = None
    y: int | None = None
    expanded: bool = False
    on_top: bool = True


def prefs_path(env: Mapping[str, str] | None = None) -> Path:
    return paths.state_dir(env) / "orb.json"


def load_prefs(path: Path) -> OrbPrefs:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return OrbPrefs()
    if not isinstance(data, dict):
        return OrbPrefs()

    def coord(key: str) -> int | None:
        value = data.get(key)
        # bool is an int to Python, and a corrupt file may hold anything
        if isinstance(value, int) and not isinstance(value, bool) and -100_000 < value < 100_000:
            return value
        return None

    def flag(key: str, default: bool) -> bool:
        value = data.get(key)
        return value if isinstance(value, bool) else default

    x, y = coord("x"), coord("y")
    if x is None or y is None:
        x = y = None
    return OrbPrefs(x=x, y=y, expanded=flag("expanded", False), on_top=flag("on_top", True))


def save_prefs(path: Path, prefs: OrbPrefs) -> bool:
    """Write atomically (a crash mid-write leaves the old file); False if it could not be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".orb.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(asdict(prefs), fh)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True


def clamp_position(prefs: OrbPrefs, screen_w: int, screen_h: int, win_w: int, win_h: int) -> tuple[int, int] | None:
    """The saved corner moved back on screen (the monitor it was on may be gone)."""
    if prefs.x is None or prefs.y is None:
        return None
    x = max(0, min(prefs.x, max(0, screen_w - min(win_w, screen_w))))
    y = max(0, min(prefs.y, max(0, screen_h - min(win_h, screen_h))))
    return x, y


def geometry_corner(geometry: str) -> tuple[int, int] | None:
    """The corner in a ``wm geometry`` string ("280x400+12-40"): what ``geometry("+x+y")``
    restores exactly; None when it is not one."""
    match = re.fullmatch(r"=?\d+x\d+([+-]-?\d+)([+-]-?\d+)", geometry)
    if match is None:
        return None
    x, y = (int(v[1:]) if v[0] == "+" else -int(v[1:]) for v in match.groups())
    return x, y
