"""MacDesktop's verified launches and focus guard against a fake MacApi; MacFront's parsing.

macOS cannot run here, so ``FakeMacApi`` plays it: a script of which app is frontmost,
poll after poll, window titles and the processes alive. Everything above it is the real
code: launching through ``open -a`` (a stand-in ``open`` on PATH), the polling, the
guard and its messages. Only the keyboard is replaced (``_gui`` and ``_paste`` record).
``MacFront`` is tested with a fake ``subprocess.run`` answering as lsappinfo and
osascript do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest

from anovax.desktop import apps, macos
from anovax.desktop.base import CancelToken
from anovax.desktop.macfront import Frontmost, FrontmostUnavailable, MacFront, parse_asn, parse_info
from anovax.desktop.macos import SETTLE_S, MacDesktop
from anovax.errors import PermanentToolError, TransientToolError
from helpers import finishes

FINDER = Frontmost("Finder", 50, bundle_path="/System/Library/CoreServices/Finder.app")
TEXTEDIT = Frontmost("TextEdit", 77, bundle_path="/System/Applications/TextEdit.app")
MESSAGES = Frontmost("Messages", 90, bundle_path="/System/Applications/Messages.app")


class FakeMacApi:
    """``front`` is a script: each frontmost() takes the next answer, and the last one stays."""

    def __init__(self, front: list[Frontmost | None], *, titles: dict[int, str] | None = None,
                 dead: set[int] | None = None) -> None:
        self.script = list(front)
        self.titles = dict(titles or {})
        self.dead = set(dead or ())
        self.calls = 0
        #: apps activate() can bring forward, and the bundle ids of installed bundles
        self.apps: list[Frontmost] = []
        self.bundles: dict[str, str] = {}
        self.activations: list[str] = []
        self._lock = threading.Lock()

    def set_front(self, front: Frontmost | None) -> None:
        with self._lock:
            self.script = [front]

    def frontmost(self) -> Frontmost | None:
        with self._lock:
            self.calls += 1
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    def window_title(self, pid: int) -> str:
        return self.titles.get(pid, "")

    def alive(self, pid: int) -> bool:
        return pid not in self.dead

    def activate(self, bundle_id: str) -> None:
        self.activations.append(bundle_id)
        front = next((f for f in self.apps if f.bundle_id == bundle_id), None)
        if front is not None:
            self.set_front(front)

    def bundle_id(self, bundle_path: str) -> str:
        return self.bundles.get(bundle_path, "")


class KeysDesktop(MacDesktop):
    """The real MacDesktop with the keyboard and clipboard recorded instead of used."""

    def __init__(self, api: Any, *, track_focus: bool = False) -> None:
        # no tracker unless asked: it would take answers from the scripted frontmost()
        super().__init__(api=api, track_focus=track_focus)
        self.sent: list[tuple[str, tuple[Any, ...]]] = []
        self.after_key: Any = None

    def _gui(self, func: str, *args: Any, **kwargs: Any) -> None:
        self._record(func, args)

    def _paste(self, text: str) -> None:
        self._record("paste", (text,))

    def _record(self, func: str, args: tuple[Any, ...]) -> None:
        self.sent.append((func, args))
        if self.after_key is not None:
            self.after_key()


@pytest.fixture
def mac(tmp_path, monkeypatch):
    """A stand-in ``open`` on PATH (exit code from $FAKE_OPEN_EXIT) and every bundle "installed"."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    opener = bin_dir / "open"
    opener.write_text('#!/bin/sh\necho "$@" >> "$FAKE_OPEN_LOG"\nexit "${FAKE_OPEN_EXIT:-0}"\n')
    opener.chmod(0o755)
    log = tmp_path / "open.log"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_OPEN_LOG", str(log))
    monkeypatch.setattr(apps, "find_mac_bundle", lambda name, *a: f"/Applications/{name}.app")
    desks: list[MacDesktop] = []

    def make(api: Any) -> KeysDesktop:
        desk = KeysDesktop(api)
        desks.append(desk)
        return desk

    make.log = log  # type: ignore[attr-defined]
    yield make
    for desk in desks:
        desk.close()


