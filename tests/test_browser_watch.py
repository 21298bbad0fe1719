"""Honest browser actions (issue 18, point 2), without a screen: the wait on window evidence,
the search address settings, the safety gate vouching for the user's own search host, and the
Windows and macOS adapters against their fakes. Real windows: test_browser_x11.py."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import threading
import webbrowser
from pathlib import Path

import pytest
from test_desktop_macos import FakeMacApi
from test_desktop_macos import KeysDesktop as MacKeys
from test_desktop_windows import FakeWinApi, Win
from test_desktop_windows import KeysDesktop as WinKeys

from anovax.agents import AgentContext, BrowserAgent, MediaAgent
from anovax.desktop import real
from anovax.desktop.base import CancelToken
from anovax.desktop.browser_watch import EXIT_GRACE_S, FrontWindow, wait_for_browser
from anovax.desktop.macfront import Frontmost
from anovax.desktop.simulated import SimulatedDesktop
from anovax.errors import Cancelled, PermanentToolError
from anovax.plan import Plan, Step
from anovax.safety import safety_check
from anovax.search_urls import DEFAULT_SEARCH_URL, DEFAULT_VIDEO_URL, SearchUrls, fill, template_problem
from anovax.settings import load_settings
from anovax.tools import TOOLS

# -- the wait: a scripted desktop and a clock that moves one second per look ---------------------


def ticking():
    counter = itertools.count()
    return lambda: float(next(counter))


def scripted(*fronts):
    """front() answers these in turn, then the last one for ever."""
    answers = list(fronts)
    return lambda: answers.pop(0) if len(answers) > 1 else answers[0]


def wait(fronts, before, *, browsers=lambda f: True, exit_code=lambda: None, wait_s=10.0, name="it", log_path=None):
    return wait_for_browser(scripted(*fronts), browsers, before, CancelToken(), exit_code=exit_code,
                            wait_s=wait_s, name=name, clock=ticking(), log_path=log_path)


def test_a_new_browser_window_in_front_is_done():
    evidence = wait([None, FrontWindow(7, "Results - Chromium")], {1: "Editor"})
    assert (evidence.window, evidence.title, evidence.new) == (7, "Results - Chromium", True)
    assert evidence.as_data()["title"] == "Results - Chromium"


def test_an_old_browser_window_counts_once_its_title_changed():
    before = {3: "Old page - Chromium"}
    evidence = wait([FrontWindow(3, "Old page - Chromium"), FrontWindow(3, "weather in lisbon - Chromium")], before)
    assert (evidence.window, evidence.new, evidence.title) == (3, False, "weather in lisbon - Chromium")


def test_the_same_browser_window_unchanged_is_no_evidence():
    with pytest.raises(PermanentToolError, match="The browser did not open: no browser window came to the front "
                                                 "within 10 s"):
        wait([FrontWindow(3, "Old page - Chromium")], {3: "Old page - Chromium"})


def test_a_new_window_that_is_not_a_browser_is_no_evidence():
    asked = []

    def browsers(front):
        asked.append(front)
        return front.window == 9

    with pytest.raises(PermanentToolError, match="no browser window"):
        wait([FrontWindow(8, "Terminal")], {}, browsers=browsers)
    assert asked == [FrontWindow(8, "Terminal")]  # judged once per window and title, not per look
    assert wait([FrontWindow(8, "Terminal"), FrontWindow(9, "Fake")], {}, browsers=browsers).window == 9


def test_a_browser_that_dies_at_once_fails_with_its_exit_code(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000, raising=False)
    with pytest.raises(PermanentToolError, match=r"^The browser did not open: chromium exited with code 1\.$"):
        wait([None], {}, exit_code=lambda: 1, name="chromium")


def test_chromium_dying_as_root_says_why_and_where_its_output_went(monkeypatch, tmp_path):
    # a first-time user as root got only "chromium exited with code 1"; the reason (no
    # --no-sandbox as root) was in launched.log, which the message did not name
    monkeypatch.setattr(os, "geteuid", lambda: 0, raising=False)
    log = tmp_path / "launched.log"
    with pytest.raises(PermanentToolError, match=r"its output is in .*launched.log; run as root, Chromium needs "
                                                 r"--no-sandbox \(BROWSER=\"chromium --no-sandbox %s\"\)"):
        wait([None], {}, exit_code=lambda: 1, name="chromium", log_path=log)
    with pytest.raises(PermanentToolError, match=r"^The browser did not open: firefox exited with code 1; its output"):
        wait([None], {}, exit_code=lambda: 1, name="firefox", log_path=log)  # the sandbox note is Chromium's


def test_a_command_that_exits_with_an_error_but_hands_the_page_on_is_done():
    # the window comes within the grace period after the error exit
    fronts = [None] * int(EXIT_GRACE_S) + [FrontWindow(5, "page")]
    assert wait(fronts, {}, exit_code=lambda: 1).window == 5


def test_exit_0_alone_proves_nothing():
    with pytest.raises(PermanentToolError, match="no browser window came to the front within 3 s"):
        wait([None], {}, exit_code=lambda: 0, wait_s=3.0)


def test_a_stopped_wait_is_cancelled_not_failed():
    cancel = CancelToken()
    cancel.cancel("stop")
    with pytest.raises(Cancelled):
        wait_for_browser(lambda: None, lambda f: True, {}, cancel)


# -- the search addresses ------------------------------------------------------------------------


@pytest.mark.parametrize("value, problem", [
    ("https://duckduckgo.com/?q={query}", None),
    ("http://127.0.0.1:8080/search?q={query}", None),
    ("https://duckduckgo.com/?q=", "must contain {query}"),
    ("ftp://example.org/?q={query}", "http:// or https://"),
    ("javascript:alert({query})", "http:// or https://"),
    ("https://{query}.example.org/", "must name a host"),
    ("https:///?q={query}", "must name a host"),
    ("https://example.org/?q={query} x", "spaces"),
])
def test_template_checks(value, problem):
    found = template_problem(value)
    assert (found is None) if problem is None else (problem in found), found


def test_the_query_is_encoded_into_the_template_never_an_address():
    assert fill("https://duckduckgo.com/?q={query}", "café & more/..//evil.com") == \
        "https://duckduckgo.com/?q=caf%C3%A9+%26+more%2F..%2F%2Fevil.com"


def test_settings_from_the_environment_and_the_file(tmp_path):
    assert (load_settings({}).search_url, load_settings({}).video_url) == (DEFAULT_SEARCH_URL, DEFAULT_VIDEO_URL)
    env = {"ANOVAX_SEARCH_URL": "https://duckduckgo.com/?q={query}"}
    assert load_settings(env).search_urls == SearchUrls("https://duckduckgo.com/?q={query}", DEFAULT_VIDEO_URL)
    config = tmp_path / "config.toml"
    config.write_text('video_url = "https://vimeo.com/search?q={query}"\n')
    settings = load_settings(env, config_file=config)
    assert settings.video_url == "https://vimeo.com/search?q={query}" and settings.notices == ()
    assert settings.search_urls.hosts() == ("duckduckgo.com", "vimeo.com")


def test_a_bad_template_is_a_notice_and_the_default():
    settings = load_settings({"ANOVAX_SEARCH_URL": "duckduckgo.com/?q={query}", "ANOVAX_VIDEO_URL": "https://x.org/"})
    assert settings.search_url == DEFAULT_SEARCH_URL and settings.video_url == DEFAULT_VIDEO_URL
    assert settings.notices == (
        "ANOVAX_SEARCH_URL must start with http:// or https:// ('duckduckgo.com/?q={query}'); using "
        f"{DEFAULT_SEARCH_URL}.",
        f"ANOVAX_VIDEO_URL must contain {{query}} where the search words go ('https://x.org/'); using "
        f"{DEFAULT_VIDEO_URL}.")


@pytest.mark.parametrize("agent_class, tool, url", [
    (BrowserAgent, "web_search", "https://duckduckgo.com/?q=weather+in+lisbon"),
    (MediaAgent, "youtube_search", "https://vimeo.com/search?q=weather+in+lisbon"),
])
def test_the_agents_open_the_users_template(agent_class, tool, url):
    desk = SimulatedDesktop()
    ctx = AgentContext(desktop=desk, command_id="c1", depth=0, speak=lambda *a: None, run_subtask=lambda *a: None,
                       search_urls=SearchUrls("https://duckduckgo.com/?q={query}", "https://vimeo.com/search?q={query}"))
    agent = agent_class(agent_id="c1.1", index=0, step=Step(tool, {"query": "weather in lisbon"}), spec=TOOLS[tool],
                        ctx=ctx, deadline=1e9)
    result = agent.do_work()
    assert result.data["url"] == url and "verified" not in result.data  # the simulation sees no windows
    assert desk.actions[-1].arg == url


# -- the safety gate: the user's search host is vouched for, only through the runtime --------------


def typed_address(address: str) -> Plan:
    return Plan(steps=(Step("open_app", {"name": "firefox"}), Step("press_keys", {"keys": "ctrl+l"}),
                       Step("type_text", {"text": address}), Step("press_keys", {"keys": "enter"})))


def test_a_configured_search_host_may_carry_a_query_in_the_address_bar():
    plan = typed_address("search.example.org/?q=weather+in+lisbon")
    assert safety_check(plan, "look up the weather").rule == "exfiltration"  # nobody vouched for this host
    verdict = safety_check(plan, "look up the weather", search_hosts=("search.example.org",))
    assert verdict.ok, verdict
    # the rest of the rules still apply to the user's own engine
    secret = typed_address("search.example.org/?q=sk-live-4eC39HqLyjWDarjtT1zdp7dc")
    assert not safety_check(secret, "look up the weather", search_hosts=("search.example.org",)).ok


def test_search_hosts_are_checked_like_any_runtime_argument():
    plan = typed_address("search.example.org/?q=weather")
    assert safety_check(plan, "x", search_hosts="search.example.org").rule == "bad_context"
    assert safety_check(plan, "x", search_hosts=("a", "b", "c", "d", "e")).rule == "bad_context"


# -- Windows and macOS: the same contract, against the fakes -------------------------------------


class HandOff(webbrowser.BaseBrowser):
    """A browser that is not a command (the Windows and macOS defaults): ``open`` runs ``act``."""

    def __init__(self, act, result=True):
        super().__init__("handoff")
        self.act, self.result = act, result

    def open(self, url, new=0, autoraise=True):
        self.act(url)
        return self.result


@pytest.fixture
def short_waits(monkeypatch):
    import anovax.desktop.browser_watch as watch

    monkeypatch.setattr(watch, "BROWSER_WAIT_S", 0.3)
    monkeypatch.setattr(real, "wait_for_browser",
                        lambda *a, **k: watch.wait_for_browser(*a, **{**k, "wait_s": 0.3}))


def windows_world():
    api = FakeWinApi({1: Win(10, "Untitled - Notepad", "Notepad"), 2: Win(20, "Old - Google Chrome", "Chrome")},
                     [1], images={10: r"C:\Windows\notepad.exe", 20: r"C:\Chrome\chrome.exe"})
    return api, WinKeys(api, lambda name: None)


def test_windows_a_retitled_browser_in_front_is_done(monkeypatch):
    api, desk = windows_world()

    def chrome_shows(url):
        api.windows[2] = Win(20, "weather in lisbon - Google Chrome", "Chrome")
        api.set_foreground(2)

    monkeypatch.setattr(real, "find_browser", lambda: HandOff(chrome_shows))
    try:
        evidence = desk.open_url("https://www.google.com/search?q=weather+in+lisbon", CancelToken())
    finally:
        desk.close()
    assert (evidence.window, evidence.title, evidence.new) == (2, "weather in lisbon - Google Chrome", False)


def test_windows_nothing_in_front_is_a_failure(monkeypatch, short_waits):
    api, desk = windows_world()
    monkeypatch.setattr(real, "find_browser", lambda: HandOff(lambda url: None))
    try:
        with pytest.raises(PermanentToolError, match="The browser did not open: no browser window came to the front"):
            desk.open_url("https://www.google.com/search?q=x", CancelToken())
        # a new window in front that is no browser's (notepad) is not evidence either
        api.windows[3] = Win(10, "x - Notepad", "Notepad")
        api.visible.add(3)
        monkeypatch.setattr(real, "find_browser", lambda: HandOff(lambda url: api.set_foreground(3)))
        with pytest.raises(PermanentToolError, match="did not open"):
            desk.open_url("https://www.google.com/search?q=x", CancelToken())
        monkeypatch.setattr(real, "find_browser", lambda: HandOff(lambda url: None, result=False))
        with pytest.raises(PermanentToolError, match="The browser did not open: it exited with an error"):
            desk.open_url("https://www.google.com/search?q=x", CancelToken())
    finally:
        desk.close()


SAFARI = Frontmost("Safari", 60, bundle_id="com.apple.Safari")
TEXTEDIT = Frontmost("TextEdit", 77, bundle_id="com.apple.TextEdit")


def test_macos_the_browser_coming_to_the_front_is_done(monkeypatch, short_waits):
    api = FakeMacApi([TEXTEDIT], titles={77: "Untitled", 60: "Favourites"})
    desk = MacKeys(api)
    try:
        monkeypatch.setattr(real, "find_browser", lambda: HandOff(lambda url: api.set_front(SAFARI)))
        evidence = desk.open_url("https://www.google.com/search?q=x", CancelToken())
        assert (evidence.window, evidence.title, evidence.new) == (60, "Favourites", True)
        # Safari in front already: only a new title counts
        monkeypatch.setattr(real, "find_browser", lambda: HandOff(lambda url: None))
        with pytest.raises(PermanentToolError, match="did not open"):
            desk.open_url("https://www.google.com/search?q=x", CancelToken())
        monkeypatch.setattr(real, "find_browser",
                            lambda: HandOff(lambda url: api.titles.__setitem__(60, "x - Google Search")))
        assert desk.open_url("https://www.google.com/search?q=x", CancelToken()).title == "x - Google Search"
    finally:
        desk.close()


def test_macos_a_browser_whose_title_cannot_be_read_is_not_verified(monkeypatch):
    api = FakeMacApi([SAFARI], titles={})  # no Accessibility permission: every title is ""
    desk = MacKeys(api)
    opened = threading.Event()
    try:
        monkeypatch.setattr(real, "find_browser", lambda: HandOff(lambda url: opened.set()))
        assert desk.open_url("https://www.google.com/search?q=x", CancelToken()) is None and opened.is_set()
    finally:
        desk.close()


def test_a_bad_search_address_is_said_at_start_up_and_the_default_is_used(tmp_path):
    repo = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY"}
           and not k.startswith("ANOVAX_")}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_STATE_HOME=str(tmp_path / "state"),
               ANOVAX_MEMORY=str(tmp_path / "memory.json"), PYTHONPATH=str(repo), ANOVAX_PLANNER="offline",
               ANOVAX_SEARCH_URL="duckduckgo.com/?q={query}")
    done = subprocess.run([sys.executable, "-m", "anovax", "--text", "search the web for weather in lisbon",
                           "--simulate", "--json"], capture_output=True, text=True, env=env, cwd=repo, timeout=60)
    assert done.returncode == 0, done.stderr
    assert ("anovax: ANOVAX_SEARCH_URL must start with http:// or https:// ('duckduckgo.com/?q={query}'); "
            f"using {DEFAULT_SEARCH_URL}.") in done.stderr
    assert "https://www.google.com/search?q=weather+in+lisbon" in done.stdout
