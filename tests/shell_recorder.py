"""What reached a real shell in a real terminal emulator, for front-door tests.

Debian's xterm runs ``$SHELL`` (when /etc/shells lists it, else the login shell): here bash,
with a history file of the test's own that bash appends to after every command
(``PROMPT_COMMAND='history -a'``). The terminal window, its keyboard focus, the XTEST keys and
the shell are all the real ones; the history file says which command lines reached the shell
with Enter. Before each prompt bash also notes its terminal's pid, which says the shell is up
(``started``) and lets the test close the terminals it caused (``close_terminals``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
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
        self.pids = folder / "terminal-pids"
        self.env = {"SHELL": bash, "HISTFILE": str(self.log),
                    "PROMPT_COMMAND": f"history -a; echo $PPID >> '{self.pids}'",
                    "HISTCONTROL": "", "HISTIGNORE": "", "HISTSIZE": "1000", "HISTFILESIZE": "1000",
                    # no rc files of the machine's user: the shell is the same everywhere
                    "BASH_ENV": "", "ENV": ""}

    def lines(self) -> list[str]:
        try:
            return self.log.read_text().splitlines()
        except FileNotFoundError:
            return []

    def started(self) -> bool:
        """A shell in a terminal has shown its first prompt."""
        return self.pids.exists()

    def close_terminals(self, timeout_s: float = 10.0) -> None:
        """End the terminals whose shells ran here (the processes AnovaX started)."""
        try:
            pids = {int(p) for p in self.pids.read_text().split()}
        except (OSError, ValueError):
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        deadline = time.monotonic() + timeout_s
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.02)


def _alive(pid: int) -> bool:
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return False


def xterm_windows(env: dict[str, str]) -> list[str]:
    """The xterm windows on ``env``'s display."""
    done = subprocess.run(["xdotool", "search", "--class", "xterm"], capture_output=True, text=True, timeout=5,
                          env={**os.environ, **env})
    return done.stdout.split()
