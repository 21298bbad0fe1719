"""The real desktop adapters' pure parts and everything that needs no screen.

App tables, key names, URL and text checks, screenshot naming, the speech thread
(with scripted engines and with real pyttsx3 + espeak), launching and reaping real
processes, and open_url through a fake $BROWSER. The X11 parts are in
test_desktop_real_x11.py.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from anovax.desktop import apps, real
from anovax.desktop.base import Cancelled, CancelToken
from anovax.desktop.linux import LinuxDesktop
from anovax.desktop.typing import (
    X_KEYSYMS,
    keysym_for_char,
    parse_chords,
    prepare_text,
    pyautogui_chord,
    split_runs,
    utf16_units,
    xdotool_chord,
)
from anovax.desktop.windows import KEYEVENTF_KEYUP, KEYEVENTF_UNICODE, unicode_events
from anovax.errors import ConfigError, PermanentToolError, TransientToolError
from anovax.safety import keys as safety_keys
from anovax.speech import engine as speech
from anovax.speech.engine import TtsThread
from helpers import finishes, in_thread, wait_for




# -- app tables ------------------------------------------------------------------------


@pytest.mark.parametrize("platform", ["linux", "windows", "macos"])
def test_every_name_resolves_to_its_first_installed_candidate(platform):
    for app in apps.TABLES[platform]:
        for name in app.names:
            resolved = apps.resolve(name, platform, lambda target: f"/found/{target}")
            first = app.candidates[0]
            expected = first if platform == "macos" else (f"/found/{first[0]}", *first[1:])
            assert resolved.argv == expected, name


@pytest.mark.parametrize("platform", ["linux", "windows", "macos"])
def test_no_name_is_claimed_by_two_apps(platform):
    apps.index(apps.TABLES[platform])  # raises on a duplicate


def test_linux_notepad_falls_through_to_what_is_installed():
    installed = {"kate": "/usr/bin/kate", "xcalc": "/usr/bin/xcalc"}
    resolved = apps.resolve("  The Notepad app ", "linux", installed.get)
    assert resolved == apps.ResolvedApp("notepad", ("/usr/bin/kate",))
    assert apps.resolve("calculator", "linux", installed.get).argv == ("/usr/bin/xcalc",)


def test_unknown_or_uninstalled_app_says_so():
    with pytest.raises(PermanentToolError) as err:
        apps.resolve("Frobnicator 3000", "linux", lambda _: None)
    assert err.value.message == "I couldn't find an app called Frobnicator 3000 on this computer."
    with pytest.raises(PermanentToolError, match="app called calculator on this"):
        apps.resolve("calculator", "linux", lambda _: None)


def test_generic_fallback_runs_plain_installed_commands_only():
    installed = {"gimp": "/usr/bin/gimp", "reboot": "/sbin/reboot", "sudo": "/usr/bin/sudo"}
    assert apps.resolve("GIMP", "linux", installed.get).argv == ("/usr/bin/gimp",)
    for refused in ("reboot", "sudo", "../gimp", "gimp --batch", "/usr/bin/gimp", "-gimp"):
        with pytest.raises(PermanentToolError):
            apps.resolve(refused, "linux", installed.get)


def test_windows_table_runs_exes_directly_and_fallback_refuses_scripts():
    for app in apps.WINDOWS_APPS:
        for argv in app.candidates:
            assert argv[0].lower().endswith(".exe") and argv[0].lower() != "start"
    found = {"notepad.exe": r"C:\Windows\notepad.exe", "tool": r"C:\bin\tool.BAT", "paint.net": r"C:\p\paint.net.exe"}
    assert apps.resolve("notepad", "windows", found.get).argv == (r"C:\Windows\notepad.exe",)
    assert apps.resolve("paint.net", "windows", found.get).argv == (r"C:\p\paint.net.exe",)
    with pytest.raises(PermanentToolError):
        apps.resolve("tool", "windows", found.get)


def test_mac_uses_open_a_and_finds_bundles(tmp_path):
    (tmp_path / "TextEdit.app").mkdir()
    (tmp_path / "GIMP.app").mkdir()

    def find(bundle):
        return apps.find_mac_bundle(bundle, (str(tmp_path), str(tmp_path / "missing")))

    assert apps.resolve("text editor", "macos", find).argv == ("open", "-a", "TextEdit")
    assert apps.resolve("gimp", "macos", find).argv == ("open", "-a", "GIMP")
    with pytest.raises(PermanentToolError):
        apps.resolve("calculator", "macos", find)


def test_platform_finder_uses_which_and_checks_absolute_paths(tmp_path):
    exe = tmp_path / "prog"
    exe.write_text("")
    find = apps.platform_finder("linux", lambda name: f"/bin/{name}" if name == "xterm" else None)
    assert find("xterm") == "/bin/xterm"
    assert find("nope") is None
    assert find(str(exe)) == str(exe)
    assert find(str(tmp_path / "absent")) is None


# -- keys and text ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "xdotool"),
    [
        ("ctrl+s", "ctrl+s"), ("Control+Shift+T", "ctrl+shift+t"), ("alt+tab", "alt+Tab"),
        ("enter", "Return"), ("return", "Return"), ("esc", "Escape"), ("backspace", "BackSpace"),
        ("delete", "Delete"), ("pageup", "Prior"), ("page down", "Next"), ("up", "Up"), ("f5", "F5"),
        ("f12", "F12"), ("space", "space"), ("win+e", "super+e"), ("cmd+space", "super+space"),
        ("super+d", "super+d"), ("ctrl++", "ctrl+plus"), ("ctrl+,", "ctrl+comma"), ("shift+ctrl+z", "ctrl+shift+z"),
    ],
)
def test_key_chords_map_to_x_keysyms(keys, xdotool):
    (chord,) = parse_chords(keys)
    assert xdotool_chord(chord) == xdotool


def test_sequences_and_unknown_keys():
    assert parse_chords("ctrl+a, delete") == (("ctrl", "a"), ("delete",))
    for bad in ("ctrl+frob", "", "fn+f1", "ctrl+é"):
        with pytest.raises(PermanentToolError):
            parse_chords(bad)


def test_keysym_table_is_valid_x_and_in_the_safety_vocabulary():
    import ctypes
    import ctypes.util

    libx11 = ctypes.util.find_library("X11")
    if not libx11:
        pytest.skip("libX11 is not installed")
    # the parser xdotool itself uses for key names
    string_to_keysym = ctypes.CDLL(libx11).XStringToKeysym
    string_to_keysym.argtypes, string_to_keysym.restype = [ctypes.c_char_p], ctypes.c_ulong
    for name, keysym in X_KEYSYMS.items():
        assert safety_keys.normalise(name) == name
        if keysym not in ("ctrl", "alt", "shift", "super"):  # xdotool's own aliases
            assert string_to_keysym(keysym.encode()) != 0, keysym


def test_pyautogui_names_per_platform():
    assert pyautogui_chord(("win", "e"), "windows") == ["win", "e"]
    assert pyautogui_chord(("win", "c"), "macos") == ["command", "c"]
    assert pyautogui_chord(("escape",), "linux") == ["esc"]


def test_text_preparation():
    assert prepare_text("a\r\nb\rc\td") == "a\nb\nc\td"
    for bad in ("a\x1bb", "\x07", "x\x85"):
        with pytest.raises(PermanentToolError, match="control character"):
            prepare_text(bad)
    assert split_runs("ab日本c\n") == [(True, "ab"), (False, "日本"), (True, "c\n")]
    assert keysym_for_char("é") == 0xE9 and keysym_for_char("日") == 0x010065E5


def test_windows_unicode_events_use_utf16_units():
    assert utf16_units("é😀") == [0xE9, 0xD83D, 0xDE00]
    events = unicode_events("😀")
    assert events == [(0xD83D, KEYEVENTF_UNICODE), (0xD83D, KEYEVENTF_UNICODE | KEYEVENTF_KEYUP),
                      (0xDE00, KEYEVENTF_UNICODE), (0xDE00, KEYEVENTF_UNICODE | KEYEVENTF_KEYUP)]


def test_typing_refuses_what_it_cannot_type_before_typing_anything():
    desk = LinuxDesktop(env={"DISPLAY": ":999"}, use_xdotool=False)
    try:
        with pytest.raises(PermanentToolError, match="xdotool"):
            desk.type_text("plain then café", CancelToken())
    finally:
        desk.close()
    wayland = LinuxDesktop(env={"WAYLAND_DISPLAY": "wayland-0"})
    try:
        with pytest.raises(PermanentToolError, match="Wayland"):
            wayland.type_text("hi", CancelToken())
        with pytest.raises(PermanentToolError, match="Wayland"):
            wayland.press_keys("enter", CancelToken())
    finally:
        wayland.close()


# -- make_real_desktop, URLs, screenshot names -------------------------------------------


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux display check")
def test_no_display_is_a_config_error():
    with pytest.raises(ConfigError, match="^No display: AnovaX can't act on a desktop here"):
        real.make_real_desktop(None, env={})


def test_importing_the_adapters_loads_no_gui_library():
    code = ("import sys, anovax.desktop.real, anovax.desktop.linux, anovax.desktop.windows, anovax.desktop.macos;"
            "print(sorted(m for m in ('pyautogui', 'mss', 'pyttsx3', 'Xlib', 'tkinter') if m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("url", ["https://example.org/a?b=c", "http://localhost:8080/"])
def test_http_urls_pass(url):
    assert real.check_url(url) == url


@pytest.mark.parametrize("url", ["file:///etc/passwd", "javascript:alert(1)", "ftp://x.org", "www.example.org",
                                 "https://", "http://exa mple.org", "HTTPS:/x", "data:text/html,hi"])
def test_other_urls_are_refused(url):
    with pytest.raises(PermanentToolError, match="http:// or https://|spaces"):
        real.check_url(url)


def test_screenshot_names_never_collide(tmp_path):
    when = dt.datetime(2024, 1, 2, 3, 4, 5)
    first = real.screenshot_path(tmp_path, when)
    assert first == tmp_path / "anovax-20240102-030405.png"
    first.touch()
    second = real.screenshot_path(tmp_path, when)
    assert second.name == "anovax-20240102-030405-2.png"
    second.touch()
    assert real.screenshot_path(tmp_path, when).name == "anovax-20240102-030405-3.png"


def test_pictures_folder_choice(tmp_path, monkeypatch):
    assert real.pictures_dir(SimpleNamespace(pictures_dir=tmp_path)) == tmp_path
    monkeypatch.setattr(real.shutil, "which", lambda name: "/usr/bin/xdg-user-dir")

    def answer(text):
        return lambda *a, **k: SimpleNamespace(stdout=text + "\n")

    assert real.pictures_dir(None, run=answer("/home/u/Bilder")) == Path("/home/u/Bilder")
    # xdg-user-dir answers $HOME when PICTURES is unset: that is not a pictures folder
    assert real.pictures_dir(None, run=answer(str(Path.home()))) == Path.home() / "Pictures"


# -- launching and reaping real processes ---------------------------------------------------


def _script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def desk():
    d = LinuxDesktop(env={"DISPLAY": ":999"})
    yield d
    d.close()


def test_launch_starts_and_reaps_the_process(tmp_path, monkeypatch, desk):
    _script(tmp_path, "anovaxsleeper", "exec sleep 30")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert desk.launch_app("anovaxsleeper", CancelToken()) == "Opened anovaxsleeper"
    (child,) = desk.children
    assert child.poll() is None
    child.terminate()
    # reaped by the reaper thread, not by us: the pid disappears from /proc (no zombie)
    wait_for(lambda: not Path(f"/proc/{child.pid}").exists(), 5.0, "the reaper to collect the app")
    assert desk.children == []


def test_launch_failures(tmp_path, monkeypatch, desk):
    _script(tmp_path, "anovaxbroken", "exit 3")
    _script(tmp_path, "anovaxquick", "exit 0")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(PermanentToolError, match="quit right after starting .exit code 3"):
        desk.launch_app("anovaxbroken", CancelToken())
    assert desk.launch_app("anovaxquick", CancelToken()) == "Opened anovaxquick"
    with pytest.raises(PermanentToolError, match="couldn't find an app called nosuchapp123"):
        desk.launch_app("nosuchapp123", CancelToken())
    (tmp_path / "anovaxnoexec").write_bytes(b"\x7fELF garbage")
    (tmp_path / "anovaxnoexec").chmod(0o755)
    with pytest.raises(PermanentToolError, match="couldn't start"):
        desk.launch_app("anovaxnoexec", CancelToken())
    cancel = CancelToken()
    cancel.cancel("test")
    with pytest.raises(Cancelled):
        desk.launch_app("anovaxquick", cancel)


# -- open_url through a fake browser ------------------------------------------------------


def test_open_url_reaches_the_browser(tmp_path, monkeypatch, desk):
    log = tmp_path / "opened.txt"
    browser = _script(tmp_path, "fakebrowser", f'printf "%s\\n" "$1" >> "{log}"')
    monkeypatch.setenv("BROWSER", str(browser))
    url = "https://www.google.com/search?q=caf%C3%A9+%26+more"
    desk.open_url(url, CancelToken())
    assert wait_for(lambda: log.exists() and log.read_text(), 5.0, "the fake browser").splitlines() == [url]
    with pytest.raises(PermanentToolError):
        desk.open_url("file:///etc/passwd", CancelToken())
    assert log.read_text().splitlines() == [url]


def test_open_url_failing_and_lingering_browsers(tmp_path, monkeypatch, desk):
    # permanent, so the agent's retry does not start it again (a second tab, the same error);
    # the message names the browser and where its output went
    ran = tmp_path / "ran.txt"
    monkeypatch.setenv("BROWSER", str(_script(tmp_path, "brokenbrowser", f'echo ran >> "{ran}"; exit 1')))
    with pytest.raises(PermanentToolError, match="The browser did not open: brokenbrowser exited with code 1; its output is in .*launched.log"):
        desk.open_url("https://example.org", CancelToken())
    assert ran.read_text().splitlines() == ["ran"]
    monkeypatch.setenv("BROWSER", str(tmp_path / "no-such-browser"))
    with pytest.raises(PermanentToolError, match=r"^I couldn't start the browser: 'no-such-browser' is not installed\. "
                                                 r"Set BROWSER or install one\.$"):
        desk.open_url("https://example.org", CancelToken())
    # a browser command that stays in the foreground must not hold the agent: this one runs
    # until the test lets it end, so open_url can only return by not waiting for it
    monkeypatch.setattr(real, "OPEN_URL_WAIT_S", 0.3)
    may_exit = tmp_path / "browser-may-exit"
    monkeypatch.setenv("BROWSER", str(_script(tmp_path, "slowbrowser",
                                               f'while [ ! -e "{may_exit}" ]; do sleep 0.05; done')))
    try:
        finishes(lambda: desk.open_url("https://example.org", CancelToken()), 30.0, "open_url with a lingering browser")
    finally:
        may_exit.touch()


# -- speech --------------------------------------------------------------------------------


class ScriptedEngine:
    """A pyttsx3-like engine whose runAndWait blocks (like SAPI5/NSSS): it fires started-word
    callbacks on the calling thread and finished-utterance at the end, or when stopped."""

    def __init__(self, words_per_utterance=3, word_s=0.01, hang=None):
        self.words = words_per_utterance
        self.word_s = word_s
        self.hang = hang  # an Event: runAndWait blocks on it (an engine stuck in C)
        self.callbacks = {"started-word": [], "finished-utterance": []}
        self.spoken = []
        self.stopped_on = []
        self._pending = None
        self._stop = False

    def connect(self, topic, cb):
        self.callbacks[topic].append(cb)
        return {"topic": topic, "cb": cb}

    def disconnect(self, token):
        self.callbacks[token["topic"]].remove(token["cb"])

    def say(self, text):
        self._pending = text

    def runAndWait(self):
        if self.hang is not None:
            self.hang.wait()
        self._stop = False
        for i in range(self.words):
            for cb in self.callbacks["started-word"]:
                cb(name=None, location=i, length=1)
            if self._stop:
                break
            time.sleep(self.word_s)
        else:
            self.spoken.append((self._pending, threading.current_thread().name))
        for cb in self.callbacks["finished-utterance"]:
            cb(name=None, completed=not self._stop)

    def stop(self):
        self.stopped_on.append(threading.current_thread().name)
        self._stop = True


def test_speech_runs_on_the_tts_thread():
    engine = ScriptedEngine()
    tts = TtsThread(lambda: engine)
    try:
        assert "tts" in [t.name for t in threading.enumerate()]
        tts.say("hello", CancelToken())
        tts.say("world", CancelToken())
        assert engine.spoken == [("hello", "tts"), ("world", "tts")]
    finally:
        tts.close()
    assert "tts" not in [t.name for t in threading.enumerate()]


def test_cancel_stops_the_utterance_from_the_tts_thread(monkeypatch):
    monkeypatch.setattr(speech, "DEADLINE_BASE_S", 3600.0)  # only the cancel can end this say
    engine = ScriptedEngine(words_per_utterance=100_000, word_s=0.01)  # ~17 min if never stopped
    tts = TtsThread(lambda: engine)
    cancel = CancelToken()
    try:
        threading.Timer(0.2, cancel.cancel, args=("test",)).start()
        with pytest.raises(Cancelled):
            finishes(lambda: tts.say("a long sentence", cancel), 30.0, "say after its cancel")
        wait_for(lambda: engine.stopped_on, 30.0, "engine.stop()")
        assert engine.stopped_on == ["tts"] and engine.spoken == []
        engine.words = 3
        tts.say("next", CancelToken())  # the engine is usable again
        assert engine.spoken == [("next", "tts")]
    finally:
        tts.close()


def test_a_stuck_engine_never_hangs_the_caller(monkeypatch, caplog):
    monkeypatch.setattr(speech, "DEADLINE_BASE_S", 0.2)
    monkeypatch.setattr(speech, "DEADLINE_PER_CHAR_S", 0.0)
    stuck = threading.Event()
    out = io.StringIO()
    tts = TtsThread(lambda: ScriptedEngine(hang=stuck), stream=out)
    try:
        with caplog.at_level(logging.WARNING):
            # the engine never returns: only say's own 0.2 s deadline can end the call
            finishes(lambda: tts.say("one", CancelToken()), 30.0, "say with a stuck engine")
        assert "longer than" in caplog.text
        tts.say("two", CancelToken())  # the engine is still stuck: straight to the console
        assert out.getvalue() == "AnovaX says: two\n"
    finally:
        stuck.set()
        tts.close()


def test_no_engine_degrades_to_console_with_one_warning(caplog):
    def broken():
        raise RuntimeError("libespeak-ng.so.1: cannot open shared object file")

    out = io.StringIO()
    with caplog.at_level(logging.WARNING, logger="anovax.speech.engine"):
        tts = TtsThread(broken, stream=out)
        tts.say("Hello there.", CancelToken())
        tts.say("Again.", CancelToken())
        tts.close()
    assert out.getvalue() == "AnovaX says: Hello there.\nAnovaX says: Again.\n"
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["Speech output is unavailable (libespeak-ng.so.1: cannot open shared object file); "
                        "replies will be printed instead."]


def test_only_one_engine_per_process():
    first = TtsThread(lambda: ScriptedEngine())
    out = io.StringIO()
    second = TtsThread(lambda: ScriptedEngine(), stream=out)
    try:
        second.say("hi", CancelToken())
        assert "already owns the speech engine" in (second.unavailable or "")
        assert out.getvalue() == "AnovaX says: hi\n"
    finally:
        second.close()
        first.close()


@pytest.fixture
def fake_aplay(tmp_path, monkeypatch):
    """The real engine and espeak-ng; only the sound card is faked: an aplay that keeps the
    WAV it is given in ``kept`` and "plays" it until the test creates ``done``."""
    pytest.importorskip("pyttsx3")
    if not shutil.which("espeak-ng"):
        pytest.skip("espeak-ng is not installed (Debian package espeak-ng)")
    kept = tmp_path / "kept"
    kept.mkdir()
    done = tmp_path / "playing-may-end"
    _script(tmp_path, "aplay", f'cp "$1" "{kept}/$(date +%s%N).wav"\nwhile [ ! -e "{done}" ]; do sleep 0.02; done')
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(speech, "DEADLINE_BASE_S", 3600.0)  # deadlines have their own test
    yield SimpleNamespace(kept=kept, done=done)
    done.touch()  # no aplay outlives the test


def test_real_pyttsx3_speaks_and_waits_for_the_sentence_to_end(fake_aplay):
    tts = TtsThread()
    try:
        said = in_thread(lambda: tts.say("Hello from AnovaX.", CancelToken()))
        wait_for(lambda: any(fake_aplay.kept.iterdir()), 30.0, "aplay to start playing")
        # espeak's runAndWait returns after ~0.01 s; say must wait for the playing to end
        assert not said.done(), "say returned while the sentence was still playing"
        fake_aplay.done.touch()
        said.result(30.0)
        assert tts.unavailable is None
    finally:
        tts.close()
    (wav,) = fake_aplay.kept.iterdir()
    data = wav.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    assert len(data) > 22050  # more than half a second of 16-bit 22 kHz audio


def test_real_pyttsx3_cancel_returns_at_once_and_the_next_sentence_still_plays(fake_aplay):
    tts = TtsThread()
    cancel = CancelToken()
    try:
        said = in_thread(lambda: tts.say("This sentence is cancelled while it plays.", cancel))
        wait_for(lambda: any(fake_aplay.kept.iterdir()), 30.0, "aplay to start playing")
        cancel.cancel("stop")
        with pytest.raises(Cancelled):  # while aplay still plays: it only ends when told to
            said.result(30.0)
        fake_aplay.done.touch()
        tts.say("The next one.", CancelToken())  # queued behind the first: not dropped
    finally:
        tts.close()
    assert len(list(fake_aplay.kept.iterdir())) == 2


def test_search_steps_open_encoded_https_urls_in_the_users_browser(tmp_path, monkeypatch, desk):
    from anovax.events import EventBus
    from anovax.orchestrator import Orchestrator
    from anovax.plan import Plan, Step

    log = tmp_path / "opened.txt"
    monkeypatch.setenv("BROWSER", str(_script(tmp_path, "fakebrowser", f'printf "%s\\n" "$1" >> "{log}"')))
    bus = EventBus()
    orch = Orchestrator(desk, bus)
    try:
        plan = Plan(steps=(Step("web_search", {"query": "café & tea?"}),
                           Step("youtube_search", {"query": "lo-fi 日本 #1"})))
        outcome = orch.dispatch(plan, command_id="c1")
        assert outcome.failed is None, outcome
    finally:
        orch.close()
        bus.close()
    opened = wait_for(lambda: log.exists() and len(log.read_text().splitlines()) == 2 and log.read_text(), 5.0,
                      "both searches in the fake browser").splitlines()
    assert sorted(opened) == sorted([
        "https://www.google.com/search?q=caf%C3%A9+%26+tea%3F",
        "https://www.youtube.com/results?search_query=lo-fi+%E6%97%A5%E6%9C%AC+%231"])
