"""A tiny Tk window the desktop tests type into: it mirrors its Text buffer to a file.

Usage: python text_target.py OUT_FILE [--title TITLE] [--ready READY_FILE] [--busy-ms MS] [--doze-ms MS]
                             [--peer-ms MS] [--answer-ms MS] [--helper-ms MS] [--stop] [--spin]

Why a file: the test process cannot look inside another process's widget, so
the widget's content is written (atomically, via rename) every time it changes;
tests poll that file with a deadline. READY_FILE is written once the Text has the
focus, so a test that starts the window itself knows when typing can start.

Like many real apps, Tk maps the toplevel a few milliseconds before the widgets inside
it, and keys that arrive in between are lost: the desktop's launch check has to wait for
the window to settle (anovax.desktop.x11), and this window is a fair test of that.
``--busy-ms`` widens that gap the way a starved machine does: the empty toplevel is shown,
then the app computes for MS before it creates its Text. ``--doze-ms`` is the same gap while
the app sleeps with input it has not read yet, as an app with the window manager's events
waiting in its X connection does when the machine is starved. ``--peer-ms`` is the same gap
spent asleep in a round trip whose request the other side has not read yet (another process
reads it after MS and answers), as an app waiting on a starved X server. ``--answer-ms`` is the same
gap in a round trip whose request the other side reads at once and answers only after MS, as an
app in a D-Bus call at start-up whose service takes its time. ``--helper-ms`` is the same gap
spent asleep waiting for a thread of its own that computes, as Tk's main thread waits for its
notifier thread (to poll its sockets before idle work such as mapping the Text) when that thread
is not given the CPU. ``--stop`` is the same gap
spent stopped (it sends itself SIGSTOP until someone sends SIGCONT), as an app the machine does not
run: a stalled machine. ``--spin`` is an app that never
idles: once up, it computes all the time and handles events between slices.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import tkinter as tk
from pathlib import Path

#: how often the buffer is compared with the last written copy (ms)
POLL_MS = 20


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--title", default="AnovaX text target")
    parser.add_argument("--ready", type=Path)
    parser.add_argument("--class", dest="class_name", help="WM_CLASS (how a launched copy is recognised)")
    parser.add_argument("--busy-ms", type=int, default=0, help="compute this long between toplevel and Text")
    parser.add_argument("--doze-ms", type=int, default=0, help="sleep this long between toplevel and Text")
    parser.add_argument("--peer-ms", type=int, default=0,
                        help="wait this long for another process to read a request and answer it")
    parser.add_argument("--answer-ms", type=int, default=0,
                        help="wait this long between toplevel and Text for an answer to a request read at once")
    parser.add_argument("--helper-ms", type=int, default=0,
                        help="wait this long for a thread of its own that computes meanwhile")
    parser.add_argument("--stop", action="store_true", help="stop (SIGSTOP) between toplevel and Text")
    parser.add_argument("--spin", action="store_true", help="never idle once up")
    args = parser.parse_args()

    root = tk.Tk(className=args.class_name) if args.class_name else tk.Tk()
    root.title(args.title)
    root.geometry("600x300+40+40")
    if args.busy_ms:
        root.update()  # the empty toplevel goes up; nothing is handled while the app computes
        spin(args.busy_ms / 1000)
    if args.doze_ms:
        root.update()
        # asleep with input waiting: whether the window manager's events are still in the X
        # connection by now depends on who got the CPU first, so a socket of its own holds
        # unread bytes for the whole nap (what the launch check asks the kernel about)
        waiting, sender = socket.socketpair()
        sender.send(b"event")
        time.sleep(args.doze_ms / 1000)
        waiting.recv(64)
    if args.peer_ms:
        root.update()
        round_trip(args.peer_ms)
    if args.answer_ms:
        through_the_focus(root)  # nothing unread meanwhile: only the answer keeps it
        round_trip(args.answer_ms, _ANSWERER)
    if args.helper_ms:
        through_the_focus(root)  # nothing unread meanwhile: only the thread makes this app busy
        helper = threading.Thread(target=spin, args=(args.helper_ms / 1000,))
        helper.start()
        helper.join()
    if args.stop:
        root.update()
        os.kill(os.getpid(), signal.SIGSTOP)
    text = tk.Text(root)
    text.pack(fill="both", expand=True)
    # the Text is this toplevel's focus from the start, as in a real editor; the window itself
    # waits for the window manager to give it the focus (no focus_force: real apps don't)
    text.focus_set()
    last: list[str | None] = [None]
    if os.environ.get("TEXT_TARGET_JOURNAL"):
        # what reached Tk, for a failing test to show: focus changes and the keys Tk delivered
        # (off by default: the benchmarks time this app's typing)
        journal = args.out.with_suffix(".journal").open("a", encoding="utf-8", buffering=1)

        def note(kind: str, event: tk.Event) -> None:
            journal.write(f"{time.monotonic():.3f} {kind} {event.widget} {getattr(event, 'keysym', '')}"
                          f" {getattr(event, 'detail', '')}\n")

        for kind in ("FocusIn", "FocusOut", "KeyPress", "Map"):
            root.bind_all(f"<{kind}>", lambda event, kind=kind: note(kind, event), add="+")

    def dump() -> None:
        content = text.get("1.0", "end-1c")  # Tk always appends one newline: drop it
        if content != last[0]:
            tmp = args.out.with_suffix(".tmp")
            tmp.write_text(content, encoding="utf-8")
            os.replace(tmp, args.out)
            last[0] = content
        if args.ready and not args.ready.exists() and root.focus_get() is text:
            args.ready.write_text("ready", encoding="utf-8")

    def poll() -> None:
        dump()
        root.after(POLL_MS, poll)

    stopping: list[bool] = []

    def stop(*_: object) -> None:
        stopping.append(True)
        root.after_idle(root.destroy)

    # SIGTERM arrives between Tk events; destroying from the Tk side is a clean exit
    signal.signal(signal.SIGTERM, stop)
    root.after(POLL_MS, poll)
    if args.spin:
        root.after(POLL_MS, lambda: forever(root, stopping))
    root.mainloop()


#: the other side of --peer-ms: reads the request only after a while, then answers
_PEER = "import os, sys, time; time.sleep(int(sys.argv[1]) / 1000); os.read(0, 64); os.write(0, b'answer')"


#: the other side of --answer-ms: reads the request at once, answers after a while
_ANSWERER = "import os, sys, time; os.read(0, 64); time.sleep(int(sys.argv[1]) / 1000); os.write(0, b'answer')"


def round_trip(delay_ms: int, peer_code: str = _PEER) -> None:
    # with _PEER nothing is unread on this side while it waits, only bytes sent that nobody has
    # read yet; with _ANSWERER nothing is in flight at all: it waits on an answer
    mine, theirs = socket.socketpair()
    peer = subprocess.Popen([sys.executable, "-c", peer_code, str(delay_ms)], stdin=theirs)
    theirs.close()
    mine.sendall(b"request")
    mine.recv(64)
    mine.close()
    peer.wait()


def through_the_focus(root: tk.Tk) -> None:
    """Handle everything the window manager sends, up to the focus, so that nothing waits unread."""
    focused: list[bool] = []
    root.bind("<FocusIn>", lambda _: focused.append(True), add="+")
    end = time.monotonic() + 10
    while not focused and time.monotonic() < end:
        root.update()
        time.sleep(0.005)
    for _ in range(10):
        root.update()
        time.sleep(0.005)


def spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def forever(root: tk.Tk, stopping: list[bool]) -> None:
    # the flag, not a TclError, ends the loop: `update` on a destroyed root just returns, so
    # a loop waiting for the error spun on for ever after SIGTERM (a leaked busy process)
    while not stopping:
        spin(0.05)
        try:
            root.update()  # events, the poll and SIGTERM's destroy run here
        except tk.TclError:  # destroyed
            return


if __name__ == "__main__":
    main()
