"""Verified launches and the focus guard (issue 5, points 2 and 3) on Xvfb + openbox.

The "test editor" is the Tk target (tests/targets/text_target.py) behind a script
named ``anovax-test-editor`` on PATH, so launch_app finds it through the app table's
generic fallback. Tk sets no _NET_WM_PID: the window is recognised by its WM_CLASS.
Every assertion waits for observable state (the buffer file, the active window).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from anovax.desktop import idle, x11
from anovax.desktop.base import TYPE_CHUNK_CHARS, CancelToken
from anovax.desktop.linux import LinuxDesktop
from anovax.speech.engine import ConsoleSpeech
from anovax.desktop.x11 import X11Focus
from anovax.errors import PermanentToolError, TransientToolError
from helpers import finishes, wait_for

TARGET = Path(__file__).parent / "targets" / "text_target.py"
EDITOR = "anovax-test-editor"
#: shows an empty toplevel, then computes for 0.7 s before its Text exists: a starved machine
SLOW_EDITOR = "anovax-slow-editor"
#: shows an empty toplevel, then sleeps for 0.7 s (events unread) before its Text exists
DOZING_EDITOR = "anovax-dozing-editor"
#: shows an empty toplevel, then sleeps for 0.7 s in a round trip nobody has read yet
PEER_EDITOR = "anovax-waiting-editor"
#: shows an empty toplevel, then sleeps for 0.7 s in a round trip whose request was read at once
ANSWERED_EDITOR = "anovax-answered-editor"
#: shows an empty toplevel, then waits 0.7 s for a thread of its own that computes
HELPED_EDITOR = "anovax-helped-editor"
#: shows an empty toplevel, then stops (SIGSTOP) until it is continued: a machine that stalls
STOPPING_EDITOR = "anovax-stopping-editor"
#: never idle once up (a busy app): the launch must not wait for it forever
SPINNING_EDITOR = "anovax-spinning-editor"
SENTINEL = "|"

pytest.importorskip("tkinter", reason="the target window needs Tk (Debian package python3-tk)")
pytest.importorskip("Xlib", reason="focus checks need python-xlib")


def read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


def journal(path: Path) -> str:
    """What the target's Tk saw (focus changes, delivered keys): for failure messages."""
    return read(path.with_suffix(".journal"))[-3000:]


def wait_text(path: Path, expected: str, timeout_s: float = 5.0) -> None:
    wait_for(lambda: read(path) == expected, timeout_s,
             lambda: f"{path.name} to contain {expected!r} (it has {read(path)!r}); Tk saw:\n{journal(path)}")


@pytest.fixture
def x_env(xvfb, monkeypatch, tmp_path):
    """The private X server, and ``anovax-test-editor`` on PATH writing to $ANOVAX_EDITOR_OUT."""
    if not xvfb.wm:
        pytest.skip("openbox is not installed: without a window manager no window gets the focus")
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed (Debian package xdotool)")
    for key, value in xvfb.env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("TEXT_TARGET_JOURNAL", "1")  # failure messages show what the targets' Tk saw
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / EDITOR
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{TARGET}" "$ANOVAX_EDITOR_OUT" '
                      f'--class {EDITOR} --title "AnovaX test editor"\n')
    script.chmod(0o755)
    for name, extra in ((SLOW_EDITOR, "--busy-ms 700"), (DOZING_EDITOR, "--doze-ms 700"),
                        (PEER_EDITOR, "--peer-ms 700"), (ANSWERED_EDITOR, "--answer-ms 700"), (HELPED_EDITOR, "--helper-ms 700"), (STOPPING_EDITOR, "--stop"), (SPINNING_EDITOR, "--spin")):
        slow = bin_dir / name
        slow.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{TARGET}" "$ANOVAX_EDITOR_OUT" '
                        f'--class {name} --title "{name}" {extra}\n')
        slow.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return xvfb


@pytest.fixture
def desk(x_env):
    d = LinuxDesktop()
    yield d
    for child in d.children:
        child.terminate()
    for child in d.children:
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:  # a target that ignores SIGTERM must not outlive the test
            child.kill()
            pytest.fail(f"{child.args} ignored SIGTERM")
    d.close()


