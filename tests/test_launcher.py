"""One launcher for everything AnovaX starts: own session, output to <state>/launched.log,
never the console."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import wait_for

from anovax.desktop.apps import user_apps
from anovax.desktop.base import CancelToken
from anovax.desktop.launcher import Launcher, launched_log, state_dir
from anovax.desktop.linux import LinuxDesktop
from anovax.settings import Settings


def noisy(folder: Path, name: str, body: str = "") -> Path:
    """A program that writes to both of its streams, like a browser without a D-Bus session."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / name
    script.write_text(f'#!/bin/sh\necho "{name} says hello on stdout: $1"\n'
                      f'echo "{name}: dbus/bus.cc:399 Failed to connect to the bus" >&2\n{body}\n')
    script.chmod(0o755)
    return script


def test_a_launched_program_writes_into_the_log_in_a_session_of_its_own(tmp_path, capfd):
    log = tmp_path / "state" / "launched.log"
    launcher = Launcher(log)
    proc = launcher.start([str(noisy(tmp_path, "chatty", "sleep 0.2"))])
    try:
        assert os.getsid(proc.pid) == proc.pid  # its own session: our Ctrl+C is not its
        proc.wait(10)
    finally:
        launcher.close()
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""
    text = log.read_text()
    assert "chatty says hello on stdout" in text and "Failed to connect to the bus" in text


def test_a_browser_opened_by_a_command_writes_nothing_to_the_console(tmp_path, monkeypatch, capfd):
    settings = Settings(log_path=tmp_path / "state" / "events.jsonl", pictures_dir=tmp_path)
    browser = noisy(tmp_path / "bin", "fakebrowser")
    monkeypatch.setenv("BROWSER", str(browser))
    desk = LinuxDesktop(settings, env={"DISPLAY": ":999"}, use_xdotool=False)
    try:
        desk.open_url("https://example.org/?q=caf%C3%A9", CancelToken())
    finally:
        desk.close()
    log = launched_log(state_dir(settings))
    assert log == tmp_path / "state" / "launched.log"
    text = wait_for(lambda: log.exists() and "Failed to connect" in log.read_text() and log.read_text(), 10.0,
                    "the browser's output in launched.log")
    assert "fakebrowser says hello on stdout: https://example.org/?q=caf%C3%A9" in text
    captured = capfd.readouterr()
    assert "fakebrowser" not in captured.out + captured.err and "dbus" not in captured.out + captured.err


def test_an_app_launch_goes_through_the_same_launcher(tmp_path, capfd):
    app = noisy(tmp_path / "bin", "noisyapp", "sleep 5")
    settings = Settings(log_path=tmp_path / "state" / "events.jsonl", apps=user_apps({"noisy app": [str(app)]}))
    desk = LinuxDesktop(settings, env={"DISPLAY": ":999"}, use_xdotool=False)  # no X: an unverified launch
    try:
        desk.launch_app("noisy app", CancelToken())
        (proc,) = desk.children
        assert os.getsid(proc.pid) == proc.pid
        log = tmp_path / "state" / "launched.log"
        wait_for(lambda: log.exists() and "Failed to connect" in log.read_text(), 10.0, "the app's output in the log")
    finally:
        for child in desk.children:
            child.terminate()
        desk.close()
    captured = capfd.readouterr()
    assert "noisyapp" not in captured.out + captured.err


def test_a_failing_browser_command_is_still_a_failure(tmp_path, capfd):
    failing = noisy(tmp_path / "bin", "brokenbrowser", "exit 3")
    launcher = Launcher(tmp_path / "launched.log")
    from webbrowser import GenericBrowser

    proc, waits = launcher.start_browser("https://example.org", lambda: GenericBrowser([str(failing), "%s"]))
    assert waits and proc.wait(10) == 3  # a command whose exit code counts: what the desktop reports
    launcher.close()
    assert capfd.readouterr().err == ""
    assert "Failed to connect" in (tmp_path / "launched.log").read_text()
