"""The orb in a process of its own, for the window tests, the benchmark and the screenshot script.

Run as a script it builds an Assistant (offline planner, simulated desktop with delays),
opens the orb on $DISPLAY and takes JSON commands on stdin, one per line
({"id": 1, "cmd": "inspect"}), answering each with one JSON line on stdout. Commands run
on the Tk thread (through ``OrbWindow.call_soon``), so answers describe the window as drawn.

Imported, ``OrbProcess`` starts and talks to it. Tk must own the main thread of its process,
which is why the window never runs inside pytest's.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: slow enough that a test (and a screenshot) sees each agent running
DELAYS = {"launch": 1.2, "type": 0.08, "keys": 0.05, "url": 1.5, "screenshot": 1.5, "clock": 1.5, "speak": 0.4}


# ----- the client side ------------------------------------------------------------------------

class OrbProcess:
    """A running harness: ``ask(cmd, **args)`` sends one command and returns its answer."""

    def __init__(self, env: dict[str, str], state_dir: Path, *, delays: dict[str, float] | None = None,
                 window: bool = True, fake_controls: bool = True, timeout_s: float = 20.0) -> None:
        args = [sys.executable, str(HERE / "orb_harness.py"), "--state-dir", str(state_dir),
                "--delays", json.dumps({**DELAYS, **(delays or {})})]
        if not window:
            args.append("--no-window")
        if not fake_controls:
            args.append("--real-controls")
        self.proc = subprocess.Popen(args, env={**os.environ, **env, "PYTHONPATH": str(ROOT)},
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()
        self._ids = iter(range(1, 1 << 30))
        self.ready = self._next(timeout_s)
        if "ready" not in self.ready:
            raise RuntimeError(f"the orb harness did not start: {self.ready}")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def ask(self, cmd: str, timeout_s: float = 20.0, **args: Any) -> dict[str, Any]:
        ident = next(self._ids)
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"id": ident, "cmd": cmd, **args}) + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout_s
        while True:
            answer = self._next(max(0.01, deadline - time.monotonic()))
            if answer.get("id") == ident:
                if "error" in answer:
                    raise RuntimeError(f"harness {cmd}: {answer['error']}")
                return answer

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                self.ask("quit", timeout_s=5.0)
            except (RuntimeError, BrokenPipeError, OSError):
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def stderr(self) -> str:
        return "".join(self._stderr)

    def _next(self, timeout_s: float) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty:
            raise RuntimeError(f"no answer from the orb harness within {timeout_s:.1f} s; stderr:\n"
                               f"{self.stderr()[-3000:]}") from None
        if line is None:
            raise RuntimeError(f"the orb harness exited ({self.proc.poll()}); stderr:\n{self.stderr()[-3000:]}")
        return json.loads(line)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("{"):
                self._lines.put(line)
        self._lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self._stderr.append(line)


def _mss(display: str) -> Any:
    import mss

    factory = getattr(mss, "MSS", None) or mss.mss  # mss 10 renamed mss.mss to mss.MSS
    return factory(display=display)


def grab(display: str, box: list[int] | tuple[int, ...]) -> tuple[tuple[int, int], bytes]:
    """(size, RGB bytes) of the screen rectangle ``box`` = (left, top, width, height)."""
    left, top, width, height = box
    with _mss(display) as sct:
        shot = sct.grab({"left": left, "top": top, "width": width, "height": height})
        return shot.size, shot.rgb


def save_png(display: str, box: list[int] | tuple[int, ...], path: Path) -> None:
    import mss.tools

    size, rgb = grab(display, box)
    mss.tools.to_png(rgb, size, output=str(path))


def active_window(xvfb: Any) -> str:
    """The window id ``xdotool getactivewindow`` reports, or "" while none is active (between two
    activations the window manager may have none, and xdotool then fails)."""
    done = subprocess.run(["xdotool", "getactivewindow"], env={**os.environ, **xvfb.env}, capture_output=True,
                          text=True, timeout=20)
    return done.stdout.strip() if done.returncode == 0 else ""


def dominant_colour(rgb: bytes) -> tuple[int, int, int]:
    from collections import Counter

    pixels = Counter(rgb[i:i + 3] for i in range(0, len(rgb) - 2, 3))
    top = pixels.most_common(1)[0][0]
    return top[0], top[1], top[2]


def orb_colour(display: str, orb: list[int]) -> tuple[int, int, int]:
    """The most common colour in a square inside the orb's core (the state colour)."""
    cx, cy, r = orb
    half = max(4, int(r * 0.6))
    return dominant_colour(grab(display, (cx - half, cy - half, 2 * half, 2 * half))[1])


