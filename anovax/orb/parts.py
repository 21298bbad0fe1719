"""Parts of the orb window that own their widgets and their own background work: the control
worker thread and the phone remote's panel. Built and used on the Tk thread only (the worker's
results come back through the window's ``call_soon``)."""

from __future__ import annotations

import logging
import queue
import threading
import tkinter as tk
from collections.abc import Callable
from typing import Any

from anovax.orb.controls import OrbControls, RemoteInfo
from anovax.orb.hints import has_microphone
from anovax.orb.model import OrbModel, Snapshot
from anovax.orb.style import PANEL, TEXT
from anovax.orb.widgets import FONT, SMALL, Tooltip
from anovax.unban import unban_message

log = logging.getLogger(__name__)

#: a press of the Mute button held this long is hold-to-talk; a shorter one is a click (mute/unmute)
HOLD_MS = 350
#: the pairing link expires (10 minutes in anovax.remote.auth); ask for the current one this often
REMOTE_REFRESH_MS = 60_000

Done = Callable[[Any, BaseException | None], None]


class ControlWorker:
    """Runs control callables one at a time off the Tk thread; results come back via call_soon."""

    def __init__(self, call_soon: Callable[[Callable[[], Any]], None]) -> None:
        self._call_soon = call_soon
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Done] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="orb-controls", daemon=True)
        self._thread.start()

    def run(self, job: Callable[[], Any], done: Done) -> None:
        self._jobs.put((job, done))

    def close(self) -> None:
        self._jobs.put(None)

    def _run(self) -> None:
        while (item := self._jobs.get()) is not None:
            job, done = item
            try:
                result, error = job(), None
            except Exception as exc:  # noqa: BLE001 - a failing control is reported in the window
                log.warning("orb control failed: %s", exc)
                result, error = None, exc
            self._call_soon(lambda r=result, e=error, d=done: d(r, e))


def button(parent: tk.Misc, text: str, command: Callable[[], None]) -> tk.Button:
    """A flat button in the orb's style."""
    return tk.Button(parent, text=text, command=command, font=SMALL, bg=PANEL, fg=TEXT, activebackground="#334155",
                     activeforeground=TEXT, disabledforeground="#475569", relief="flat", bd=0, padx=6, pady=2,
                     highlightthickness=0)


class MuteButton:
    """Mute / Unmute, or "No mic" (off, with the reason on hover) until a listener has said it
    has a microphone: a first-time user without one was offered a Mute that did nothing.

    Held down for ``HOLD_MS`` it is hold-to-talk instead (``controls.hold_to_talk``): talking
    starts then and ends on release, and that release is no click. A click starts no talking:
    a phrase said nearby during a click's short hold would otherwise skip the wake word."""

    def __init__(self, parent: tk.Misc, controls: OrbControls, worker: ControlWorker, *, model: OrbModel,
                 say: Callable[[str], None]) -> None:
        self.controls = controls
        self._worker = worker
        self._model = model
        self._say = say
        self.button = button(parent, "No mic", self.toggle)
        self.button.configure(state="disabled")
        self.tip = Tooltip(self.button, self._tip)
        self.muted = False
        self._voice, self._detail = "", ""
        self._shown: tuple[str, str] = ("No mic", "disabled")
        #: the pending "held long enough" timer, whether talking started, and whether the next
        #: command call is the release of a hold (Tk's Button calls it on every release)
        self._hold_after: str | None = None
        self.talking = False
        self._swallow_click = False
        self.button.bind("<ButtonPress-1>", self._pressed, add="+")
        self.button.bind("<ButtonRelease-1>", self._released, add="+")
        self.button.bind("<Destroy>", self._destroyed, add="+")

    def update(self, snap: Snapshot) -> None:
        self.muted = snap.voice == "muted"
        self._voice, self._detail = snap.voice, snap.voice_detail
        no_mic = self.controls.set_muted is None or not has_microphone(snap.voice)
        label = "Talking" if snap.voice == "talking" else "Unmute" if self.muted else "Mute"
        shown = ("No mic", "disabled") if no_mic else (label, "normal")
        if shown != self._shown:
            self._shown = shown
            self.button.configure(text=shown[0], state=shown[1])

    def _tip(self) -> str:
        if self.controls.set_muted is None:
            return f"Off: {self.controls.reason('set_muted')}"
        if not has_microphone(self._voice):
            return f"Off: {self._detail or 'no microphone'}"
        if self.controls.hold_to_talk is None:
            return "Mute or unmute the microphone"
        return "Click: mute or unmute the microphone. Hold: talk without \"hey anova\""

    def _pressed(self, _event: Any = None) -> None:
        self._swallow_click = False  # a release outside the button called no command last time
        if self.controls.hold_to_talk is None or not has_microphone(self._voice) or self._hold_after is not None:
            return
        self._hold_after = self.button.after(HOLD_MS, self._held)

    def _held(self) -> None:
        self._hold_after = None
        self.talking = True
        self._talk(True)

    def _released(self, _event: Any = None) -> None:
        if self._hold_after is not None:
            self.button.after_cancel(self._hold_after)
            self._hold_after = None
        if self.talking:
            self.talking = False
            self._swallow_click = True  # Tk's own release binding calls toggle next
            self._talk(False)

    def _destroyed(self, event: Any) -> None:
        if event.widget is self.button and self.talking and self.controls.hold_to_talk is not None:
            self.talking = False
            self.controls.hold_to_talk(False)  # the worker may be gone; the call is quick

    def _talk(self, held: bool) -> None:
        talk = self.controls.hold_to_talk
        if talk is None:
            return

        def done(_result: Any, error: BaseException | None) -> None:
            if error is not None:
                self._say(f"Could not {'start' if held else 'stop'} talking: {error}")
        self._worker.run(lambda: talk(held), done)

    def toggle(self) -> None:
        if self._swallow_click:
            self._swallow_click = False
            return
        set_muted = self.controls.set_muted
        if set_muted is None or not has_microphone(self._voice):
            return
        want = not self.muted

        def done(result: Any, error: BaseException | None) -> None:
            if error is None:
                self._model.set_muted(bool(result))
            else:
                self._say(f"Could not {'mute' if want else 'unmute'}: {error}")
        self._worker.run(lambda: set_muted(want), done)