def launch_editor(desk: LinuxDesktop, out: Path, monkeypatch) -> None:
    monkeypatch.setenv("ANOVAX_EDITOR_OUT", str(out))
    assert desk.launch_app(EDITOR, CancelToken()) == f"Opened {EDITOR}"


def start_window(out: Path, title: str, cls: str) -> tuple[subprocess.Popen, int]:
    """A Tk target started by the test itself; returns it and its window id, once it has the focus."""
    ready = out.with_suffix(".ready")
    proc = subprocess.Popen([sys.executable, str(TARGET), str(out), "--ready", str(ready), "--title", title,
                             "--class", cls], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wait_for(lambda: ready.exists() or proc.poll() is not None, 30.0, f"{title} to take the focus")
    focus = X11Focus()
    try:
        window = wait_for(lambda: _active_titled(focus, title), 5.0, f"{title} to be the active window")
    finally:
        focus.close()
    return proc, window


def _active_titled(focus: X11Focus, title: str) -> int | None:
    active = focus.active_window()
    info = focus.describe(active) if active else None
    return active if info and info.title == title else None


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, capture_output=True, timeout=10)


# -- (a) launch, verify, type: 20 runs -------------------------------------------------------


@pytest.fixture
def assistant(x_env, tmp_path):
    """The whole assistant (offline planner, real LinuxDesktop) with "test editor" registered in
    the app table through a settings file, as a user would."""
    from anovax.app import build_assistant
    from anovax.memory import Memory
    from anovax.settings import load_settings

    out = tmp_path / "spoken.txt"
    config = tmp_path / "config.toml"
    config.write_text(
        "[apps]\n"
        f'"test editor" = {{ run = [{json.dumps(sys.executable)}, {json.dumps(str(TARGET))}, {json.dumps(str(out))}, '
        f'"--class", "{EDITOR}", "--title", "AnovaX test editor"], kind = "text" }}\n', encoding="utf-8")
    settings = load_settings({"ANOVAX_LOG": "off", "ANOVAX_MEMORY": str(tmp_path / "memory.json")}, config)
    desk = LinuxDesktop(settings)
    app = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desk, speech=ConsoleSpeech())
    yield app, desk, out
    app.close()
    for child in desk.children:
        child.terminate()
    desk.close()


def test_open_the_test_editor_and_type_hello_world_20_times(assistant):
    from anovax.app import Status

    app, desk, out = assistant
    seconds = []
    for run in range(20):
        out.unlink(missing_ok=True)
        result = app.on_speech("open the test editor and type hello world")
        assert result.status is Status.DONE, result.message
        assert [s.tool for s in result.plan.steps] == ["open_app", "type_text"]  # no wait step
        evidence = desk.launch_evidence()
        assert evidence is not None and evidence.window == desk.target_window
        assert evidence.wm_class == f"{EDITOR}.Anovax-test-editor" and evidence.title == "AnovaX test editor"
        seconds.append(evidence.seconds)
        wait_text(out, "hello world")
        for child in desk.children:
            child.terminate()
        wait_for(lambda: not desk.children, 5.0, "the editor to exit")
    seconds.sort()
    print(f"launch -> verified focus: p50 {seconds[9]:.3f} s, max {seconds[-1]:.3f} s over 20 runs")


# Each of these apps shows an empty toplevel, then spends 0.7 s before its Text exists; keys that
# arrive meanwhile reach the bare toplevel and Tk drops them. Every one is a loss a loaded run
# caught, through a different door:
# - busy: the window tree of an app that had not been given the CPU looked settled (1 launch in 100);
# - asleep with unread events: asleep, but not yet through the events that make it map its Text;
# - asleep in a round trip: nothing unread, but waiting on a request the (starved) X server had
#   not read yet; the bytes it sent are still in its socket, and that is not idle either;
# - asleep in a round trip read but not answered: nothing in flight either way, the other side
#   (a D-Bus service at start-up) has read the request and takes its time to answer (a
#   reviewer's case, not yet a loss seen in a run);
# - asleep waiting for a thread of its own: Tk's main thread waits for its notifier thread to
#   poll its sockets before the idle work that maps the Text, and on a starved machine that
#   thread may not run for a while (a CI run lost "hello world" that way); here the thread computes.
# The launch must be judged ready only after the 0.7 s: the keys are lost only sometimes, so the
# launch's own timing is what makes the test fail every time on a check with that hole.
@pytest.mark.parametrize("editor", [SLOW_EDITOR, DOZING_EDITOR, PEER_EDITOR, ANSWERED_EDITOR, HELPED_EDITOR],
                         ids=["busy", "asleep-with-unread-events", "asleep-in-a-round-trip",
                              "asleep-in-a-round-trip-read-but-not-answered",
                              "asleep-waiting-for-its-own-thread"])
