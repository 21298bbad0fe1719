"""`anovax doctor` and the Wayland notice: every branch with fake probes, then the real
command in a subprocess, and once against a real X server (Xvfb + openbox)."""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from anovax import doctor
from anovax.desktop.x11 import WindowInfo
from anovax.doctor import (Check, MicInfo, Probes, detect_display, format_report, run_checks, to_json,
                           wayland_notice)
from anovax.errors import ConfigError
from anovax.settings import Settings

REPO = Path(__file__).resolve().parents[1]
FAKE_KEY = "AIzaFAKE-doctor-test-key-0123456789abcdef"
NAMES = ["display", "window manager", "focus checks", "keyboard", "apps", "browser", "microphone", "speech out",
         "speech in", "planner", "remote"]


# -- fakes ------------------------------------------------------------------------------------

class FakeFocus:
    def __init__(self, running: bool, active: int | None) -> None:
        self.running, self.active, self.closed = running, active, False

    def wm_running(self) -> bool:
        return self.running

    def active_window(self) -> int | None:
        return self.active

    def describe(self, window: int) -> WindowInfo | None:
        return WindowInfo(window, "Notes - Editor", "gedit.Gedit", 1234)

    def close(self) -> None:
        self.closed = True


class FakeX:
    """An X server as the doctor sees it; ``opened`` records the display names asked for."""

    def __init__(self, wm_name: str | None = "Openbox", xtest: bool = True,
                 active: int | None = 0x400007) -> None:
        self.name, self.xtest, self.active = wm_name, xtest, active
        self.opened: list[str] = []
        self.closed = 0

    def __call__(self, display_name: str) -> "FakeX":
        self.opened.append(display_name)
        return self

    def wm_name(self) -> str | None:
        return self.name

    def focus(self) -> FakeFocus:
        if not self.xtest:
            raise RuntimeError("the X server has no XTEST extension")
        return FakeFocus(self.name is not None, self.active)

    def close(self) -> None:
        self.closed += 1


def no_x(display_name: str) -> FakeX:
    raise AssertionError(f"the doctor connected to X ({display_name}) where it should not")


def which_from(table: dict[str, str]):
    return lambda program: table.get(program)


def probes(**overrides) -> Probes:
    base = Probes(which=which_from({"xdotool": "/usr/bin/xdotool", "aplay": "/usr/bin/aplay",
                                    "espeak-ng": "/usr/bin/espeak-ng"}),
                  x_connect=FakeX(), has_module=lambda name: name != "pocketsphinx",
                  find_library=lambda name: "libespeak-ng.so.1" if name == "espeak-ng" else None,
                  microphone=lambda: MicInfo(["USB Mic", "pulse"], "pulse"),
                  lan_address=lambda: "192.168.7.20", sound_card=lambda: None, platform="linux",
                  browser=lambda env: ("/usr/bin/chromium",))
    return dataclasses.replace(base, **overrides)


def raising(exc: Exception):
    def probe():
        raise exc

    return probe


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


