"""Issue 18 round 2: one browser, found one way; a retitle at any moment is evidence; plain failures.

- a page titled like the tab before it: the browser window's title changes for a few ms only
  ("Same" -> "Untitled" -> "Same" with Chromium), so the wait also takes ``retitled`` windows
  (x11_title_watch.py, PropertyNotify) - while the browser command has not failed;
- "open the browser" starts what searches use: $BROWSER first, then the platform default;
- a browser program that is not installed is named, with what to do.
"""

from __future__ import annotations

import itertools
import webbrowser
from pathlib import Path

import pytest
from helpers import wait_for

from anovax.desktop import apps
from anovax.desktop.base import CancelToken
from anovax.desktop.browser_watch import FrontWindow, wait_for_browser
from anovax.desktop.launcher import browser_app_argv, cant_start
from anovax.desktop.linux import LinuxDesktop
from anovax.errors import PermanentToolError
from anovax.settings import Settings
from anovax.target import TargetClass


def wait(front, before, *, retitled=frozenset, exit_code=lambda: None, browsers=lambda f: True):
    counter = itertools.count()
    return wait_for_browser(lambda: front, browsers, before, CancelToken(), exit_code=exit_code,
                            retitled=lambda: retitled, wait_s=5.0, clock=lambda: float(next(counter)))


SAME = FrontWindow(3, "www.google.com - Chromium")


def test_a_window_retitled_and_back_is_done_when_the_browser_handed_off():
    evidence = wait(SAME, {3: SAME.title}, retitled=frozenset({3}), exit_code=lambda: 0)
    assert (evidence.window, evidence.title, evidence.new) == (3, SAME.title, False)


def test_without_a_retitle_the_same_title_is_still_no_evidence():
    with pytest.raises(PermanentToolError, match="no browser window came to the front"):
        wait(SAME, {3: SAME.title}, retitled=frozenset({9}), exit_code=lambda: 0)


def test_a_retitle_does_not_save_a_browser_command_that_failed():
    with pytest.raises(PermanentToolError, match=r"chromium-ns exited with code 1|exited with code 1"):
        wait(SAME, {3: SAME.title}, retitled=frozenset({3}), exit_code=lambda: 1)


def test_a_retitled_window_that_is_not_a_browser_is_no_evidence():
    with pytest.raises(PermanentToolError, match="no browser window"):
        wait(SAME, {3: SAME.title}, retitled=frozenset({3}), browsers=lambda f: False)


# -- the title watch on a real X server ----------------------------------------------------------------


@pytest.fixture
def x_window(xvfb):
    from Xlib import X

    from anovax.desktop.x11_focus import open_display

    conn = open_display(xvfb.display)
    win = conn.screen().root.create_window(0, 0, 100, 100, 0, X.CopyFromParent)
    net_name, utf8 = conn.intern_atom("_NET_WM_NAME"), conn.intern_atom("UTF8_STRING")

    def set_title(title: str) -> None:
        win.change_property(net_name, utf8, 8, title.encode())
        conn.flush()

    set_title("Same - Chromium")
    conn.sync()
    yield win.id, set_title, xvfb.display
    win.destroy()
    conn.close()


def test_the_watch_sees_a_title_that_was_set_away_and_back(x_window):
    from anovax.desktop.x11_title_watch import TitleWatch

    window, set_title, name = x_window
    watch = TitleWatch({window: "Same - Chromium"}, name)
    try:
        set_title("Untitled - Chromium")
        set_title("Same - Chromium")  # back within a millisecond: a poll would see nothing
        wait_for(lambda: window in watch.changed(), 10.0, "the retitle seen")
    finally:
        watch.close()


def test_the_watch_does_not_count_the_same_title_set_once(x_window):
    from anovax.desktop.x11_title_watch import TitleWatch

    window, set_title, name = x_window
    watch = TitleWatch({window: "Same - Chromium"}, name)
    try:
        set_title("Same - Chromium")  # a PropertyNotify, but nothing changed
        wait_for(lambda: watch.events >= 1, 10.0, "the event read")
        assert window not in watch.changed()
        set_title("Other - Chromium")
        wait_for(lambda: window in watch.changed(), 10.0, "a real change seen")
    finally:
        watch.close()


# -- one way to find the browser ------------------------------------------------------------------------


def browser_script(folder: Path, name: str = "mybrowser") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexec sleep 5\n")
    path.chmod(0o755)
    return path


def test_open_the_browser_runs_browser_first(tmp_path, monkeypatch):
    mine = browser_script(tmp_path)
    monkeypatch.setenv("BROWSER", str(mine))
    assert browser_app_argv() == (str(mine),)
    found = apps.resolve("the browser", "linux", lambda p: "/usr/bin/" + p, browser=browser_app_argv())
    assert (found.argv, found.kind) == ((str(mine),), TargetClass.BROWSER)
    # a particular browser by name stays the table's
    assert apps.resolve("firefox", "linux", lambda p: "/usr/bin/" + p, browser=(str(mine),)).argv \
        == ("/usr/bin/firefox",)


def test_browser_flags_are_kept_and_the_page_slot_dropped(monkeypatch):
    monkeypatch.setenv("BROWSER", "/opt/b --incognito %s")
    assert browser_app_argv() == ("/opt/b", "--incognito")


def test_the_users_own_browser_entry_still_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("BROWSER", str(browser_script(tmp_path)))
    extra = apps.user_apps({"browser": ["/opt/mine"]})
    found = apps.resolve("browser", "linux", lambda p: p, extra=extra, browser=browser_app_argv())
    assert found.argv == ("/opt/mine",)


def test_a_missing_browser_program_is_named_with_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("BROWSER", str(tmp_path / "x-www-browser"))  # set, but not there
    monkeypatch.setattr(webbrowser, "get", lambda using=None: webbrowser.GenericBrowser(
        [str(tmp_path / "x-www-browser"), "%s"]))
    desk = LinuxDesktop(Settings(log_path=tmp_path / "events.jsonl"), env={"DISPLAY": ":999"}, use_xdotool=False)
    try:
        with pytest.raises(PermanentToolError) as err:
            desk.launch_app("the browser", CancelToken())
    finally:
        desk.close()
    assert str(err.value) == ("I couldn't start the browser: 'x-www-browser' is not installed. "
                              "Set BROWSER or install one.")


def test_the_search_failure_names_the_program_too():
    assert cant_start("x-www-browser", FileNotFoundError(2, "No such file or directory")) == (
        "I couldn't start the browser: 'x-www-browser' is not installed. Set BROWSER or install one")
    assert "Permission denied" in cant_start("b", PermissionError(13, "Permission denied"))


def test_a_search_whose_browser_program_is_missing_says_so_once(tmp_path, monkeypatch):
    gone = str(tmp_path / "x-www-browser")
    monkeypatch.setenv("BROWSER", gone)
    monkeypatch.setattr(webbrowser, "get", lambda using=None: webbrowser.GenericBrowser([gone, "%s"]))
    desk = LinuxDesktop(Settings(log_path=tmp_path / "events.jsonl"), env={"DISPLAY": ":999"}, use_xdotool=False)
    try:
        with pytest.raises(PermanentToolError) as err:
            desk.open_url("https://example.org/?q=x", CancelToken())
    finally:
        desk.close()
    assert str(err.value) == ("I couldn't start the browser: 'x-www-browser' is not installed. "
                              "Set BROWSER or install one.")