def test_an_app_still_building_its_window_gets_its_keys_once_it_has_built_it(desk, tmp_path, monkeypatch, editor):
    # a read counts as a round trip in an app's first seconds only (idle.READ_WAIT_MAX_S); a
    # loaded machine may take longer than that to bring the editor to its round trip
    monkeypatch.setattr(idle, "READ_WAIT_MAX_S", 600.0)
    out = tmp_path / f"{editor}.txt"
    monkeypatch.setenv("ANOVAX_EDITOR_OUT", str(out))
    assert desk.launch_app(editor, CancelToken()) == f"Opened {editor}"
    evidence = desk.launch_evidence()
    # which check let it through says which hole it was, should the keys be lost
    assert evidence.seconds >= 0.7 and evidence.ready == "quiet", evidence
    assert desk.type_text("hello world", CancelToken()) == len("hello world")
    wait_text(out, "hello world")


def test_an_app_that_never_idles_is_still_launched_and_typed_into(desk, tmp_path, monkeypatch):
    monkeypatch.setattr(x11, "BUSY_APP_MAX_S", 0.5)
    out = tmp_path / "spin.txt"
    monkeypatch.setenv("ANOVAX_EDITOR_OUT", str(out))
    # LAUNCH_MAX_S (60 s) would be the failure; the deadline guards against that hang only
    opened = finishes(lambda: desk.launch_app(SPINNING_EDITOR, CancelToken()), 20.0, "a launch of a busy app")
    assert opened == f"Opened {SPINNING_EDITOR}"
    assert desk.launch_evidence().wm_class.startswith(SPINNING_EDITOR)
    assert desk.launch_evidence().ready == "busy"
    desk.type_text("busy", CancelToken())
    wait_text(out, "busy")


def state_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return ""


def test_an_app_the_machine_does_not_run_while_it_builds_its_window_is_not_taken_for_a_busy_one(desk, tmp_path,
                                                                                                 monkeypatch):
    # A stalled machine (a paused VM, a starved one), or an app stopped meanwhile: its window
    # tree holds still past a busy app's allowance only because nothing ran. The stopping
    # editor stops itself (SIGSTOP) as soon as its bare toplevel is up and is continued three
    # allowances later; a check that went by the clock alone was satisfied before that, and
    # typed into the bare toplevel, where the keys were lost.
    monkeypatch.setattr(x11, "BUSY_APP_MAX_S", 0.3)
    out = tmp_path / "stopped.txt"
    monkeypatch.setenv("ANOVAX_EDITOR_OUT", str(out))
    continued: list[float] = []

    def continue_it_later() -> None:
        wait_for(lambda: desk.children, 10.0, "the editor to start")
        pid = desk.children[0].pid
        wait_for(lambda: state_of(pid) == "T", 10.0, "the editor to stop itself")
        time.sleep(3 * x11.BUSY_APP_MAX_S)
        continued.append(time.monotonic())
        os.kill(pid, signal.SIGCONT)

    waker = threading.Thread(target=continue_it_later, daemon=True)
    waker.start()
    try:
        assert desk.launch_app(STOPPING_EDITOR, CancelToken()) == f"Opened {STOPPING_EDITOR}"
        opened = time.monotonic()
    finally:
        waker.join(20)
    assert continued and opened > continued[0], "the launch was judged ready while the editor was stopped"
    evidence = desk.launch_evidence()
    assert evidence.ready == "quiet", evidence
    assert desk.type_text("hello world", CancelToken()) == len("hello world")
    wait_text(out, "hello world")