def launched(mac: Any, script: list[Frontmost | None]) -> tuple[KeysDesktop, FakeMacApi]:
    api = FakeMacApi(script, titles={77: "Untitled"})
    desk = mac(api)
    assert desk.launch_app("text editor", CancelToken()) == "Opened text editor"
    return desk, api


# -- verified launches -------------------------------------------------------------------


def test_launch_is_verified_when_the_app_comes_to_the_front(mac):
    api = FakeMacApi([FINDER, FINDER, None, FINDER, TEXTEDIT], titles={77: "Untitled"})
    desk = mac(api)
    started = time.monotonic()
    assert desk.launch_app("text editor", CancelToken()) == "Opened text editor"
    took = time.monotonic() - started
    assert mac.log.read_text() == "-a TextEdit\n"
    evidence = desk.launch_evidence()
    assert evidence is not None
    assert (evidence.window, evidence.title, evidence.wm_class, evidence.pid) == (77, "Untitled", "TextEdit", 77)
    assert desk.target_window == 77
    assert api.calls >= 6 and SETTLE_S <= evidence.seconds <= took


def test_a_localised_display_name_is_matched_by_bundle(mac):
    rechner = Frontmost("Rechner", 88, bundle_path="/System/Applications/Calculator.app")
    desk = mac(FakeMacApi([FINDER, rechner]))
    desk.launch_app("calculator", CancelToken())
    assert desk.launch_evidence().wm_class == "Rechner" and desk.target_window == 88


def test_another_app_in_front_is_never_taken_and_the_token_ends_the_wait(mac, monkeypatch):
    api = FakeMacApi([FINDER, MESSAGES])
    desk = mac(api)
    monkeypatch.setattr(macos, "LAUNCH_MAX_S", 3600.0)  # only the token can end the wait
    cancel = CancelToken()
    timer = threading.Timer(0.3, cancel.cancel, ("expired",))
    timer.start()
    with pytest.raises(TransientToolError, match="^text editor did not open a window in time.$") as info:
        finishes(lambda: desk.launch_app("text editor", cancel), 30.0, "the launch after its token expired")
    assert info.value.code == "no_window"
    assert desk.launch_evidence() is None and desk.target_window is None
    assert api.calls > 5


def test_an_app_pushed_back_before_it_settles_is_not_taken(mac):
    api = FakeMacApi([TEXTEDIT, TEXTEDIT, FINDER])  # in front for 2 polls, well under SETTLE_S
    desk = mac(api)
    cancel = CancelToken()
    timer = threading.Timer(0.5, cancel.cancel)
    timer.start()
    try:
        with pytest.raises(TransientToolError, match="did not open a window in time"):
            desk.launch_app("text editor", cancel)
    finally:
        timer.cancel()


def test_open_failing_means_no_such_app(mac, monkeypatch):
    monkeypatch.setenv("FAKE_OPEN_EXIT", "1")
    api = FakeMacApi([FINDER])
    desk = mac(api)
    with pytest.raises(PermanentToolError, match="^I couldn't find an app called text editor on this computer.$"):
        desk.launch_app("text editor", CancelToken())
    assert api.calls == 0


def test_without_lsappinfo_launches_are_unverified_and_typing_unguarded(mac):
    class NoLsappinfo(FakeMacApi):
        def frontmost(self) -> Frontmost | None:
            self.calls += 1
            raise FrontmostUnavailable("can't run lsappinfo: No such file or directory")

    api = NoLsappinfo([None])
    desk = mac(api)
    assert desk.launch_app("text editor", CancelToken()) == "Opened text editor"
    assert desk.launch_evidence() is None and desk.target_window is None
    desk.launch_app("text editor", CancelToken())
    assert api.calls == 1  # not asked again after it failed once
    desk.type_text("hi", CancelToken())
    assert desk.sent == [("write", ("hi",))]


