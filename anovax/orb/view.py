"""The orb window: a small always-on-top tkinter window over the pure model.

Threads: Tk is touched only on the thread that built the window. Everything else (the
event bus, control results, test harnesses) hands work in through ``feed``/``call_soon``,
which only put into a queue; one ``after`` tick drains the whole queue, folds the events
into the model and redraws once, so a flood of events costs one redraw per tick, not one
per event. Controls run on a worker thread, so a slow one (starting the phone remote)
never freezes the window. That worker, the phone remote's panel and the text box are parts
of their own (parts.py); this module lays them out and runs the tick.

CPU: with nothing happening the tick only polls the queue, 10 times a second, and draws
nothing; frames are drawn at the state's rate (style.STYLES) only while the orb moves.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import tkinter as tk
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from anovax.events import Event
from anovax.orb.canvas import OrbCanvas
from anovax.orb.controls import OrbControls, RemoteInfo
from anovax.orb.focus import FocusKeeper
from anovax.orb.model import OrbModel, Snapshot
from anovax.orb.parts import REMOTE_REFRESH_MS, CommandEntry, ControlWorker, MuteButton, RemotePanel
from anovax.orb.parts import button as _button
from anovax.orb.placement import SIZE, BodyDrag, clamped_corner, keep_on_screen, open_at, resize_on_screen
from anovax.orb.question import QuestionPanel
from anovax.orb.snapshot import clip_reply
from anovax.orb.store import OrbPrefs, load_prefs, save_prefs
from anovax.orb.style import BACKGROUND, MUTED_TEXT, PANEL, STYLES, TEXT
from anovax.orb.timerchips import TimerChips
from anovax.orb.widgets import SMALL, ChipList, HistoryList, ReplyBox, Tooltip

__all__ = ["IDLE_POLL_MS", "MAX_INBOX", "RECALL_SIZE", "REMOTE_REFRESH_MS", "OrbWindow", "WindowStats"]

#: commands recalled with Up
RECALL_SIZE = CommandEntry.RECALL_SIZE

log = logging.getLogger(__name__)

#: how often an idle window looks for events: the latency of the first event after a quiet spell
IDLE_POLL_MS = 100
#: events waiting for the Tk thread; past this the window is stalled and new ones are dropped
MAX_INBOX = 50_000
#: a window move is saved once it has stopped moving for this long
SAVE_DELAY_MS = 600
#: the longest line of a reply shown (the reply area scrolls; a runaway one must not cost a
#: redraw a tick); a list keeps its lines (snapshot.clip_reply)
REPLY_CHARS = 1000
ORB_SIZE = {False: 112, True: 150}  # compact, expanded
#: chips the fixed chip area holds (compact, expanded), the last row being "+N more" when there are more
CHIP_ROWS = {False: 4, True: 5}


@dataclass
class WindowStats:
    """Counters the tests and the benchmark read."""

    ticks: int = 0
    redraws: int = 0
    events: int = 0
    #: the most events one tick folded in
    biggest_batch: int = 0
    #: events dropped because the window had stopped draining its queue
    dropped: int = 0


class OrbWindow:
    """The orb, its chips, the text box, the controls; built on (and only used from) the Tk thread."""

    def __init__(self, root: tk.Tk, controls: OrbControls, *, prefs_path: Path | None = None,
                 model: OrbModel | None = None, clock: Callable[[], float] = time.time) -> None:
        self.root = root
        self.controls = controls
        self.model = model or OrbModel()
        self.model.speech_off = controls.speech_off
        self.stats = WindowStats()
        self._clock = clock
        self._inbox: queue.SimpleQueue[Event | Callable[[], Any]] = queue.SimpleQueue()
        self._closed = threading.Event()
        self._prefs_path = prefs_path
        self.prefs = load_prefs(prefs_path) if prefs_path is not None else OrbPrefs()
        self._worker = ControlWorker(self.call_soon)
        self._after: str | None = None
        self._save_after: str | None = None
        self._drawn: tuple | None = None
        self._texts: dict[str, str] = {}
        self.on_close: Callable[[], None] | None = None
        self._build()
        self._place()
        self._apply_size()
        if controls.remote_status is not None:  # the remote may have been started before the window
            self.remote_panel.refresh()
        # only once the window can show a question: a command before this is denied, not left waiting
        self._unregister = controls.can_ask() if controls.can_ask is not None else None
        self._tick()

    # -- thread-safe entry points -----------------------------------------------------------

    def feed(self, event: Event) -> None:
        """The bus subscriber: any thread, never blocks, never touches Tk."""
        if self._closed.is_set():
            return
        if self._inbox.qsize() >= MAX_INBOX:
            # Tk is stalled (a modal drag on some platforms): drop rather than grow without bound;
            # the model recovers from lost events (COMMAND_DONE ends its chips, stale ones expire)
            self.stats.dropped += 1
            return
        self._inbox.put(event)

    def call_soon(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` on the Tk thread at the next tick (from any thread)."""
        if not self._closed.is_set():
            self._inbox.put(fn)

    # -- layout -----------------------------------------------------------------------------

    def _build(self) -> None:
        root = self.root
        root.title("AnovaX")
        root.configure(bg=BACKGROUND)
        root.attributes("-topmost", self.prefs.on_top)
        root.resizable(False, False)  # one size per mode: replies scroll inside it
        root.protocol("WM_DELETE_WINDOW", self.close)
        root.bind("<Escape>", lambda _e: self._stop())

        bar = tk.Frame(root, bg=BACKGROUND)
        bar.pack(fill="x", padx=6, pady=(6, 0))
        self.mute = MuteButton(bar, self.controls, self._worker, model=self.model, say=self._say)
        self.mute_button = self.mute.button
        self.stop_button = _button(bar, "Stop", self._stop)
        self.phone_button = _button(bar, "Phone", lambda: self.remote_panel.toggle())
        self.pin_button = _button(bar, "Pin", self._toggle_on_top)
        self.size_button = _button(bar, "More", self._toggle_size)
        for button in (self.mute_button, self.stop_button, self.phone_button):
            button.pack(side="left", padx=(0, 4))
        for button in (self.size_button, self.pin_button):
            button.pack(side="right", padx=(4, 0))
        self._tips = {
            "mute": self.mute.tip,
            "stop": Tooltip(self.stop_button, lambda: self._why("stop", "Stop the running command and speech (Esc)")),
            "phone": Tooltip(self.phone_button, lambda: self._why("remote_toggle", "Show the phone remote's "
                                                                                  "pairing code")),
            "pin": Tooltip(self.pin_button, lambda: "Keep the orb above other windows"),
            "size": Tooltip(self.size_button, lambda: "Compact or expanded"),
        }
        for name, button in (("stop", self.stop_button), ("remote_toggle", self.phone_button)):
            if getattr(self.controls, name) is None:
                button.configure(state="disabled")

        # the bottom first: in a fixed-size window what is packed last is what gets squeezed,
        # and that must be the reply (it scrolls), never the text box
        self.command_entry = CommandEntry(root, None, say=self._say)
        self.entry = self.command_entry.entry
        self.orb = OrbCanvas(root, ORB_SIZE[self.prefs.expanded])
        self.orb.widget.pack(pady=(4, 0))
        self.state_label = tk.Label(root, font=("DejaVu Sans", 11, "bold"), bg=BACKGROUND, fg=TEXT)
        self.state_label.pack()
        self.detail_label = tk.Label(root, font=SMALL, bg=BACKGROUND, fg=MUTED_TEXT, justify="center")
        self.detail_label.pack(padx=8)
        self.chips = ChipList(root)
        self.chips.frame.pack(fill="x", padx=8, pady=(4, 0))
        # the countdowns of running timers: one row, so a few chips fit in the fixed size
        self.timer_chips = TimerChips(root, dismiss=self.model.dismiss_alert)
        self.timer_chips.frame.pack(fill="x", padx=8)
        self.reply = ReplyBox(root)
        self.reply.frame.pack(fill="both", expand=True, padx=8, pady=(4, 0))

        # where the keys go: activating the orb focuses the box; after a command that acted on no
        # window the person's window gets the focus back (focus.py)
        self.focus = FocusKeeper(root, self.entry, give_back=self.controls.return_focus, run=self._worker.run,
                                 busy=lambda: self.model.in_flight)
        self.command_entry.set_submit(self.focus.track(self.controls.submit))
        self.entry.focus_set()  # the window opens ready to type into
        self._tips["entry"] = Tooltip(self.entry, lambda: self._why("submit", "") if self.controls.submit is None
                                      else "")

        self.question = QuestionPanel(root, self.controls.answer, after=self.detail_label, focus=lambda: self.entry,
                                      say=self._say)
        self.history = HistoryList(root)
        self.remote_panel = RemotePanel(root, self.controls, self._worker, self.phone_button, say=self._say,
                                        wrap=lambda: SIZE[self.prefs.expanded][0], above=lambda: self.entry,
                                        closed=self._closed,
                                        changed=lambda: resize_on_screen(self.root, self._size()))
        # the panel's widgets, under the names the harness and tests know
        self.qr_label = self.remote_panel.qr_label
        self.remote_label = self.remote_panel.remote_label
        self.viewers_label = self.remote_panel.viewers_label
        self.unban_button = self.remote_panel.unban_button
        self.question.bind_keys()  # once every widget exists: Enter/Esc answer while a question is shown
        # the body moves the window; controls, the text box, the reply and the chips keep their clicks
        self.drag = BodyDrag(root)
        self.drag.add([root, bar, self.orb.widget, self.state_label, self.detail_label, self.chips.frame,
                       self.timer_chips.frame,
                       self.history.frame, *self.history.labels(), self.remote_panel.frame, self.qr_label,
                       self.remote_label, self.viewers_label, self.question.frame, self.question.question_label,
                       self.question.target_label, self.question.note_label])

    def _say(self, text: str) -> None:
        """A line of the window's own (a control failed) in the reply area."""
        self.reply.set(text)

    @property
    def muted(self) -> bool:
        return self.mute.muted

    @property
    def remote(self) -> RemoteInfo | None:
        """The phone remote shown in the window (None: hidden)."""
        return self.remote_panel.info

    def _why(self, control: str, normal: str) -> str:
        return normal if getattr(self.controls, control) is not None else f"Off: {self.controls.reason(control)}"

    def _size(self) -> tuple[int, int]:
        width, height = SIZE[self.prefs.expanded]
        if self.remote_panel.info is not None:  # the Phone button asked for the QR code: room for it
            height += self.remote_panel.frame.winfo_reqheight() + 8
        return width, height

    def _place(self) -> None:
        open_at(self.root, self.prefs, self._size())
        # only moves after this one count: the first Configure events are the window manager placing us
        self.root.after_idle(lambda: self.root.bind("<Configure>", self._moved, add="+"))

    def _apply_size(self) -> None:
        expanded = self.prefs.expanded
        self.orb.resize(ORB_SIZE[expanded])
        self.size_button.configure(text="Less" if expanded else "More")
        self.pin_button.configure(relief="sunken" if self.prefs.on_top else "flat",
                                  bg="#334155" if self.prefs.on_top else PANEL)
        self.detail_label.configure(wraplength=SIZE[expanded][0] - 20)
        self.chips.set_rows(CHIP_ROWS[expanded])
        self.model.max_chips = CHIP_ROWS[expanded] - 1
        if expanded:
            self.history.frame.pack(side="bottom", fill="x", padx=8, pady=(0, 6), before=self.entry)
        else:
            self.history.frame.pack_forget()
        resize_on_screen(self.root, self._size())
        self._drawn = None

    # -- the tick ---------------------------------------------------------------------------

    def _tick(self) -> None:
        self._after = None
        if self._closed.is_set():
            return
        self.stats.ticks += 1
        batch: list[Event] = []
        try:
            while True:
                item = self._inbox.get_nowait()
                if isinstance(item, Event):
                    batch.append(item)
                else:  # a callback sees every event queued before it
                    self._fold(batch)
                    batch = []
                    self._run_callable(item)
                    if self._closed.is_set():
                        return  # the callable closed the window: its widgets are gone
        except queue.Empty:
            pass
        self._fold(batch)
        now = self._clock()
        self.model.tick(now)
        animating = self.model.animating(now)
        if animating or self._drawn is None or self._drawn[0] != self.model.version:
            self._redraw(now)
        if self._closed.is_set():
            return
        if animating:
            fps = STYLES[self.model.state(now)].fps or 10  # chips fading while asleep still move
            delay = max(10, round(1000 / fps))
        else:
            delay = IDLE_POLL_MS
        self._after = self.root.after(delay, self._tick)

    def _fold(self, batch: list[Event]) -> None:
        if batch:
            self.model.apply_all(batch)
            self.stats.events += len(batch)
            self.stats.biggest_batch = max(self.stats.biggest_batch, len(batch))
            self.focus.seen(batch)

    def _run_callable(self, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except Exception:  # a harness or control callback must not stop the ticks
            log.exception("orb callback failed")

    def snapshot(self) -> Snapshot:
        return self.model.snapshot(self._clock())

    def _redraw(self, now: float) -> None:
        self.stats.redraws += 1
        snap = self.model.snapshot(now)
        self._drawn = (snap.version,)
        self.orb.draw(snap.state, time.monotonic())
        self.orb.set_watchers(snap.viewers)
        style = STYLES[snap.state]
        self._text(self.state_label, style.label, fg=style.colour)
        self._text(self.detail_label, "\n".join(line for line in (snap.detail, snap.heard_line) if line))
        self.chips.update(snap.chips, snap.hidden_chips)
        self.timer_chips.update(snap.timers, snap.alert)
        self.question.update(snap, SIZE[self.prefs.expanded][0] - 20)
        self.reply.set(clip_reply(snap.response, REPLY_CHARS))
        if self.prefs.expanded:
            self.history.update(snap.history)
        self.mute.update(snap)
        self.remote_panel.update(snap)

    def _text(self, widget: tk.Widget, text: str, **extra: str) -> None:
        key = f"{id(widget)}"
        value = text + repr(sorted(extra.items()))
        if self._texts.get(key) != value:
            self._texts[key] = value
            widget.configure(text=text, **extra)

    # -- controls ---------------------------------------------------------------------------

    def _stop(self) -> None:
        if self.controls.stop is not None:
            self._worker.run(self.controls.stop, lambda _r, _e: None)

    def show_remote(self, info: RemoteInfo | None) -> None:
        """Show (or, with None, hide) the pairing QR code and address."""
        self.remote_panel.show(info)

    def _toggle_on_top(self) -> None:
        self.prefs = replace(self.prefs, on_top=not self.prefs.on_top)
        self.root.attributes("-topmost", self.prefs.on_top)
        self._apply_size()
        self._save_soon()

    def _toggle_size(self) -> None:
        self.prefs = replace(self.prefs, expanded=not self.prefs.expanded)
        self._apply_size()
        self._redraw(self._clock())
        self._save_soon()

    # -- position ---------------------------------------------------------------------------

    def _moved(self, event: tk.Event) -> None:
        if event.widget is not self.root:
            return
        x, y = keep_on_screen(self.root)  # a title-bar drag may have taken it off the top
        if (x, y) != (self.prefs.x, self.prefs.y):
            self.prefs = replace(self.prefs, x=x, y=y)
            self._save_soon()

    def _save_soon(self) -> None:
        if self._prefs_path is None:
            return
        if self._save_after is not None:
            self.root.after_cancel(self._save_after)
        self._save_after = self.root.after(SAVE_DELAY_MS, self._save)

    def _save(self) -> None:
        self._save_after = None
        if self._prefs_path is not None:
            save_prefs(self._prefs_path, self.prefs)

    def close(self) -> None:
        """Save where the window was and take it down (the WM's close button)."""
        if self._closed.is_set():
            return
        self._closed.set()
        self.remote_panel.cancel_refresh()
        for pending in (self._after, self._save_after):
            if pending is not None:
                try:
                    self.root.after_cancel(pending)
                except tk.TclError:
                    pass
        try:
            x, y = clamped_corner(self.root)
            self.prefs = replace(self.prefs, x=x, y=y)
        except tk.TclError:
            pass
        self._save()
        self._worker.close()
        if self._unregister is not None:
            self._unregister()
        if self.on_close is not None:
            self.on_close()
        try:
            self.root.destroy()
        except tk.TclError:
            pass