def test_an_app_that_never_idles_is_one_whose_tree_held_still_while_it_ran():
    allowance = x11.BUSY_APP_MAX_S
    cpu = int(x11.BUSY_APP_CPU_S * 1e9)
    assert not x11.never_idles(allowance - 0.01, 0, cpu)  # not still for long enough
    assert not x11.never_idles(allowance, 0, cpu - 1)  # still long enough, but it hardly ran
    assert x11.never_idles(allowance, 10, 10 + cpu)
    # its CPU time unknown, or gone backwards (another process now): the clock is all there is
    assert x11.never_idles(allowance, None, None) and x11.never_idles(allowance, 5, None)
    assert x11.never_idles(allowance, cpu, 0)
    assert not x11.never_idles(allowance - 0.01, None, None)


def test_open_app_reports_the_evidence_in_agent_verified(desk, tmp_path, monkeypatch):
    from anovax.events import EventBus, EventType
    from anovax.orchestrator import Orchestrator
    from anovax.plan import Plan, Step

    out = tmp_path / "orch.txt"
    monkeypatch.setenv("ANOVAX_EDITOR_OUT", str(out))
    bus = EventBus()
    orch = Orchestrator(desk, bus)
    try:
        plan = Plan(steps=(Step("open_app", {"name": EDITOR}), Step("type_text", {"text": "hello world"})))
        outcome = orch.dispatch(plan, command_id="c1")
        assert outcome.failed is None, outcome
        wait_text(out, "hello world")
        (verified,) = [e for e in bus.recent() if e.type is EventType.AGENT_VERIFIED and e.tool == "open_app"]
        assert verified.data["window"] == hex(desk.target_window)
        assert verified.data["class"].startswith(EDITOR) and verified.data["title"] == "AnovaX test editor"
        assert verified.data["seconds"] > 0 and "pid" in verified.data and verified.data["ready"] == "quiet"
    finally:
        orch.close()
        bus.close()


# -- (b) a focus thief ------------------------------------------------------------------------


class ThiefToken(CancelToken):
    """Counts the chunks started (each chunk begins with a check) and, as chunk ``steal_at``
    starts, lets another window take the focus: guarded typing is fast (~7,000 chars/s), so a
    thief on a timer would mostly arrive after the last key. The bench fires at random moments."""

    def __init__(self, steal_at: int, steal) -> None:
        super().__init__()
        self.passed, self._steal_at, self._steal = 0, steal_at, steal

    def check(self) -> None:
        super().check()
        self.passed += 1
        if self.passed == self._steal_at:
            self._steal()


def steal_focus(window: int) -> None:
    """Let ``window`` take the focus; return once the X server says it has it, by both signs the
    desktop checks (EWMH active window and keyboard focus). ``windowactivate --sync`` alone can
    return before the window manager has moved both: under two busy loops the typing then passed
    two more focus checks (one CI run), and the theft is meant to land as its chunk starts."""
    xdotool("windowactivate", "--sync", str(window))
    focus = X11Focus()
    try:
        wait_for(lambda: focus.focused(window), 10.0, "the thief's window to have the focus")
    finally:
        focus.close()


def test_focus_thief_stops_typing_and_nothing_lands_in_the_intruder(desk, tmp_path, monkeypatch):
    intruder_out = tmp_path / "intruder.txt"
    intruder, intruder_win = start_window(intruder_out, "AnovaX intruder", "anovax-intruder")
    try:
        out = tmp_path / "editor.txt"
        launch_editor(desk, out, monkeypatch)
        editor_win = desk.target_window
        text = "".join(f"{i:03d}," for i in range(300))  # 1200 characters, 150 chunks
        token = ThiefToken(4, lambda: steal_focus(intruder_win))
        with pytest.raises(PermanentToolError, match="Focus moved to AnovaX intruder"):
            desk.type_text(text, token)
        # stopped in the chunk during which the focus moved, or (when the server still reported the
        # editor's focus at that check, under load) in the next: never later, never typing elsewhere
        assert token.passed in (4, 5)
        typed = (token.passed - 1) * TYPE_CHUNK_CHARS
        # nothing reached the intruder: a sentinel typed into it now arrives alone
        xdotool("type", "--", SENTINEL)
        wait_text(intruder_out, SENTINEL)
        # the editor has exactly the chunks that passed the focus check
        xdotool("windowactivate", "--sync", str(editor_win))
        xdotool("type", "--", SENTINEL)
        wait_for(lambda: read(out).endswith(SENTINEL), 5.0, "the editor's sentinel")
        assert read(out)[: -len(SENTINEL)] == text[:typed], \
            f"editor saw:\n{journal(out)}\nintruder saw:\n{journal(intruder_out)}"
    finally:
        intruder.terminate()
        intruder.wait(5)


