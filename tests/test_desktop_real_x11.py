"""LinuxDesktop against a real X server (Xvfb + openbox) and a real Tk window.

The target window (tests/targets/text_target.py) mirrors its Text buffer into a file
on every change; every assertion polls that file with a deadline. Typing order is
proved with a sentinel: X events reach the window in order, so once a sentinel typed
afterwards shows up, everything typed before it has been handled.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from anovax.desktop.base import TYPE_CHUNK_CHARS, Cancelled, CancelToken
from anovax.desktop.linux import LinuxDesktop
from anovax.errors import PermanentToolError
from helpers import wait_for

TARGET = Path(__file__).parent / "targets" / "text_target.py"
SENTINEL = "|"

pytest.importorskip("tkinter", reason="the target window needs Tk (Debian package python3-tk)")




@pytest.fixture
def x_env(xvfb, monkeypatch):
    """This test runs on the private X server."""
    if not xvfb.wm:
        pytest.skip("openbox is not installed: without a window manager no window gets the focus")
    for key, value in xvfb.env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return xvfb


class Target:
    """The Tk window under test: what it contains, and how to wait for it."""

    def __init__(self, out: Path, proc: subprocess.Popen | None = None) -> None:
        self.out = out
        self.proc = proc

    def text(self) -> str:
        try:
            return self.out.read_text(encoding="utf-8")
        except FileNotFoundError:
            return ""

    def wait_text(self, expected: str, timeout_s: float = 5.0) -> str:
        wait_for(lambda: self.text() == expected, timeout_s,
                 lambda: f"the window to contain {expected!r} (it has {self.text()!r})")
        return expected

    def settle(self, desk: LinuxDesktop) -> str:
        """Everything typed so far, once handled: type a sentinel, wait for it, remove it."""
        desk.type_text(SENTINEL, CancelToken())
        wait_for(lambda: self.text().endswith(SENTINEL), 5.0, "the sentinel")
        before = self.text()[: -len(SENTINEL)]
        desk.press_keys("backspace", CancelToken())
        return self.wait_text(before)


@pytest.fixture
def target(x_env, tmp_path):
    out, ready = tmp_path / "buffer.txt", tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, str(TARGET), str(out), "--ready", str(ready)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: ready.exists() or proc.poll() is not None, 30.0, "the target window to take the focus")
        if proc.poll() is not None:
            pytest.fail(f"the target window died: {proc.stderr.read().decode(errors='replace')}")
        yield Target(out, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def desk(x_env):
    d = LinuxDesktop()
    if d.xdotool is None:
        d.close()
        pytest.skip("xdotool is not installed (Debian package xdotool)")
    yield d
    d.close()


# -- typing -----------------------------------------------------------------------------


def test_types_unicode_and_newlines_exactly(target, desk):
    text = "café, naïve, 日本語\nline two"
    assert desk.type_text(text, CancelToken()) == len(text)
    target.wait_text(text)


def test_many_distinct_non_ascii_characters(target, desk):
    # more distinct characters than Xvfb has spare keycodes (18), so bindings get recycled;
    # xdotool alone garbled ~1 in 3 of these lines here (dropped or repeated characters)
    line = "日本語の文章を入力します。漢字とひらがなとカタカナ。Ωμέγα Привет € ½ ß — “quotes” ✓\n"
    text = line * 3
    start = time.monotonic()
    desk.type_text(text, CancelToken())
    elapsed = time.monotonic() - start
    target.wait_text(text)
    print(f"typed {len(text)} non-ASCII-heavy characters in {elapsed:.2f} s ({len(text) / elapsed:.0f}/s)")


def test_a_window_that_falls_behind_still_gets_every_character(target, desk):
    # The window is paused for 0.3 s as typing starts (a busy app, a loaded machine) and then
    # catches up on queued keys. Keycodes are recycled for the 48 distinct characters; a keycode
    # rebound before the window read its earlier keys would turn them into the new character.
    line = "日本語の文章を入力します。漢字とひらがなとカタカナ。Ωμέγα Привет € ½ ß — “quotes” ✓\n"
    text = line * 2
    os.kill(target.proc.pid, signal.SIGSTOP)
    resume = threading.Timer(0.3, os.kill, (target.proc.pid, signal.SIGCONT))
    resume.start()
    try:
        desk.type_text(text, CancelToken())
    finally:
        resume.join()
        os.kill(target.proc.pid, signal.SIGCONT)
    target.wait_text(text, 15.0)


def test_ascii_throughput_and_punctuation(target, desk):
    text = "The quick brown fox <jumps> over the lazy dog; 2+2=4 & {x|y} ~`'\"!\t@#$%^*()_-[]\\/?\n" * 4
    start = time.monotonic()
    desk.type_text(text, CancelToken())
    elapsed = time.monotonic() - start
    target.wait_text(text)
    # a figure, not a check: throughput depends on the machine's load (`make bench` measures it)
    print(f"typed {len(text)} ASCII characters in {elapsed:.2f} s ({len(text) / elapsed:.0f}/s)")


def test_press_keys_edit_the_text(target, desk):
    desk.type_text("hello world", CancelToken())
    target.wait_text("hello world")
    desk.press_keys("backspace", CancelToken())
    target.wait_text("hello worl")
    desk.press_keys("ctrl+a", CancelToken())  # in a Tk Text widget: start of line, not select-all
    desk.type_text(">", CancelToken())
    target.wait_text(">hello worl")
    desk.press_keys("End", CancelToken())
    desk.press_keys("shift+Home", CancelToken())
    desk.press_keys("delete", CancelToken())
    target.wait_text("")
    desk.press_keys("enter, enter", CancelToken())
    target.wait_text("\n\n")


class CancelOnCheck(CancelToken):
    """Cancels itself at its n-th check: "the janitor fired right after chunk n-1"."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n, self.checks = n, 0

    def check(self) -> None:
        self.checks += 1
        if self.checks == self.n:
            self.cancel("expired")
        super().check()