class RemotePanel:
    """The phone remote's QR code, address, viewer count and unban button, and the Phone button's
    toggle. ``info`` is what is shown (None: the panel is hidden)."""

    def __init__(self, root: tk.Misc, controls: OrbControls, worker: ControlWorker, phone_button: tk.Button, *,
                 say: Callable[[str], None], wrap: Callable[[], int], above: Callable[[], tk.Widget],
                 closed: threading.Event, changed: Callable[[], None] = lambda: None) -> None:
        self.root = root
        self.controls = controls
        self._worker = worker
        self._phone_button = phone_button
        #: shows a failure in the window's response line
        self._say = say
        #: the window's text width now (it changes with Less/More)
        self._wrap = wrap
        #: the widget the panel sits below (packed from the bottom, before it)
        self._above_widget = above
        #: the panel came or went: the window makes room for it
        self._changed = changed
        self._closed = closed
        self.info: RemoteInfo | None = None
        self._qr_image: tk.PhotoImage | None = None
        self._refresh_after: str | None = None
        self._pairings_seen = 0
        self._viewers_text: str | None = None

        self.frame = tk.Frame(root, bg=PANEL)
        self.qr_label = tk.Label(self.frame, bg="#ffffff")
        self.qr_label.pack(side="left", padx=6, pady=6)
        side = tk.Frame(self.frame, bg=PANEL)
        side.pack(side="left", fill="both", expand=True)
        self.remote_label = tk.Label(side, font=SMALL, bg=PANEL, fg=TEXT, justify="left", anchor="w")
        self.remote_label.pack(fill="x", pady=(6, 2))
        self.viewers_label = tk.Label(side, font=SMALL, bg=PANEL, fg="#fca5a5", anchor="w")
        self.viewers_label.pack(fill="x")
        self.unban_button = button(side, "Unban phones", self.unban)
        if controls.remote_unban is not None:
            self.unban_button.pack(anchor="w", pady=4)

    def update(self, snap: Snapshot) -> None:
        """Follow a redraw: the viewer count, and a fresh link once a phone spent the one on screen."""
        viewers = f"● {snap.viewers} phone{'s' if snap.viewers != 1 else ''} watching" if snap.viewers else ""
        text = "\n".join(v for v in (viewers, snap.remote_note) if v)
        if text != self._viewers_text:
            self._viewers_text = text
            self.viewers_label.configure(text=text)
        if snap.pairings != self._pairings_seen:
            self._pairings_seen = snap.pairings
            if self.info is not None:  # that phone spent the code on screen
                self.refresh()

    def toggle(self) -> None:
        toggle = self.controls.remote_toggle
        if toggle is None:
            return
        want = self.info is None
        self._phone_button.configure(state="disabled")  # until the server has started or stopped

        def done(result: Any, error: BaseException | None) -> None:
            self._phone_button.configure(state="normal")
            if error is not None:
                self._say(f"Phone remote: {error}")
                return
            self.show(result if want else None)
        self._worker.run(lambda: toggle(want), done)

    def show(self, info: RemoteInfo | None) -> None:
        """Show (or, with None, hide) the pairing QR code and address."""
        previous, self.info = self.info, info
        self.cancel_refresh()
        if info is None:
            self.frame.pack_forget()
            self._phone_button.configure(relief="flat", bg=PANEL)
            self._qr_image = None
            if previous is not None:
                self._changed()
            return
        if previous is None or previous.pairing_url != info.pairing_url:
            from anovax.orb.qr import qr_png_base64

            self._qr_image = tk.PhotoImage(data=qr_png_base64(info.pairing_url, scale=3))
            self.qr_label.configure(image=self._qr_image)
        self.remote_label.configure(text=f"Scan with your phone, or open\n{info.address}",
                                    wraplength=self._wrap() - 150)
        self._phone_button.configure(relief="sunken", bg="#334155")
        self.frame.pack(side="bottom", fill="x", padx=8, pady=(0, 8), before=self._above_widget())
        if previous is None:
            self._changed()
        self._refresh_after = self.root.after(REMOTE_REFRESH_MS, self.refresh)

    def refresh(self) -> None:
        """Ask where the remote is now: a spent or expired pairing link is replaced by a fresh one."""
        self._refresh_after = None
        status = self.controls.remote_status
        if status is None:
            return

        def done(result: Any, error: BaseException | None) -> None:
            if error is None and not self._closed.is_set():
                self.show(result)
        self._worker.run(status, done)

    def unban(self) -> None:
        if self.controls.remote_unban is None:
            return

        def done(result: Any, error: BaseException | None) -> None:
            self._say(f"Phone remote: {error}" if error is not None else unban_message(result))
        self._worker.run(self.controls.remote_unban, done)

    def cancel_refresh(self) -> None:
        if self._refresh_after is not None:
            try:
                self.root.after_cancel(self._refresh_after)
            except tk.TclError:
                pass
            self._refresh_after = None