def test_a_command_from_the_settings_file_is_matched_by_its_process(mac):
    desk = mac(FakeMacApi([FINDER]))
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"], start_new_session=True)
    try:
        mine = Frontmost("Python", proc.pid)
        desk._api.set_front(mine)
        desk._before_launch("scratch pad")
        desk._after_launch(proc, "scratch pad", CancelToken())
    finally:
        proc.terminate()
        proc.wait(5)
    assert desk.target_window == proc.pid and desk.launch_evidence().wm_class == "Python"


def test_a_command_that_is_not_open_is_not_matched_by_name(mac):
    # "Python" in front, but not our process (nor in its session): not the app we started
    desk = mac(FakeMacApi([Frontmost("scratch pad", os.getpid())]))
    proc = SimpleNamespace(pid=999_999, args=["python3", "editor.py"], poll=lambda: None, returncode=None)
    cancel = CancelToken()
    timer = threading.Timer(0.3, cancel.cancel)
    timer.start()
    try:
        with pytest.raises(TransientToolError, match="^scratch pad did not open a window in time.$"):
            desk._after_launch(proc, "scratch pad", cancel)  # type: ignore[arg-type]
    finally:
        timer.cancel()


# -- the focus guard -----------------------------------------------------------------------


def test_focus_moving_mid_typing_stops_before_the_next_chunk(mac):
    desk, api = launched(mac, [FINDER, TEXTEDIT])
    desk.after_key = lambda: api.set_front(MESSAGES)
    stopped = r"^Focus moved to Messages\. I had typed 8 of 16 characters\.$"  # how much got there
    with pytest.raises(PermanentToolError, match=stopped) as info:
        desk.type_text("abcdefgh" + "ijklmnop", CancelToken())
    assert info.value.code == "focus_moved"
    assert desk.sent == [("write", ("abcdefgh",))]


def test_non_ascii_runs_are_pasted_and_guarded_too(mac):
    desk, api = launched(mac, [FINDER, TEXTEDIT])
    desk.type_text("né", CancelToken())
    assert desk.sent == [("write", ("n",)), ("paste", ("é",))]
    desk.sent.clear()
    desk.after_key = lambda: api.set_front(MESSAGES)
    with pytest.raises(PermanentToolError, match="^Focus moved to Messages.$"):
        desk.type_text("xö", CancelToken())
    assert desk.sent == [("write", ("x",))]


def test_press_keys_is_guarded(mac):
    desk, api = launched(mac, [FINDER, TEXTEDIT])
    desk.press_keys("ctrl+s", CancelToken())
    api.set_front(FINDER)
    with pytest.raises(PermanentToolError, match="^Focus moved to Finder.$"):
        desk.press_keys("enter", CancelToken())
    assert desk.sent == [("hotkey", ("ctrl", "s"))]


def test_focus_messages_without_a_name(mac):
    desk, api = launched(mac, [FINDER, TEXTEDIT])
    api.set_front(None)
    with pytest.raises(PermanentToolError, match="^Focus moved away from the app I was typing into.$"):
        desk.type_text("a", CancelToken())
    api.titles[91] = "Downloads"
    api.set_front(Frontmost("", 91))
    with pytest.raises(PermanentToolError, match="^Focus moved to Downloads.$"):
        desk.type_text("a", CancelToken())
    api.set_front(Frontmost("", 92))
    with pytest.raises(PermanentToolError, match="^Focus moved to process 92.$"):
        desk.type_text("a", CancelToken())
    assert desk.sent == []


def test_a_target_that_quit_is_forgotten_and_typing_goes_on_unguarded(mac):
    desk, api = launched(mac, [FINDER, TEXTEDIT])
    api.dead.add(77)
    api.set_front(FINDER)
    assert desk.type_text("abcdefghij", CancelToken()) == 10
    assert desk.target_window is None
    assert desk.sent == [("write", ("abcdefgh",)), ("write", ("ij",))]


def test_lsappinfo_failing_after_a_verified_launch_stops_typing(mac):
    desk, api = launched(mac, [FINDER, TEXTEDIT])

    def gone() -> Frontmost | None:
        raise FrontmostUnavailable("can't run lsappinfo: Permission denied")

    api.frontmost = gone  # type: ignore[method-assign]
    with pytest.raises(TransientToolError, match="^I can't tell which app is in front"):
        desk.type_text("a", CancelToken())
    assert desk.sent == []