# ----- the harness process --------------------------------------------------------------------

def _focus_name(root: Any) -> str:
    """The Tk widget with the keyboard focus ("" when another application has it)."""
    try:
        return str(root.focus_get() or "")
    except KeyError:  # the focus is in a widget Tk has no Python object for
        return "?"


def _event_from(spec: dict[str, Any]) -> Any:
    from anovax.events import Event, EventType

    fields = {k: v for k, v in spec.items() if k in ("command_id", "agent_id", "tool", "params", "error", "data")}
    fields.setdefault("command_id", "test")
    return Event(type=EventType(spec["type"]), **fields)


class Harness:
    def __init__(self, args: argparse.Namespace) -> None:
        from anovax.app import build_assistant
        from anovax.desktop.simulated import SimulatedDesktop
        from anovax.memory import Memory
        from anovax.settings import Settings

        state = Path(args.state_dir)
        settings = Settings(planner="offline", memory_path=state / "memory.json", log_path=None,
                            pictures_dir=state / "pictures")
        self.desktop = SimulatedDesktop.plausible(delays=json.loads(args.delays), pictures_dir=state / "pictures")
        self.assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=self.desktop)
        self.window: Any = None
        self.calls: list[list[Any]] = []
        #: how each question started with "ask" ended (Reply.to_dict), in order
        self.replies: list[dict[str, Any]] = []
        self._out = threading.Lock()

    def controls(self, fake: bool) -> Any:
        from dataclasses import replace

        from anovax.orb.controls import OrbControls, RemoteInfo

        controls = OrbControls.for_assistant(self.assistant)
        if not fake:
            return controls

        def set_muted(on: bool) -> bool:
            self.calls.append(["set_muted", on])
            return on

        remote = {"on": False, "code": 0}

        def remote_status() -> RemoteInfo | None:
            # like the real remote, every look after a pairing gives a fresh one-time link
            self.calls.append(["remote_status"])
            if not remote["on"]:
                return None
            remote["code"] += 1
            return RemoteInfo("http://192.0.2.10:8765", f"http://192.0.2.10:8765/pair?code=7f3a9c2e{remote['code']}")

        def remote_toggle(on: bool) -> RemoteInfo | None:
            self.calls.append(["remote_toggle", on])
            remote["on"] = on
            return remote_status()

        from anovax.events import EventType

        def hold_to_talk(held: bool) -> None:
            # as VoiceInput.hold_to_talk does: the state the orb shows while the button is held
            self.calls.append(["hold_to_talk", held])
            self.assistant.bus.emit(EventType.VOICE_STATE, "voice", data={
                "state": "talking" if held else "listening", "detail": "listening (key held)" if held else ""})

        stop = controls.stop

        def stop_and_record() -> None:
            self.calls.append(["stop"])
            stop()

        return replace(controls, set_muted=set_muted, hold_to_talk=hold_to_talk, remote_toggle=remote_toggle, remote_status=remote_status,
                       stop=stop_and_record,
                       remote_unban=lambda: self.calls.append(["remote_unban"]),
                       return_focus=lambda: self.calls.append(["return_focus"]))

    def send(self, answer: dict[str, Any]) -> None:
        with self._out:
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()

    # -- commands, run on the Tk thread ------------------------------------------------------

    def handle(self, request: dict[str, Any]) -> None:
        ident = request.get("id")
        try:
            answer = getattr(self, f"cmd_{request['cmd']}")(request)
        except Exception as exc:  # noqa: BLE001 - the client gets the error instead of a hang
            self.send({"id": ident, "error": f"{type(exc).__name__}: {exc}"})
            return
        if answer is not None:
            self.send({"id": ident, **answer})

    def cmd_geometry(self, _request: dict[str, Any]) -> dict[str, Any]:
        from anovax.orb.placement import window_corner

        w = self.window
        root = w.root
        root.update_idletasks()
        cx, cy, r = w.orb.centre()

        def box(widget: Any) -> list[int]:
            return [widget.winfo_rootx(), widget.winfo_rooty(), widget.winfo_width(), widget.winfo_height()]

        chips = {a: box(label) for a, (label, _tip) in w.chips._labels.items()}
        return {"window": box(root), "frame": list(window_corner(root)), "xid": str(int(root.wm_frame(), 16)),
                "screen": [root.winfo_screenwidth(), root.winfo_screenheight()], "reply": box(w.reply.text),
                "state_label": box(w.state_label), "drags": w.drag.drags,
                "orb": [w.orb.widget.winfo_rootx() + cx, w.orb.widget.winfo_rooty() + cy, r],
                "entry": box(w.entry), "chips": chips,
                "buttons": {n: box(getattr(w, f"{n}_button")) for n in ("mute", "stop", "phone", "pin", "size")},
                "qr": box(w.qr_label) if w.remote is not None else None,
                "yes": box(w.question.yes_button) if w.question.shown is not None else None,
                "no": box(w.question.no_button) if w.question.shown is not None else None,
                "countdown": box(w.question.countdown_label) if w.question.shown is not None else None}

    def cmd_inspect(self, _request: dict[str, Any]) -> dict[str, Any]:
        w = self.window
        snap = w.snapshot()
        tips = {a: tip.showing for a, (_label, tip) in w.chips._labels.items()}
        tips.update({name: tip.showing for name, tip in w._tips.items()})
        return {"state": snap.state.value, "state_label": w.state_label.cget("text"),
                "detail": w.detail_label.cget("text"), "chips": w.chips.texts(), "timer_chips": w.timer_chips.texts(),
                "alert": w.timer_chips.alert_text(),
                "chip_states": [c.state.value for c in snap.chips],
                "response": w.reply.value, "reply_scrolls": w.reply.scrollable, "history": w.history.texts(),
                "history_shown": bool(w.history.frame.winfo_ismapped()),
                "entry": w.entry.get(), "muted": w.muted, "remote": w.remote is not None,
                "mute_label": w.mute_button.cget("text"), "mute_enabled": str(w.mute_button.cget("state")) == "normal",
                "remote_text": w.remote_label.cget("text") if w.remote is not None else "",
                "remote_url": w.remote.pairing_url if w.remote is not None else "",
                "viewers": w.viewers_label.cget("text"), "on_top": bool(w.root.attributes("-topmost")),
                "expanded": w.prefs.expanded, "tooltips": {k: v for k, v in tips.items() if v},
                "kinds": self.desktop.kinds(), "typed": self.desktop.typed_text, "calls": self.calls,
                "stats": vars(w.stats).copy(), "focus_decisions": [list(d) for d in w.focus.decisions],
                "given_back": w.focus.given_back, **self._question(w)}

    @staticmethod
    def _question(w: Any) -> dict[str, Any]:
        panel = w.question
        shown = panel.shown is not None and bool(panel.frame.winfo_ismapped())
        return {"question": panel.question_label.cget("text") if shown else "",
                "question_target": panel.target_label.cget("text") if shown else "",
                "countdown": panel.countdown_label.cget("text") if shown else "", "question_armed": panel.armed,
                "answered": panel.note_label.cget("text") if panel.note_label.winfo_ismapped() else "",
                "focus": _focus_name(w.root)}

    def cmd_ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Hold a question as the command worker would (from a thread of its own); its reply is
        appended to ``replies`` (cmd "replies") when it ends."""
        confirmations = self.assistant.confirmations
        question = confirmations.new_question(request.get("command_id", "held"), request["question"],
                                              request.get("steps", []), request.get("target", "xterm"))
        threading.Thread(target=lambda: self.replies.append(confirmations.ask(question).to_dict()),
                         name="asker", daemon=True).start()
        return {"question_id": question.question_id}

    def cmd_replies(self, _request: dict[str, Any]) -> dict[str, Any]:
        return {"replies": list(self.replies), "frontends": list(self.assistant.confirmations.frontends())}

    def cmd_answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """Another front end (a phone, the voice) answers."""
        return {"ok": self.assistant.confirmations.answer(request["question_id"], bool(request["yes"]),
                                                          request.get("frontend", "phone"))}

    def cmd_emit(self, request: dict[str, Any]) -> dict[str, Any]:
        for spec in request["events"]:
            self.assistant.bus.publish(_event_from(spec))
        return {"ok": True}

    def cmd_submit(self, request: dict[str, Any]) -> dict[str, Any]:
        self.window.controls.submit(request["text"])
        return {"ok": True}

    def cmd_quit(self, _request: dict[str, Any]) -> dict[str, Any]:
        self.send({"id": _request.get("id"), "ok": True})
        self.window.close()
        return None  # type: ignore[return-value]

    def cmd_burst(self, request: dict[str, Any]) -> None:
        """Publish ``n`` events over ``seconds`` from another thread while an ``after`` probe
        chain measures how late Tk runs its callbacks; answer when the window has caught up."""
        from anovax.events import EventType

        n, seconds, probe_ms = int(request.get("n", 1000)), float(request.get("seconds", 1.0)), 20
        w, bus = self.window, self.assistant.bus
        before = vars(w.stats).copy()
        lates: list[float] = []
        finished = threading.Event()
        kinds = (EventType.AGENT_SPAWNED, EventType.AGENT_STARTED, EventType.AGENT_DONE)

        def publish() -> None:
            start = time.perf_counter()
            for i in range(n):
                pause = start + i * seconds / n - time.perf_counter()
                if pause > 0:
                    time.sleep(pause)
                bus.emit(kinds[i % 3], "burst", agent_id=f"burst.{i // 3}", tool="type_text",
                         params={"text": f"flood {i // 3}"})
            finished.set()

        def probe(due: float) -> None:
            lates.append(max(0.0, time.perf_counter() - due))
            caught_up = finished.is_set() and w.stats.events - before["events"] >= n
            if caught_up:
                ms = sorted(x * 1000 for x in lates)
                after = vars(w.stats)
                self.send({"id": request.get("id"), "probes": len(ms), "max_late_ms": ms[-1],
                           "p50_late_ms": ms[len(ms) // 2], "events": after["events"] - before["events"],
                           "redraws": after["redraws"] - before["redraws"], "biggest_batch": after["biggest_batch"],
                           "seconds": time.perf_counter() - started})
                return
            w.root.after(probe_ms, probe, time.perf_counter() + probe_ms / 1000)

        started = time.perf_counter()
        threading.Thread(target=publish, name="burst", daemon=True).start()
        w.root.after(probe_ms, probe, time.perf_counter() + probe_ms / 1000)
        return None

    # -- stdin -------------------------------------------------------------------------------

    def read_commands(self, deliver: Any, at_eof: Any) -> None:
        for line in sys.stdin:
            line = line.strip()
            if line:
                request = json.loads(line)
                deliver(lambda r=request: self.handle(r))
        deliver(at_eof)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--state-dir", required=True)
    parser.add_argument("--delays", default=json.dumps(DELAYS))
    parser.add_argument("--no-window", action="store_true", help="the assistant alone (the CPU baseline)")
    parser.add_argument("--real-controls", action="store_true", help="only what an Assistant provides")
    args = parser.parse_args()
    os.environ["XDG_STATE_HOME"] = args.state_dir
    harness = Harness(args)
    if args.no_window:  # only "emit" and "quit" make sense here
        done = threading.Event()

        def quit_(request: dict[str, Any]) -> None:
            harness.send({"id": request.get("id"), "ok": True})
            done.set()
        harness.cmd_quit = quit_  # type: ignore[method-assign]
        harness.send({"ready": True, "pid": os.getpid()})
        threading.Thread(target=harness.read_commands, args=(lambda fn: fn(), done.set), daemon=True).start()
        done.wait()
        harness.assistant.close()
        return 0

    import tkinter as tk

    from anovax.orb.run import attach_window
    from anovax.orb.store import prefs_path
    from anovax.orb.view import OrbWindow

    root = tk.Tk(className="AnovaX")
    window = OrbWindow(root, harness.controls(not args.real_controls), prefs_path=prefs_path())
    harness.window = window
    attach_window(harness.assistant.bus, window.feed)  # as run_orb does
    threading.Thread(target=harness.read_commands, args=(window.call_soon, window.close), daemon=True).start()

    def announce() -> None:
        root.update_idletasks()
        harness.send({"ready": True, "pid": os.getpid(), **harness.cmd_geometry({})})
    # once mapped, so the geometry is where the window really is
    root.after(200, lambda: window.call_soon(announce))
    root.mainloop()
    harness.assistant.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
