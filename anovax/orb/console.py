"""The orb without a display: one status line in the terminal, drawn from the same model.

``render_status`` is pure (a Snapshot in, one line out) so it is tested like the model.
``ConsoleStatus`` feeds the model from the bus on a thread of its own and keeps the line
up to date on a terminal while a command runs, then clears it, so the console's prompt and
results are never written over. Callers that print to the same terminal wrap their
writes in ``hold()``, or print through ``above()``; the console tells it its prompt
(``prompt``): while the prompt shows no status line is drawn, and a line printed then goes
above the prompt, which is drawn again under it.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from anovax.events import Event, EventBus
from anovax.orb.hints import state_name
from anovax.orb.model import ChipView, OrbModel, QuestionView, Snapshot, clip
from anovax.orb.style import HISTORY_MARK, STYLES

#: how often the line is refreshed while something runs (elapsed times tick)
REFRESH_S = 0.1
_CLEAR = "\r\x1b[K"


def render_chip(chip: ChipView) -> str:
    arg = f" {chip.arg}" if chip.arg else ""
    if chip.failed:
        return f"{chip.tool}{arg} ({chip.state.value}: {clip(chip.error or 'no reason given', 40)})"
    retry = f", try {chip.attempts}" if chip.attempts > 1 else ""
    return f"{chip.tool}{arg} ({chip.state.value}{retry} {chip.elapsed_s:.1f}s)"


def render_question(question: QuestionView) -> str:
    """``Type `ls` and press Enter in Terminal? (in xterm, 17 s left)``."""
    where = f"in {clip(question.target, 30)}, " if question.target else ""
    return f"{question.text} ({where}{question.seconds_left} s left)"


def render_status(snap: Snapshot, width: int = 100) -> str:
    """``◉ acting: 2 agents: open notepad… | open_app notepad (running 0.4s) | mic muted``;
    a question comes first, in place of the detail: ``? asking: Type `ls` …? (in xterm, 17 s left)``."""
    style = STYLES[snap.state]
    head = f"{style.mark} {state_name(snap.state)}"
    if snap.question is not None:
        head += f": {render_question(snap.question)}"
    elif snap.detail:
        head += f": {snap.detail}"
    parts = [head]
    if snap.answered:
        parts.append(snap.answered)
    parts += [render_chip(c) for c in snap.chips if c.fade > 0]
    if snap.hidden_chips:
        parts.append(f"+{snap.hidden_chips} more")
    if snap.voice == "muted":
        parts.append("mic muted")
    if snap.viewers:
        parts.append(f"phone watching ({snap.viewers})")
    return clip(" | ".join(parts), width)


def render_history(snap: Snapshot, rows: int = 5) -> list[str]:
    lines = []
    for entry in reversed(snap.history[-rows:]):
        mark = HISTORY_MARK.get(entry.status, ("•", ""))[0]
        lines.append(f"{mark} {clip(entry.text, 40) or '(not queued)'} — {clip(entry.message, 70)}")
    return lines


class ConsoleStatus:
    """Keeps a status line on ``out`` from the bus's events.

    ``inline`` (a terminal): one line rewritten in place at most every REFRESH_S while
    busy, cleared when idle. Otherwise one line per change of state or of the set of
    agents (elapsed times alone do not count), so a log stays short.
    """

    def __init__(self, bus: EventBus | None, out: TextIO, *, inline: bool | None = None,
                 lock: Any = None, width: Callable[[], int] | None = None,
                 clock: Callable[[], float] = time.time, model: OrbModel | None = None) -> None:
        self.out = out
        self.model = model or OrbModel()
        self.inline = out.isatty() if inline is None else inline
        self._lock = lock if lock is not None else threading.RLock()
        self._width = width or _terminal_width
        self._clock = clock
        self._inbox: queue.SimpleQueue[Event | None] = queue.SimpleQueue()
        self._on_screen = ""
        #: what the console shows while it waits for a line ("you> "; "" while a command runs)
        self.prompt = ""
        #: where the prompt is written (the console's standard output; default ``out``)
        self.prompt_out: TextIO | None = None
        #: the console is asking a question on this line ([y/N]): the status must not draw over it
        self.paused = False
        # the idle state at start-up is not news
        self._last_key: tuple | None = self._key(self.model.snapshot(clock()))
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, name="orb-console", daemon=True)
        if bus is not None:
            bus.subscribe("orb-console", self.feed)

    def start(self) -> ConsoleStatus:
        self._thread.start()
        return self

    def feed(self, event: Event) -> None:
        if not self._closed.is_set():
            self._inbox.put(event)

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """Write to the terminal without the status line in the way; it comes back on the next refresh."""
        with self._lock:
            self._erase()
            yield

    def above(self, text: str, out: TextIO | None = None) -> None:
        """Print ``text`` on lines of its own and put the prompt back under it: a line that comes
        while the console waits at its prompt (a voice command's reply, a question, a timer, the
        verbose trace) never takes the prompt's place. What the person had typed on the prompt's
        line stays in the terminal's input (Enter still sends it); only its echo is not redrawn."""
        out = out if out is not None else self.out
        with self._lock:
            self._erase()
            prompt = self.prompt
            if prompt:  # the cursor is at the end of the prompt's line: start that line afresh
                self.out.write(_CLEAR)
                self.out.flush()
            out.write(text + "\n")
            out.flush()
            if prompt:
                redraw = self.prompt_out if self.prompt_out is not None else self.out
                redraw.write(prompt)
                redraw.flush()

    def close(self) -> None:
        self._closed.set()
        self._inbox.put(None)
        if self._thread.is_alive():
            self._thread.join(2.0)
        with self._lock:
            self._erase()

    def refresh(self) -> None:
        """Draw what the model says now (the thread calls this; tests call it directly)."""
        now = self._clock()
        self.model.tick(now)
        snap = self.model.snapshot(now)
        with self._lock:
            if self.inline:
                # only while a command runs and no prompt shows: the prompt's line is the person's
                # (a command from the voice or the phone, or events still arriving after the
                # result and the prompt were printed, used to draw over it)
                busy = self.model.in_flight and not self.paused and not self.prompt
                line = render_status(snap, max(20, self._width() - 1)) if busy else ""
                if line != self._on_screen:
                    self.out.write(_CLEAR + (line or self.prompt))
                    self.out.flush()
                    self._on_screen = line
                return
            key = self._key(snap)
            if key != self._last_key:
                self._last_key = key
                self.out.write(render_status(snap, 200) + "\n")
                self.out.flush()

    @staticmethod
    def _key(snap: Snapshot) -> tuple:
        question = snap.question.question_id if snap.question is not None else ""
        return (snap.state, tuple((c.agent_id, c.state) for c in snap.chips), snap.voice, snap.viewers, question,
                snap.answered)

    def _erase(self) -> None:
        if self.inline and self._on_screen:
            self.out.write(_CLEAR)
            self.out.flush()
            self._on_screen = ""

    def _run(self) -> None:
        while not self._closed.is_set():
            try:
                item = self._inbox.get(timeout=REFRESH_S)
            except queue.Empty:
                item = False
            if item is None:
                return
            batch = [item] if isinstance(item, Event) else []
            try:
                while True:
                    more = self._inbox.get_nowait()
                    if more is None:
                        self._closed.set()
                        break
                    batch.append(more)
            except queue.Empty:
                pass
            self.model.apply_all(batch)
            self.refresh()  # also when nothing came: elapsed times, fades and flashes move on


def _terminal_width() -> int:
    import shutil

    return shutil.get_terminal_size((100, 24)).columns