# -- MacFront: lsappinfo and osascript as they answer -------------------------------------------


class FakeRun:
    """subprocess.run answering from a table keyed by the program and its first argument."""

    def __init__(self, answers: dict[tuple[str, str], Any]) -> None:
        self.answers = answers
        self.calls: list[list[str]] = []

    def __call__(self, argv: list[str], **kwargs: Any) -> Any:
        self.calls.append(argv)
        assert kwargs["timeout"] > 0 and kwargs["text"] is True
        answer = self.answers[(argv[0], argv[1] if argv[0] == "lsappinfo" else "")]
        if isinstance(answer, BaseException):
            raise answer
        code, out = answer
        return subprocess.CompletedProcess(argv, code, out, "")


ONLY_OUTPUT = ('"pid"=77\n"LSDisplayName"="TextEdit"\n"LSBundlePath"="/System/Applications/TextEdit.app"\n'
               '"CFBundleIdentifier"="com.apple.TextEdit"\n')
PLAIN_OUTPUT = ('"Google \\"Beta\\" Chrome" ASN:0x0-0x2e02e: \n'
                '    bundleID="com.google.Chrome"\n'
                '    bundle path="/Applications/Google Chrome.app"\n'
                '    pid = 4321 type="Foreground" flavor=3 Version="120"\n')


def test_frontmost_from_lsappinfo():
    run = FakeRun({("lsappinfo", "front"): (0, "ASN:0x0-0x1d01d:\n"), ("lsappinfo", "info"): (0, ONLY_OUTPUT)})
    front = MacFront(run).frontmost()
    assert front == Frontmost("TextEdit", 77, "", "/System/Applications/TextEdit.app", "com.apple.TextEdit")
    assert front.bundle_name == "TextEdit"
    assert run.calls[1] == ["lsappinfo", "info", "-only", "pid", "-only", "name", "-only", "bundlepath",
                            "-only", "bundleid", "ASN:0x0-0x1d01d:"]


def test_lsappinfo_output_parsing():
    assert parse_asn("ASN:0x0-0x1d01d:\n") == "ASN:0x0-0x1d01d:"
    assert parse_asn("[ NULL ]\n") is None and parse_asn("") is None
    plain = parse_info(PLAIN_OUTPUT)
    assert plain == Frontmost('Google "Beta" Chrome', 4321, "", "/Applications/Google Chrome.app", "com.google.Chrome")
    assert plain.bundle_name == "Google Chrome"
    assert parse_info('"pid"=0\n') is None and parse_info('"LSDisplayName"="X"\n') is None
    assert parse_info('"pid"=5') == Frontmost("", 5)


@pytest.mark.parametrize("front", [(0, "[ NULL ]\n"), (1, ""), subprocess.TimeoutExpired("lsappinfo", 2)])
def test_no_frontmost_app_is_none(front):
    run = FakeRun({("lsappinfo", "front"): front, ("lsappinfo", "info"): (0, ONLY_OUTPUT)})
    assert MacFront(run).frontmost() is None
    assert len(run.calls) == 1


def test_lsappinfo_missing_is_unavailable():
    run = FakeRun({("lsappinfo", "front"): FileNotFoundError(2, "No such file or directory")})
    with pytest.raises(FrontmostUnavailable, match="No such file or directory"):
        MacFront(run).frontmost()


def test_window_title_from_system_events():
    run = FakeRun({("osascript", ""): (0, "notes.txt\n")})
    assert MacFront(run).window_title(77) == "notes.txt"
    argv = run.calls[0]
    assert argv[0] == "osascript" and argv[-1] == "77"  # the pid is an argument, not script text
    assert all("77" not in a for a in argv[:-1])
    for answer, expected in [((1, ""), ""), ((0, "missing value\n"), ""),
                             (subprocess.TimeoutExpired("osascript", 3), ""), (OSError("no osascript"), "")]:
        assert MacFront(FakeRun({("osascript", ""): answer})).window_title(77) == expected