def test_press_keys_checks_the_focus_too(desk, tmp_path, monkeypatch):
    intruder, _ = start_window(tmp_path / "intruder.txt", "AnovaX intruder", "anovax-intruder")
    try:
        out = tmp_path / "editor.txt"
        launch_editor(desk, out, monkeypatch)
        desk.type_text("ab", CancelToken())
        desk.press_keys("backspace", CancelToken())
        wait_text(out, "a")
        xdotool("search", "--sync", "--name", "AnovaX intruder", "windowactivate", "--sync")
        with pytest.raises(PermanentToolError, match="Focus moved to AnovaX intruder"):
            desk.press_keys("backspace", CancelToken())
    finally:
        intruder.terminate()
        intruder.wait(5)


# -- (c) non-ASCII into the verified window ----------------------------------------------------


def test_unicode_arrives_intact_in_the_verified_window(desk, tmp_path, monkeypatch):
    out = tmp_path / "uni.txt"
    launch_editor(desk, out, monkeypatch)
    text = "café, naïve, 日本語"
    for _ in range(3):
        desk.type_text(text + "\n", CancelToken())
    wait_text(out, (text + "\n") * 3)


# -- expiry and missing window managers ----------------------------------------------------------


def test_no_window_before_the_ttl_is_a_transient_error(desk, tmp_path, monkeypatch):
    script = Path(os.environ["PATH"].split(os.pathsep)[0]) / "anovax-windowless"
    script.write_text("#!/bin/sh\nexec sleep 30\n")
    script.chmod(0o755)
    monkeypatch.setattr(x11, "LAUNCH_MAX_S", 3600.0)  # only the token can end the wait
    token = CancelToken()
    timer = threading.Timer(0.3, token.cancel, args=("expired",))
    timer.start()
    with pytest.raises(TransientToolError, match="anovax-windowless did not open a window in time"):
        finishes(lambda: desk.launch_app("anovax-windowless", token), 30.0, "the launch after its token expired")
    assert desk.launch_evidence() is None


@pytest.fixture
def bare_xvfb(x_env, tmp_path):
    """A second private X server with no window manager (the shared one keeps its openbox)."""
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "640x480x24", "-nolisten",
                               "tcp", "-noreset"], pass_fds=(write_fd,), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(5)


def test_no_window_manager_is_a_clear_error(bare_xvfb, tmp_path, monkeypatch):
    monkeypatch.setenv("DISPLAY", bare_xvfb)
    monkeypatch.setenv("ANOVAX_EDITOR_OUT", str(tmp_path / "never.txt"))
    desk = LinuxDesktop()
    try:
        with pytest.raises(PermanentToolError, match="No window manager is running"):
            desk.launch_app(EDITOR, CancelToken())
        assert desk.children == []  # refused before starting anything
        # a window manager that was killed leaves stale EWMH properties: still "none"
        wm = subprocess.Popen(["openbox"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        focus = X11Focus()
        try:
            wait_for(focus.wm_running, 10.0, "openbox to start")
            wm.terminate()
            wm.wait(5)
            wait_for(lambda: not focus.wm_running(), 5.0, "the stale WM check to be noticed")
        finally:
            focus.close()
        with pytest.raises(PermanentToolError, match="No window manager is running"):
            desk.launch_app(EDITOR, CancelToken())
    finally:
        desk.close()


def test_a_closed_target_is_forgotten_and_typing_goes_to_the_focused_window(desk, tmp_path, monkeypatch):
    out = tmp_path / "first.txt"
    launch_editor(desk, out, monkeypatch)
    for child in desk.children:
        child.terminate()
    wait_for(lambda: not desk.children, 5.0, "the editor to exit")
    other_out = tmp_path / "other.txt"
    other, _ = start_window(other_out, "AnovaX other", "anovax-other")
    try:
        desk.type_text("still here", CancelToken())  # not "Focus moved to AnovaX other."
        wait_text(other_out, "still here")
        assert desk.target_window is None  # even when X gave the new window the closed one's id
    finally:
        other.terminate()
        other.wait(5)