class CommandEntry:
    """The text box: Enter submits a command, Up and Down recall the last ``RECALL_SIZE``."""

    #: commands recalled with Up
    RECALL_SIZE = 50

    def __init__(self, root: tk.Misc, submit: Callable[[str], Any] | None, *, say: Callable[[str], None]) -> None:
        self._submit_fn = submit
        #: shows a failure in the window's response line
        self._say = say
        self._recall: list[str] = []
        self._recall_at = 0
        self.entry = tk.Entry(root, font=FONT, bg=PANEL, fg=TEXT, insertbackground=TEXT, relief="flat",
                              highlightthickness=1, highlightbackground="#334155", highlightcolor="#3b82f6")
        # from the bottom: in the fixed-size window the box keeps its place whatever is shown above
        self.entry.pack(side="bottom", fill="x", padx=8, pady=6, ipady=3)
        self.entry.bind("<Return>", self.submit)
        self.entry.bind("<KP_Enter>", self.submit)
        self.entry.bind("<Up>", lambda _e: self.recall_step(-1))
        self.entry.bind("<Down>", lambda _e: self.recall_step(1))
        self.set_submit(submit)

    def set_submit(self, submit: Callable[[str], Any] | None) -> None:
        """What Enter calls (None: the box is disabled)."""
        self._submit_fn = submit
        self.entry.configure(state="normal" if submit is not None else "disabled")

    def submit(self, _event: object = None) -> str:
        text = self.entry.get().strip()
        if not text or self._submit_fn is None:
            return "break"
        self.entry.delete(0, "end")
        if not self._recall or self._recall[-1] != text:
            self._recall.append(text)
            del self._recall[:-self.RECALL_SIZE]
        self._recall_at = len(self._recall)
        try:
            self._submit_fn(text)  # Assistant.submit queues and returns at once
        except Exception as exc:  # noqa: BLE001 - say it in the window rather than lose the command
            self._say(f"Could not send that: {exc}")
        return "break"

    def recall_step(self, step: int) -> str:
        if not self._recall:
            return "break"
        self._recall_at = max(0, min(len(self._recall), self._recall_at + step))
        text = self._recall[self._recall_at] if self._recall_at < len(self._recall) else ""
        self.entry.delete(0, "end")
        self.entry.insert(0, text)
        return "break"