class CountingToken(CancelToken):
    """Remembers how many chunks had been started (checks passed) when it was cancelled."""

    def __init__(self) -> None:
        super().__init__()
        self.passed = 0
        self.passed_at_cancel: int | None = None

    def check(self) -> None:
        super().check()
        self.passed += 1

    def cancel(self, reason: str = "cancelled") -> None:
        if self.passed_at_cancel is None:
            self.passed_at_cancel = self.passed
        super().cancel(reason)


def test_cancel_after_the_first_chunk_types_exactly_one_chunk(target, desk):
    text = "0123456789abcdefghijklmnopqrstuvwxyz" * 3
    with pytest.raises(Cancelled, match="expired"):
        desk.type_text(text, CancelOnCheck(2))
    assert target.settle(desk) == text[:TYPE_CHUNK_CHARS]


def test_cancel_from_another_thread_stops_within_one_chunk(target, desk):
    text = "".join(f"{i:03d}," for i in range(300))  # 1200 characters, ~1.5 s of typing
    token = CountingToken()

    def janitor() -> None:  # cancels as soon as the first chunk is visible in the window
        wait_for(lambda: len(target.text()) >= TYPE_CHUNK_CHARS, 5.0, "the first chunk")
        token.cancel("expired")

    thread = threading.Thread(target=janitor, name="test-janitor")
    thread.start()
    with pytest.raises(Cancelled):
        desk.type_text(text, token)
    thread.join()
    typed = target.settle(desk)
    assert text.startswith(typed)
    assert token.passed_at_cancel is not None
    # every chunk started before the cancel may finish; none after it starts
    assert TYPE_CHUNK_CHARS <= len(typed) <= token.passed_at_cancel * TYPE_CHUNK_CHARS < len(text)


def test_pyautogui_fallback_types_ascii_and_refuses_the_rest(target, x_env):
    pytest.importorskip("pyautogui")
    fallback = LinuxDesktop(use_xdotool=False)
    try:
        text = "a<b>c, {x|y} \"q\" 50% ~ok?\nnext\tline"
        fallback.type_text(text, CancelToken())
        target.wait_text(text)  # pyautogui alone types "a>b>c": linux.fix_pyautogui_shifted_keys
        with pytest.raises(PermanentToolError, match="xdotool"):
            fallback.type_text("café", CancelToken())
        fallback.press_keys("ctrl+a", CancelToken())
        fallback.type_text("#", CancelToken())
        target.wait_text("a<b>c, {x|y} \"q\" 50% ~ok?\n#next\tline")
    finally:
        fallback.close()


# -- screen, apps ---------------------------------------------------------------------------


def test_screenshot_is_a_real_png_of_the_screen(target, desk, tmp_path):
    from PIL import Image

    from anovax.settings import load_settings

    desk._settings = load_settings({"ANOVAX_PICTURES": str(tmp_path / "pics")})  # as a user sets it
    path = desk.screenshot(CancelToken())
    assert path.parent == tmp_path / "pics" and path.name.startswith("anovax-") and path.suffix == ".png"
    with Image.open(path) as img:
        assert img.format == "PNG" and img.size == (1280, 800)
        # the white Tk window on the black root: not a blank frame
        assert len(img.convert("L").getcolors(256) or []) > 1
    assert desk.screenshot(CancelToken()) != path  # same second: a new name, not an overwrite


def test_launch_app_via_the_path_fallback_shows_a_window_and_is_reaped(x_env, desk, tmp_path, monkeypatch):
    out, ready = tmp_path / "launched.txt", tmp_path / "launched.ready"
    launcher = tmp_path / "bin" / "anovaxtarget"
    launcher.parent.mkdir()
    launcher.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{TARGET}' '{out}' --ready '{ready}' --class anovaxtarget\n")
    launcher.chmod(0o755)
    monkeypatch.setenv("PATH", f"{launcher.parent}{os.pathsep}{os.environ['PATH']}")
    assert desk.launch_app("anovaxtarget", CancelToken()) == "Opened anovaxtarget"
    wait_for(ready.exists, 30.0, "the launched window to take the focus")
    desk.type_text("typed into the launched app", CancelToken())
    Target(out).wait_text("typed into the launched app")
    (child,) = desk.children
    os.kill(child.pid, signal.SIGTERM)
    wait_for(lambda: not Path(f"/proc/{child.pid}").exists(), 5.0, "the reaper to collect the app")


@pytest.mark.skipif(not shutil.which("xterm"), reason="xterm is not installed")
def test_launch_terminal_from_the_table(x_env, desk):
    before = set(_xterm_windows())
    desk.launch_app("terminal", CancelToken())
    wait_for(lambda: set(_xterm_windows()) - before, 10.0, "an xterm window")
    for child in desk.children:
        child.terminate()
    wait_for(lambda: not desk.children, 5.0, "the reaper to collect the terminal")


def _xterm_windows() -> list[str]:
    done = subprocess.run(["xdotool", "search", "--class", "xterm"], capture_output=True, text=True, timeout=5)
    return done.stdout.split()


def test_make_real_desktop_picks_linux_on_a_display(x_env, tmp_path):
    from anovax.desktop import make_desktop

    desk = make_desktop(SimpleNamespace(pictures_dir=tmp_path))
    try:
        assert isinstance(desk, LinuxDesktop) and desk.name == "linux"
        assert desk.now().tzinfo is not None
        assert not hasattr(desk, "speak")  # speech out is a port of its own (anovax.speech)
    finally:
        desk.close()
    assert "tts" not in [t.name for t in threading.enumerate()]
