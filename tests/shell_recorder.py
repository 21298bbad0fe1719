"""What reached a real shell in a real terminal emulator, for front-door tests.

Debian's xterm runs ``$SHELL`` (when /etc/shells lists it, else the login shell): here bash,
with a history file of the test's own that bash appends to after every command
(``PROMPT_COMMAND='history -a'``). The terminal window, its keyboard focus, the XTEST keys and
the shell are all the real ones; the history file says which command lines reached the shell
with Enter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


class ShellRecorder:
    """``env`` to launch AnovaX with (the terminals it opens inherit it); ``lines()`` read back."""

    def __init__(self, folder: Path) -> None:
        bash = shutil.which("bash")
        if not shutil.which("xterm") or bash is None:
            pytest.skip("xterm is not installed (Debian package xterm; `make test` installs it)")
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "bash_history"
        self.env = {"SHELL": bash, "HISTFILE": str(self.log), "PROMPT_COMMAND": "history -a",
                    "HISTCONTROL": "", "HISTIGNORE": "", "HISTSIZE": "1000", "HISTFILESIZE": "1000",
                    # no rc files of the machine's user: the shell is the same everywhere
                    "BASH_ENV": "", "ENV": ""}

    def lines(self) -> list[str]:
        try:
            return self.log.read_text().splitlines()
        except FileNotFoundError:
            return []


def xterm_windows(env: dict[str, str]) -> list[str]:
    """The xterm windows on ``env``'s display."""
    done = subprocess.run(["xdotool", "search", "--class", "xterm"], capture_output=True, text=True, timeout=5,
                          env={**os.environ, **env})
    return done.stdout.split()