X11 = {"DISPLAY": ":5", "XDG_SESSION_TYPE": "x11"}
WAYLAND = {"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}
XWAYLAND = {**WAYLAND, "DISPLAY": ":1"}


# -- display detection ---------------------------------------------------------------------

@pytest.mark.parametrize("env, kind", [
    ({}, "none"),
    ({"DISPLAY": ":0"}, "x11"),
    ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"}, "x11"),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "wayland"),
    ({"XDG_SESSION_TYPE": "wayland"}, "wayland"),  # WAYLAND_DISPLAY lost (sudo, tmux): still Wayland
    ({"XDG_SESSION_TYPE": "Wayland", "DISPLAY": ":0"}, "xwayland"),
    ({"WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":1"}, "xwayland"),
    ({"XDG_SESSION_TYPE": "tty"}, "none"),
])
def test_detect_display(env, kind):
    info = detect_display(env, "linux")
    assert info.kind == kind
    assert info.limits.endswith(".") and info.limits.count(". ") == 0  # one sentence
    assert info.display == env.get("DISPLAY", "")


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_windows_and_macos_are_native_displays(platform):
    assert detect_display({}, platform).kind == "native"
    assert wayland_notice({"WAYLAND_DISPLAY": "wayland-0"}, platform) is None


def test_wayland_notice_only_on_wayland():
    assert wayland_notice({}, "linux") is None
    assert wayland_notice({"DISPLAY": ":0"}, "linux") is None
    only = wayland_notice(WAYLAND, "linux")
    mixed = wayland_notice(XWAYLAND, "linux")
    assert only and mixed and only != mixed
    assert "can't type" in only and "X11" in only
    assert "only reach X11 apps" in mixed


# -- the checks, branch by branch ------------------------------------------------------------

def test_x11_with_a_window_manager_supports_focus_checks():
    fake = FakeX("Openbox")
    checks = by_name(run_checks(Settings(), X11, probes(x_connect=fake)))
    assert list(checks) == NAMES
    assert (checks["display"].status, checks["display"].summary) == ("ok", "X11 (DISPLAY=:5)")
    assert (checks["window manager"].status, checks["window manager"].summary) == ("ok", "Openbox")
    assert checks["focus checks"].status == "ok"
    assert checks["focus checks"].detail == ["focused window: 'Notes - Editor' (gedit.Gedit)"]
    assert checks["keyboard"].status == "ok"
    assert fake.opened == [":5"] and fake.closed == 1  # one connection for both checks, closed


def test_x11_without_a_window_manager_fails():
    checks = by_name(run_checks(Settings(), X11, probes(x_connect=FakeX(wm_name=None))))
    assert checks["window manager"].status == "fail"
    assert checks["window manager"].summary == "none running"
    assert checks["focus checks"].status == "warn"
    assert "no window manager is running" in checks["focus checks"].detail


def test_a_window_manager_without_a_name_is_still_running():
    checks = by_name(run_checks(Settings(), X11, probes(x_connect=FakeX(wm_name=""))))
    assert checks["window manager"].status == "ok"
    assert "no name" in checks["window manager"].summary


def test_no_xtest_means_no_focus_checks():
    checks = by_name(run_checks(Settings(), X11, probes(x_connect=FakeX(xtest=False))))
    assert checks["window manager"].status == "ok"
    assert checks["focus checks"].status == "warn"
    assert checks["focus checks"].detail == ["the X server has no XTEST extension"]


def test_unreachable_x_server_fails_with_the_reason():
    def refuse(display_name):
        raise ConnectionRefusedError(f"Can't connect to display {display_name!r}: connection refused")

    checks = by_name(run_checks(Settings(), X11, probes(x_connect=refuse)))
    assert checks["window manager"].status == "fail"
    assert "':5'" in checks["window manager"].detail[0]
    assert checks["focus checks"].status == "warn"


def test_a_hanging_x_server_times_out():
    release = threading.Event()

    def hang(display_name):
        release.wait(10)
        raise OSError("released")

    try:
        checks = by_name(run_checks(Settings(), X11, probes(x_connect=hang, x_timeout_s=0.2)))
    finally:
        release.set()
    assert checks["window manager"].status == "fail"
    assert "did not answer" in checks["window manager"].detail[0]


def test_wayland_only_says_so_and_never_opens_x():
    checks = by_name(run_checks(Settings(), WAYLAND, probes(x_connect=no_x)))
    assert checks["display"].status == "warn"
    assert checks["display"].summary == "Wayland only (WAYLAND_DISPLAY=wayland-0)"
    assert checks["display"].detail == [wayland_notice(WAYLAND, "linux")]
    assert checks["window manager"].status == "info"
    assert (checks["focus checks"].status, checks["focus checks"].summary) == ("warn", "not supported on Wayland")
    assert checks["keyboard"].status == "warn" and "X11" in checks["keyboard"].summary


def test_xwayland_checks_x_but_limits_focus_to_x11_apps():
    fake = FakeX("Mutter")
    checks = by_name(run_checks(Settings(), XWAYLAND, probes(x_connect=fake)))
    assert fake.opened == [":1"]
    assert checks["display"].summary == "Wayland with XWayland (DISPLAY=:1, WAYLAND_DISPLAY=wayland-0)"
    assert checks["window manager"].summary == "Mutter"
    assert (checks["focus checks"].status, checks["focus checks"].summary) == ("warn", "X11 apps only (XWayland)")
    assert wayland_notice(XWAYLAND, "linux") in checks["focus checks"].detail


def test_no_display_needs_no_x_and_fails_nothing():
    checks = run_checks(Settings(), {}, probes(x_connect=no_x))
    named = by_name(checks)
    assert (named["display"].status, named["display"].summary) == ("warn", "no display")
    assert {named[n].status for n in ("window manager", "focus checks", "keyboard")} == {"info"}
    assert not doctor.failed(checks)


def test_keyboard_without_xdotool_is_ascii_only():
    checks = by_name(run_checks(Settings(), X11, probes(which=which_from({}))))
    assert checks["keyboard"].status == "warn"
    assert any("plain ASCII" in line for line in checks["keyboard"].detail)


def test_keyboard_without_any_way_to_send_keys_fails():
    checks = by_name(run_checks(Settings(), X11, probes(which=which_from({}), has_module=lambda name: False)))
    assert checks["keyboard"].status == "fail"


# -- apps ------------------------------------------------------------------------------------

def test_app_table_shows_what_each_name_runs():
    which = which_from({"kate": "/usr/bin/kate", "firefox-esr": "/usr/bin/firefox-esr",
                        "libreoffice": "/opt/lo/libreoffice"})
    # no browser command found the searches' way (the Windows/macOS defaults): the table's
    check = by_name(run_checks(Settings(), {}, probes(which=which, browser=lambda env: None)))["apps"]
    rows = {line.split("  ")[0]: line.split("  ", 1)[1].strip() for line in check.detail}
    assert rows["text editor"] == "/usr/bin/kate"
    assert rows["browser"] == "/usr/bin/firefox-esr"
    assert rows["firefox"] == "/usr/bin/firefox-esr"
    assert rows["word"] == "/opt/lo/libreoffice --writer"
    assert rows["calculator"] == "not installed"
    assert check.status == "ok" and check.summary.startswith("5 of ")  # + excel (libreoffice --calc)


def test_the_browser_row_and_check_show_the_one_browser_searches_use():
    # issue 18 round 2: $BROWSER first, for "open the browser" as for searches (not x-www-browser)
    env = {"BROWSER": "/opt/bin/chromium-ns"}
    which = which_from({"x-www-browser": "/usr/bin/x-www-browser"})
    checks = by_name(run_checks(Settings(search_url="http://127.0.0.1:9/s?q={query}"), env,
                                probes(which=which, browser=lambda e: (e["BROWSER"],) if e.get("BROWSER") else None)))
    rows = {line.split("  ")[0]: line.split("  ", 1)[1].strip() for line in checks["apps"].detail}
    assert rows["browser"] == "/opt/bin/chromium-ns"
    assert (checks["browser"].status, checks["browser"].summary) == ("ok", "/opt/bin/chromium-ns (from $BROWSER)")
    assert checks["browser"].detail[0] == "searches open http://127.0.0.1:9/s?q={query}"
    assert checks["browser"].detail[1].startswith("video searches open https://www.youtube.com/")


def test_no_browser_at_all_says_what_to_do():
    check = by_name(run_checks(Settings(), {"DISPLAY": ":0"}, probes(browser=lambda env: None)))["browser"]
    assert (check.status, check.summary) == ("warn", "no browser found (the platform default): set BROWSER or "
                                                     "install one")
    # without a display, why: a first-time user read "browser /usr/bin/x-www-browser" in the apps
    # list and "no browser found" under it
    check = by_name(run_checks(Settings(), {}, probes(browser=lambda env: None)))["browser"]
    assert (check.status, check.summary) == ("warn", "no display, so no browser window can open: searches need one")


def test_no_apps_installed_is_a_warning():
    check = by_name(run_checks(Settings(), {}, probes(which=which_from({}), browser=lambda env: None)))["apps"]
    assert check.status == "warn" and check.summary.startswith("0 of ")
    assert all(line.endswith("not installed") for line in check.detail)


# -- sound -------------------------------------------------------------------------------------

def test_microphone_found():
    check = by_name(run_checks(Settings(), {}, probes()))["microphone"]
    assert (check.status, check.summary) == ("ok", "default input: pulse")
    assert check.detail == ["input: USB Mic", "input: pulse"]


@pytest.mark.parametrize("probe, why", [
    (lambda: MicInfo([], None), "no input device"),
    (raising(ImportError("No module named 'pyaudio'")), "not installed"),
    (raising(OSError("Invalid sample rate")), "Invalid sample rate"),
])
def test_no_microphone_means_typed_commands(probe, why):
    check = by_name(run_checks(Settings(), {}, probes(microphone=probe)))["microphone"]
    assert (check.status, check.summary) == ("warn", doctor.NO_MIC)
    assert why in check.detail[0]


def test_a_hanging_sound_system_times_out():
    release = threading.Event()
    try:
        check = by_name(run_checks(Settings(), {}, probes(microphone=lambda: release.wait(10),
                                                          mic_timeout_s=0.2)))["microphone"]
    finally:
        release.set()
    assert check.status == "warn" and "no answer" in check.detail[0]


def test_speech_out_needs_espeak_and_aplay_on_linux():
    checks = by_name(run_checks(Settings(), {}, probes()))
    assert (checks["speech out"].status, checks["speech out"].summary) == ("ok", "pyttsx3 with the espeak driver")
    no_aplay = by_name(run_checks(Settings(), {}, probes(which=which_from({}))))["speech out"]
    assert no_aplay.status == "warn" and "print what it says" in no_aplay.summary
    no_lib = by_name(run_checks(Settings(), {}, probes(find_library=lambda name: None)))["speech out"]
    assert no_lib.status == "warn"
    no_tts = by_name(run_checks(Settings(), {}, probes(has_module=lambda name: name != "pyttsx3")))["speech out"]
    assert no_tts.status == "warn" and "pyttsx3 is not installed" in no_tts.summary


def test_speech_out_is_unavailable_without_a_sound_card():
    why = "no sound card (the default sound device cannot be opened: No such file or directory)"
    check = by_name(run_checks(Settings(), {}, probes(sound_card=lambda: why)))["speech out"]
    assert check.status == "warn"
    assert check.summary.startswith(f"speech out is unavailable: {why}")
    assert "ALSA lib" not in check.summary


def test_speech_in_is_information():
    check = by_name(run_checks(Settings(), {}, probes()))["speech in"]
    assert check.status == "info"
    assert check.summary == "SpeechRecognition installed; no pocketsphinx, so no offline recognition"


def test_speech_in_says_whether_the_recogniser_is_adapted_to_the_users_voice(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path)}
    saved = tmp_path / "anovax" / "voice" / "mllr_matrix"

    def adaptation() -> str:
        return by_name(run_checks(Settings(), env, probes()))["speech in"].detail[-1]

    assert adaptation().startswith("general acoustic model: anovax enrol adapts it")
    saved.parent.mkdir(parents=True)
    saved.write_text("1\n3\n" + "".join("13\n" + " ".join(["0.5"] * 195) + "\n" for _ in range(3)))
    assert adaptation().startswith("adapted to your voice (") and str(saved) in adaptation()
    saved.write_text("garbage")
    assert "is damaged" in adaptation()


# -- planner and key ----------------------------------------------------------------------------

def test_the_key_is_never_printed():
    settings = Settings(gemini_api_key=FAKE_KEY, model="gemini-test-model")
    checks = run_checks(settings, X11, probes())
    planner = by_name(checks)["planner"]
    assert planner.summary == "gemini, gemini-test-model (auto resolves to it)"
    assert "Gemini API key: set" in planner.detail
    report, as_json = format_report(checks), to_json(checks)
    assert FAKE_KEY not in report and FAKE_KEY not in as_json
    assert FAKE_KEY[:12] not in report + as_json  # not even a prefix of it


def test_planner_modes():
    offline = by_name(run_checks(Settings(), {}, probes()))["planner"]
    assert (offline.status, offline.summary) == ("ok", "offline (auto resolves to it)")
    assert "Gemini API key: not set" in offline.detail
    ollama = by_name(run_checks(Settings(planner="ollama", ollama_host="http://10.0.0.5:11434"), {},
                                probes()))["planner"]
    assert ollama.summary == "ollama, llama3.2"
    assert "Ollama: llama3.2 at http://10.0.0.5:11434" in ollama.detail
    no_key = by_name(run_checks(Settings(planner="gemini"), {}, probes()))["planner"]
    assert no_key.status == "fail" and "GEMINI_API_KEY" in no_key.summary


def test_settings_that_cannot_be_read_fail_the_planner_line_only():
    error = ConfigError("ANOVAX_PLANNER must be one of auto, gemini, ollama, offline, not 'gpt'.")
    checks = by_name(run_checks(error, {}, probes()))
    assert (checks["planner"].status, checks["planner"].summary) == ("fail", error.message)
    assert [c.name for c in checks.values() if c.status == "fail"] == ["planner"]


# -- remote ------------------------------------------------------------------------------------

def test_remote_reports_where_it_would_listen_and_that_phones_pair():
    check = by_name(run_checks(Settings(), {}, probes()))["remote"]
    assert (check.status, check.summary) == ("info", "off (ANOVAX_REMOTE=1, or the orb's Phone button, starts it)")
    assert check.detail[0] == "listens on http://192.168.7.20:8765"
    assert "pair" in check.detail[1]
    on = by_name(run_checks(Settings(remote=True, remote_bind="127.0.0.1", remote_port=9000), {}, probes()))["remote"]
    assert on.summary == "on: starts with the assistant at http://127.0.0.1:9000"


def test_remote_says_when_there_is_no_lan_address():
    check = by_name(run_checks(Settings(), {}, probes(lan_address=lambda: None)))["remote"]
    assert check.status == "info"
    assert check.detail[0] == "no LAN address (no default route): a phone could not reach this machine"


def test_real_lan_address_is_none_or_a_reachable_ipv4_address():
    address = doctor.lan_address()
    assert address is None or (ipaddress.ip_address(address).version == 4
                               and not ipaddress.ip_address(address).is_loopback)


# -- robustness and output -----------------------------------------------------------------------

def test_a_check_that_raises_becomes_a_fail_line():
    def broken_which(program):
        raise RuntimeError("PATH is unreadable")

    checks = by_name(run_checks(Settings(), {}, probes(which=broken_which)))
    assert list(checks) == NAMES  # every other check still ran
    assert (checks["apps"].status, checks["apps"].summary) == ("fail", "PATH is unreadable")
    assert checks["planner"].status == "ok"


def test_an_exception_without_a_message_is_named():
    def boom(ctx):
        raise KeyError

    checks = run_checks(Settings(), {}, probes(), checks=(("boom", boom), ("display", doctor.check_display)))
    assert [(c.name, c.status, c.summary) for c in checks][0] == ("boom", "fail", "KeyError")
    assert checks[1].name == "display"


def test_report_is_aligned_with_detail_indented():
    checks = run_checks(Settings(), X11, probes(browser=lambda env: None))
    lines = format_report(checks).splitlines()
    heads = [line for line in lines if line[:1] != " "][1:-1]  # minus the title and the count
    assert [h.split("  ")[0] for h in heads] == NAMES
    status_col = {h.index(c.status + " ", len(c.name)) for h, c in zip(heads, checks)}
    assert len(status_col) == 1  # every status starts in the same column
    summary_col = status_col.pop() + 6
    assert all(h[summary_col:].startswith(c.summary) for h, c in zip(heads, checks))
    assert any(line.startswith(" " * summary_col + "listens on http://") for line in lines)
    assert lines[-1] == "7 ok, 2 warn, 0 fail, 2 info"  # apps and browser: none in the fake PATH


def test_json_output_round_trips():
    checks = run_checks(Settings(planner="gemini"), WAYLAND, probes(x_connect=no_x))
    data = json.loads(to_json(checks))
    assert data["ok"] is False
    assert [Check(**c) for c in data["checks"]] == checks


# -- the command -------------------------------------------------------------------------------

@pytest.fixture
def env(tmp_path):
    """The environment of a headless machine with no key and no settings file."""
    strip = {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XAUTHORITY"}
    clean = {k: v for k, v in os.environ.items() if k not in strip and not k.startswith("ANOVAX_")}
    clean.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "data"),
                 XDG_STATE_HOME=str(tmp_path / "state"), ANOVAX_MEMORY=str(tmp_path / "memory.json"),
                 PYTHONPATH=str(REPO))
    return clean


def anovax(env, *args, stdin=""):
    return subprocess.run([sys.executable, "-m", "anovax", *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)


def test_doctor_command_without_a_display(env):
    proc = anovax(env, "doctor")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("AnovaX ") and lines[0].endswith(" doctor")
    display = [line for line in lines if line.startswith("display ")]
    assert len(display) == 1 and display[0].split()[1:4] == ["warn", "no", "display"]
    assert "ALSA" not in proc.stdout + proc.stderr  # PyAudio's chatter is kept out of the report


def test_doctor_json_and_exit_code_1_when_a_check_fails(env):
    proc = anovax(dict(env, ANOVAX_PLANNER="gemini", GOOGLE_API_KEY=FAKE_KEY[:-1] + "X"), "doctor", "--json")
    data = json.loads(proc.stdout)
    assert [c["name"] for c in data["checks"]] == NAMES
    planner = next(c for c in data["checks"] if c["name"] == "planner")
    assert planner["status"] == "ok"  # the key is there (and unprinted)
    assert FAKE_KEY[:-1] not in proc.stdout + proc.stderr
    assert proc.returncode == 0 and data["ok"] is True

    proc = anovax(dict(env, ANOVAX_PLANNER="gemini"), "doctor", "--json")
    data = json.loads(proc.stdout)
    assert proc.returncode == 1 and data["ok"] is False
    assert [c["name"] for c in data["checks"] if c["status"] == "fail"] == ["planner"]


def test_doctor_reports_bad_settings_instead_of_stopping(env):
    proc = anovax(dict(env, ANOVAX_PLANNER="gpt"), "doctor")
    assert proc.returncode == 1
    assert "planner " in proc.stdout and "ANOVAX_PLANNER must be one of" in proc.stdout
    assert "remote " in proc.stdout  # the checks after it still ran


def test_doctor_usage_errors_exit_2_and_help_lists_doctor(env):
    assert anovax(env, "doctor", "--bogus").returncode == 2
    helped = anovax(env, "--help")
    assert helped.returncode == 0 and "anovax doctor [--json]" in helped.stdout
    # the normal flags are untouched by the subcommand
    proc = anovax(env, "--text", "what time is it", "--dry-run", "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["status"] == "planned"


def test_doctor_via_the_cli_module(env):
    proc = subprocess.run([sys.executable, "-m", "anovax.cli", "doctor", "--json"], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["checks"][0]["name"] == "display"


def test_wayland_notice_is_printed_once_at_start_up(env):
    wayland = dict(env, WAYLAND_DISPLAY="wayland-anovax-test", XDG_SESSION_TYPE="wayland")
    notice = wayland_notice(wayland, "linux")
    proc = anovax(wayland, stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count(notice) == 1
    assert "acting on the linux desktop" in proc.stdout  # a real desktop, not the simulation
    # nothing reaches the display in a dry run or a simulation: no notice there
    assert notice not in anovax(wayland, "--dry-run", stdin="quit\n").stderr
    assert notice not in anovax(wayland, "--simulate", stdin="quit\n").stderr
    # and none on plain X11 (here an X server that isn't there)
    assert "Wayland" not in anovax(dict(env, DISPLAY=":99999"), stdin="quit\n").stderr


# -- a real X server -------------------------------------------------------------------------------

def test_doctor_on_a_real_x_server(xvfb, monkeypatch):
    if not xvfb.wm:
        pytest.skip("openbox is not installed")
    for key, value in xvfb.env.items():
        monkeypatch.setenv(key, value)  # python-xlib reads XAUTHORITY from the process environment
    env = {**xvfb.env, "XDG_SESSION_TYPE": "x11"}
    checks = by_name(run_checks(Settings(), env, Probes(microphone=lambda: MicInfo([], None))))
    assert (checks["display"].status, checks["display"].summary) == ("ok", f"X11 (DISPLAY={xvfb.display})")
    assert (checks["window manager"].status, checks["window manager"].summary) == ("ok", "Openbox")
    assert checks["focus checks"].status == "ok", checks["focus checks"]
    assert checks["focus checks"].summary.startswith("supported")


def test_doctor_command_on_a_real_x_server(xvfb, env):
    if not xvfb.wm:
        pytest.skip("openbox is not installed")
    proc = anovax({**env, **xvfb.env}, "doctor", "--json")
    checks = {c["name"]: c for c in json.loads(proc.stdout)["checks"]}
    assert checks["display"]["summary"] == f"X11 (DISPLAY={xvfb.display})"
    assert checks["window manager"]["summary"] == "Openbox"
    assert checks["focus checks"]["status"] == "ok"


def test_remote_bound_to_ipv6_shows_a_bracketed_address():
    check = by_name(run_checks(Settings(remote=True, remote_bind="::1", remote_port=9000), {}, probes()))["remote"]
    assert "http://[::1]:9000" in check.summary
