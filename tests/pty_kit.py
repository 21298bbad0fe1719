"""The console on a pseudo-terminal: the front door a person at a terminal uses."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def cli_environment(tmp_path: Path, gemini_url: str) -> dict[str, str]:
    """The environment of ``python -m anovax`` as a person's console runs it in a test: a private
    home, the Gemini planner on the loopback fake, no voice and no orb."""
    clean = {k: v for k, v in os.environ.items()
             if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY"} and not k.startswith(("ANOVAX_", "GOOGLE_"))}
    clean.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_STATE_HOME=str(tmp_path / "state"),
                 XDG_DATA_HOME=str(tmp_path / "data"), ANOVAX_MEMORY=str(tmp_path / "memory.json"),
                 ANOVAX_LOG=str(tmp_path / "events.jsonl"), PYTHONPATH=str(REPO), GEMINI_API_KEY="test",
                 ANOVAX_GEMINI_BASE_URL=gemini_url, ANOVAX_PLANNER_TIMEOUT="30", ANOVAX_VOICE="off",
                 ANOVAX_ORB="off", TERM="dumb")
    return clean


def _own_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is the pty, so the
    terminal's Ctrl-C reaches it as SIGINT the way it does in a real terminal."""
    import fcntl
    import termios

    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Pty:
    """The console on a pseudo-terminal: what a person at a terminal sees and types."""

    def __init__(self, env, *args):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "anovax", *(args or ("--simulate",))], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, cwd=REPO, preexec_fn=_own_terminal)
        os.close(slave)
        self.seen = b""
        #: where the last needle found ended: each read_until looks only at what came after it, so
        #: waiting for the next "you> " never matches an earlier prompt
        self.read_to = 0

    def read_until(self, needle: bytes, timeout_s: float) -> bytes:
        deadline = time.monotonic() + timeout_s
        while needle not in self.seen[self.read_to:]:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {needle!r} within {timeout_s} s; the terminal shows:\n"
                                     + self.seen.decode(errors="replace"))
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the process ended and the terminal closed
                    chunk = b""
                if not chunk:
                    raise AssertionError(f"the console ended before {needle!r}:\n" + self.seen.decode(errors="replace"))
                self.seen += chunk
        self.read_to = self.seen.index(needle, self.read_to) + len(needle)
        return self.seen

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def interrupt(self) -> None:
        """Ctrl-C as the terminal sends it: SIGINT to the foreground process group."""
        os.write(self.master, b"\x03")

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            os.close(self.master)


def screen(raw: bytes) -> list[str]:
    """The lines a terminal shows for ``raw``, with the few controls the console writes: carriage
    return, line feed, erase to the end of the line (ESC [ K), backspace; other escapes are
    dropped. A line the status drew and erased is gone, as on a real screen."""
    lines = [""]
    col = 0
    text = raw.decode(errors="replace")
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b" and text[i + 1:i + 2] == "[":
            end = i + 2
            while end < len(text) and not text[end].isalpha():
                end += 1
            if text[end:end + 1] == "K":
                lines[-1] = lines[-1][:col]
            i = end + 1
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append("")
            col = 0
        elif ch == "\b":
            col = max(0, col - 1)
        elif ch.isprintable():
            line = lines[-1].ljust(col)
            lines[-1] = line[:col] + ch + line[col + 1:]
            col += 1
        i += 1
    return lines
