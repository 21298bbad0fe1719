"""The speech players: the ``aplay`` processes pyttsx3's espeak driver starts, found and ended.

Linux only (they are found in /proc); elsewhere there is nothing to find and nothing is ended.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from pathlib import Path

__all__ = ["descendants", "still_playing", "stop_players"]


def still_playing(proc: subprocess.Popen[bytes]) -> bool:
    """Whether a player still runs. Not ``poll()`` alone: while the espeak driver's thread waits
    for the player, ``poll()`` from another thread cannot take Popen's wait lock and says None
    even after it ended; /proc says whether it is there, and not a zombie."""
    if proc.returncode is not None:
        return False
    try:
        stat = Path(f"/proc/{proc.pid}/stat").read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return False  # already reaped
    except OSError:  # no /proc here
        return proc.poll() is None
    return stat[stat.rfind(")") + 2:][:1] != "Z"


def descendants(root: int) -> set[int]:
    """Process ids below ``root`` (children, grandchildren...), from /proc."""
    parents: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as fh:
                stat = fh.read().decode("utf-8", "replace")
        except OSError:
            continue  # gone meanwhile
        # the command name is in parentheses and may itself contain ") "
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 1 and fields[1].isdigit():
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def stop_players() -> int:
    """Terminate the ``aplay`` processes pyttsx3's espeak driver started to play its temporary
    WAV files; returns how many. Only our own descendants playing a WAV in the temporary
    folder are touched: nothing else this process started plays such a file with aplay."""
    if not os.path.isdir("/proc"):
        return 0
    tmp = tempfile.gettempdir()
    stopped = 0
    for pid in descendants(os.getpid()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = [a.decode("utf-8", "replace") for a in fh.read().split(b"\0") if a]
        except OSError:
            continue
        if not argv or os.path.basename(argv[0]) != "aplay":
            continue
        if not any(a.endswith(".wav") and a.startswith(tmp) for a in argv[1:]):
            continue
        try:
            os.kill(pid, signal.SIGTERM)
            stopped += 1
        except OSError:
            pass  # it finished by itself
    return stopped
