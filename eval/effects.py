"""What a task did, observed from outside the assistant: the test editor's buffer and ready
file, the titles the stand-in browser's windows showed (each holds the URL it was given), PNGs on disk, what was spoken, the command lines a
real shell in a real xterm received (bash's history file), the agents spawned and the questions
asked.

Nothing here looks at the plan: a task passes when its effect is there.
"""

from __future__ import annotations

import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def wait_until(predicate, timeout_s: float, step_s: float = 0.01) -> bool:
    end = time.monotonic() + timeout_s
    while True:
        if predicate():
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(step_s)


class RecordingSpeech:
    """A SpeechOut that keeps every sentence (instead of sounding it)."""

    unavailable: str | None = None

    def __init__(self) -> None:
        self.said: list[str] = []
        self._lock = threading.Lock()

    def say(self, text: str, cancel: Any) -> None:
        with self._lock:
            self.said.append(text)

    def close(self) -> None:
        pass

    def since(self, n: int) -> list[str]:
        with self._lock:
            return self.said[n:]


@dataclass
class Targets:
    """The files the targets write to."""

    editor_out: Path
    editor_ready: Path
    browser_log: Path
    pictures: Path
    speech: RecordingSpeech
    #: the history file of the bash the terminals run (``PROMPT_COMMAND='history -a'``)
    shell_log: Path | None = None


@dataclass
class Snapshot:
    urls: int
    pngs: set[str]
    said: int
    shell: int = 0


@dataclass
class Observed:
    buffer: str | None
    window: bool
    urls: list[str]
    pngs: list[str]
    spoken: str
    agents: int
    shell: list[str] = field(default_factory=list)
    questions: int = 0
    failures: list[str] = field(default_factory=list)


def snapshot(t: Targets) -> Snapshot:
    return Snapshot(urls=len(read(t.browser_log).splitlines()), pngs={p.name for p in t.pictures.glob("*.png")},
                    said=len(t.speech.said), shell=len(_shell_lines(t)))


def _shell_lines(t: Targets) -> list[str]:
    return read(t.shell_log).splitlines() if t.shell_log is not None else []


def _new_urls(t: Targets, snap: Snapshot) -> list[str]:
    return [urllib.parse.unquote_plus(u).lower() for u in read(t.browser_log).splitlines()[snap.urls:]]


def _new_pngs(t: Targets, snap: Snapshot) -> list[str]:
    return sorted(p.name for p in t.pictures.glob("*.png") if p.name not in snap.pngs and p.stat().st_size > 0)


def judge(effect: dict, t: Targets, snap: Snapshot, agents: int, *, questions: int = 0,
          timeout_s: float = 4.0) -> Observed:
    """Wait (up to ``timeout_s``) for the expected effect, then report what was observed and
    which expectations failed."""
    def url_ok() -> bool:
        words = [w.lower() for w in effect["url"]]
        return any(all(w in u for w in words) for u in _new_urls(t, snap))

    waits = []
    if "buffer" in effect:
        waits.append(lambda: read(t.editor_out) == effect["buffer"])
    if effect.get("window"):
        waits.append(t.editor_ready.exists)
    if "url" in effect:
        waits.append(url_ok)
    if effect.get("png"):
        waits.append(lambda: bool(_new_pngs(t, snap)))
    if "shell" in effect:
        waits.append(lambda: _shell_lines(t)[snap.shell:] == effect["shell"])
    wait_until(lambda: all(w() for w in waits), timeout_s)
    if effect.get("quiet"):
        time.sleep(0.2)  # give a stray launch or URL the chance to show up
    spoken = " ".join(t.speech.since(snap.said))
    obs = Observed(buffer=read(t.editor_out) if t.editor_out.exists() else None, window=t.editor_ready.exists(),
                   urls=_new_urls(t, snap), pngs=_new_pngs(t, snap), spoken=spoken, agents=agents,
                   shell=_shell_lines(t)[snap.shell:], questions=questions)
    f = obs.failures
    if "buffer" in effect and obs.buffer != effect["buffer"]:
        f.append(f"buffer {obs.buffer!r} != {effect['buffer']!r}")
    if effect.get("window") and not obs.window:
        f.append("the test editor did not take the focus")
    if "url" in effect and not url_ok():
        f.append(f"no URL with {effect['url']} (got {obs.urls})")
    if effect.get("png") and not obs.pngs:
        f.append("no new PNG")
    if "spoken" in effect and not re.search(effect["spoken"], spoken, re.I | re.S):
        f.append(f"spoken {spoken[:120]!r} !~ /{effect['spoken']}/")
    if effect.get("quiet"):
        if obs.urls or obs.pngs or obs.window or obs.buffer:
            f.append(f"side effects: urls={obs.urls} pngs={obs.pngs} window={obs.window} buffer={obs.buffer!r}")
        if re.search(r"can't do that offline", spoken, re.I) and "no_agents" not in effect:
            f.append(f"not understood: {spoken[:80]!r}")
    if effect.get("no_agents") and agents:
        f.append(f"{agents} agent(s) spawned")
    if "shell" in effect and obs.shell != effect["shell"]:
        f.append(f"the shell got {obs.shell} != {effect['shell']}")
    if obs.questions != effect.get("asked", 0):
        # a question where none was expected is a failure too: asking is not free for the person
        f.append(f"{obs.questions} question(s) asked, expected {effect.get('asked', 0)}")
    return obs