def test_alive():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait(5)
    api = MacFront()
    assert api.alive(os.getpid()) is True
    assert api.alive(proc.pid) is False



# -- know the target (issue 16): the front app's bundle id ---------------------------------------

TERMINAL = Frontmost("Terminal", 60, bundle_path="/System/Applications/Utilities/Terminal.app",
                     bundle_id="com.apple.Terminal")
EDIT = Frontmost("TextEdit", 77, bundle_path="/System/Applications/TextEdit.app", bundle_id="com.apple.TextEdit")
SAFARI = Frontmost("Safari", 80, bundle_path="/Applications/Safari.app", bundle_id="com.apple.Safari")
ORB = Frontmost("Python", os.getpid(), bundle_id="org.python.python")


@pytest.mark.parametrize("front, klass", [(TERMINAL, "shell"), (EDIT, "text"), (SAFARI, "browser"),
                                          (FINDER, "unknown"), (Frontmost("Mystery", 5), "unknown")])
def test_the_front_app_is_identified_by_its_bundle_id(mac, front, klass):
    found = mac(FakeMacApi([front])).user_target()
    assert (found.klass.value, found.pid, found.app) == (klass, front.pid, front.name), found


def test_the_orb_in_front_means_the_app_the_user_was_in_before(mac):
    api = FakeMacApi([EDIT])
    api.apps = [EDIT, TERMINAL]
    desk = KeysDesktop(api, track_focus=True)
    try:
        finishes(lambda: _until(lambda: desk._targeting.last() is not None), 10.0, "the tracker to see TextEdit")
        api.set_front(ORB)  # the person clicks the orb
        target = desk.user_target()
        assert (target.app, target.klass.value) == ("TextEdit", "text")
        desk.aim(target, CancelToken())
        assert api.activations == ["com.apple.TextEdit"] and desk.target_window == EDIT.pid
        desk.type_text("hello", CancelToken())
        api.set_front(TERMINAL)
        with pytest.raises(PermanentToolError, match="Focus moved to Terminal"):
            desk.type_text("rm", CancelToken())
        api.dead.add(EDIT.pid)
        with pytest.raises(PermanentToolError, match="has quit, so I stopped"):
            desk.type_text("more", CancelToken())
        with pytest.raises(PermanentToolError, match="TextEdit was closed"):
            desk.aim(target, CancelToken())
        desk.return_to_user()  # back to whatever the tracker saw last that still runs (Terminal), or nothing
        assert api.activations[0] == "com.apple.TextEdit" and "com.apple.TextEdit" not in api.activations[1:]
    finally:
        desk.close()


def _until(predicate) -> bool:
    while not predicate():
        time.sleep(0.005)
    return True


def test_aim_at_the_orb_or_an_app_that_will_not_come_is_refused(mac):
    api = FakeMacApi([ORB])
    desk = mac(api)
    with pytest.raises(PermanentToolError, match="won't type into AnovaX"):
        desk.aim(desk._front_identity(), CancelToken())
    stubborn = desk._targeting  # TERMINAL is not among api.apps: activate() brings nothing forward
    with pytest.raises(PermanentToolError, match="couldn't bring Terminal to the front"):
        stubborn.aim(mac_target(TERMINAL), CancelToken())


def mac_target(front: Frontmost):
    from anovax.desktop.front_target import mac_identity

    return mac_identity(front.pid, front.name, front.bundle_id, "", os.getpid())


def test_classify_app_reads_the_bundle_id_of_what_open_would_start(mac, monkeypatch):
    monkeypatch.delenv("BROWSER", raising=False)  # the host's $BROWSER is a Linux command, not a Mac app
    api = FakeMacApi([FINDER])
    api.bundles = {"/Applications/TextEdit.app": "com.apple.TextEdit",
                   "/Applications/Terminal.app": "com.apple.Terminal", "/Applications/Safari.app": "com.apple.Safari",
                   "/Applications/Finder.app": "com.apple.finder"}
    desk = mac(api)
    assert [desk.classify_app(n).value for n in ("text editor", "terminal", "browser", "files", "music")] == [
        "text", "shell", "browser", "unknown", "unknown"]
