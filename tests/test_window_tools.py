"""Window tools (issue 18, point 1): the offline planner's phrases, the agent on the simulated
desktop, the safety walk, and the platform-neutral matching of windows to app names."""

from __future__ import annotations

import pytest

from anovax.app import build_assistant
from anovax.results import Status

DONE = Status.DONE
from anovax.desktop.simulated import SimulatedDesktop
from anovax.desktop.windowing import AppWindow, WindowState, of_app, program_key, spoken_list, wanted_programs
from anovax.memory import Memory
from anovax.plan import Plan, Step
from anovax.planner.offline import OfflinePlanner
from anovax.prompts import render_plan_prompt
from anovax.safety import safety_check
from anovax.settings import Settings
from anovax.tools import TOOLS

PLANNER = OfflinePlanner(strict=True)


def steps(text: str) -> list[tuple[str, dict]]:
    return [(s.tool, dict(s.params)) for s in PLANNER.plan(text).steps]


@pytest.mark.parametrize("text, tool, name", [
    ("switch to notepad", "switch_to_app", "notepad"),
    ("switch over to the notepad window", "switch_to_app", "notepad"),
    ("go back to notepad", "switch_to_app", "notepad"),
    ("bring up the calculator", "switch_to_app", "calculator"),
    ("bring notepad to the front", "switch_to_app", "notepad"),
    ("switch to galculator", "switch_to_app", "galculator"),
    ("close the calculator", "close_app", "calculator"),
    ("quit notepad", "close_app", "notepad"),
    ("exit the calculator app", "close_app", "calculator"),
    ("minimise notepad", "minimize_app", "notepad"),
    ("minimize the calculator", "minimize_app", "calculator"),
    ("hide notepad", "minimize_app", "notepad"),
    ("maximise the browser", "maximize_app", "browser"),
    ("maximize notepad", "maximize_app", "notepad"),
    ("make notepad full screen", "maximize_app", "notepad"),
    ("restore notepad", "restore_app", "notepad"),
    ("unminimize the calculator", "restore_app", "calculator"),
])
def test_window_phrases_plan_their_tool_with_the_app_from_the_lexicon(text, tool, name):
    assert steps(text) == [(tool, {"name": name})]


@pytest.mark.parametrize("text", ["what's open", "what is open", "what windows are open", "which apps are open",
                                  "what apps are running", "what do i have open", "list the open windows",
                                  "show me my open apps"])
def test_whats_open_lists_the_windows(text):
    assert steps(text) == [("list_windows", {})]


def test_switch_to_and_bring_up_no_longer_open_a_new_window():
    assert steps("switch to notepad and type hello") == [("switch_to_app", {"name": "notepad"}),
                                                          ("type_text", {"text": "hello"})]
    assert steps("open notepad") == [("open_app", {"name": "notepad"})]  # open still opens


@pytest.mark.parametrize("text", ["switch to youtube", "bring up youtube"])
def test_a_site_still_opens_in_the_browser(text):
    assert steps(text) == [("open_website", {"address": "https://www.youtube.com/"})]


@pytest.mark.parametrize("text", ["bring up the weather", "close the window", "what's open near me", "close the browser tab",
                                  "switch to the next window", "close this tab"])
def test_words_that_name_no_app_are_not_window_tools(text):
    assert not {t for t, _ in steps(text)} & {"switch_to_app", "close_app", "list_windows"}


def test_the_offline_reply_names_the_app_as_the_lexicon_shows_it():
    assert PLANNER.plan("switch to notepad").final_response == "Switching to Notepad."
    assert PLANNER.plan("close the calculator").final_response == ""  # the agent says what happened


def test_the_prompt_and_schema_carry_every_window_tool():
    prompt = render_plan_prompt()
    for name in ("switch_to_app", "close_app", "minimize_app", "maximize_app", "restore_app", "list_windows"):
        assert f"- {name}(" in prompt
        assert any(v["properties"]["tool"]["enum"] == [name] for v in TOOLS.step_schema()["anyOf"])
    assert "open_app to switch" not in prompt


# -- the windowing rules ------------------------------------------------------------------


def test_notepad_matches_the_programs_its_row_can_start_on_each_platform():
    assert {"mousepad", "gedit", "notepad"} <= wanted_programs("notepad", "linux")
    assert "notepad" in wanted_programs("the notepad app", "windows")
    assert "textedit" in wanted_programs("notepad", "macos")
    assert program_key(r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe") == "msedge"
    assert program_key("/usr/bin/x-www-browser") == "xwwwbrowser"


def test_windows_of_an_app_keep_their_stacking_order_and_the_list_names_each_app_once():
    pad = AppWindow(1, "Mousepad", "a - Mousepad", frozenset({"mousepad"}))
    calc = AppWindow(2, "Galculator", "galculator", frozenset({"galculator"}))
    pad2 = AppWindow(3, "Mousepad", "b - Mousepad", frozenset({"mousepad"}))
    assert of_app([pad, calc, pad2], wanted_programs("notepad", "linux")) == [pad, pad2]
    assert spoken_list([pad, calc, pad2]) == "Open: Mousepad, Galculator."
    assert spoken_list([]) == "No app windows are open."


# -- the agent, on the simulated desktop ------------------------------------------------------


@pytest.fixture
def run(tmp_path):
    desk = SimulatedDesktop()
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json")
    assistant = build_assistant(settings, planner=OfflinePlanner(), memory=Memory(settings.memory_path),
                                desktop=desk)

    def say(text: str):
        return assistant.on_speech(text)
    say.desktop = desk
    return say


def test_switch_focuses_the_open_window_and_launches_nothing(run):
    run("open notepad")
    run("open the calculator")
    run.desktop.take_actions()
    result = run("switch to notepad")
    assert result.status is DONE, result.message
    assert [(a.kind, a.arg) for a in run.desktop.actions if a.kind != "speak"] == [("switch", "Notepad")]
    assert [w.app for w in run.desktop.windows] == ["Notepad", "Calculator"]  # one notepad, now on top


def test_switch_to_an_app_with_no_window_opens_it_and_says_so(run):
    result = run("switch to the calculator")
    assert result.status is DONE
    assert [a.kind for a in run.desktop.actions if a.kind != "speak"] == ["launch"]
    assert "wasn't open, so I opened it" in result.outcome.spoken


def test_close_with_unsaved_text_says_the_app_is_asking(run):
    run("open notepad and type milk")
    result = run("close notepad")
    assert result.status is DONE
    assert "Notepad is asking whether to save your changes." in result.outcome.spoken
    assert [w.app for w in run.desktop.windows] == ["Notepad"]


def test_close_without_unsaved_text_closes_and_nothing_open_is_a_clear_failure(run):
    run("open the calculator")
    assert "Closed Calculator." in run("close the calculator").outcome.spoken
    assert run.desktop.windows == []
    again = run("close the calculator")
    assert again.status is not DONE and "isn't open, so there's nothing to close" in again.message


def test_minimise_maximise_restore_and_list(run):
    run("open notepad")
    run("open the calculator")
    assert run("minimise notepad").status is DONE
    assert {w.app: w.state for w in run.desktop.windows}["Notepad"] is WindowState.MINIMIZED
    assert run("restore notepad").status is DONE
    assert {w.app: w.state for w in run.desktop.windows}["Notepad"] is WindowState.NORMAL
    assert run("maximise the calculator").status is DONE
    assert {w.app: w.state for w in run.desktop.windows}["Calculator"] is WindowState.MAXIMIZED
    listed = run("what's open")
    assert listed.status is DONE and "Open: Calculator, Notepad." in listed.outcome.spoken
    missing = run("minimise the browser")
    assert missing.status is not DONE and "isn't open" in missing.message


# -- safety --------------------------------------------------------------------------------


def test_a_window_name_is_screened_like_an_app_name():
    verdict = safety_check(Plan((Step("close_app", {"name": "rm -rf /"}),), "ok"))
    assert not verdict.ok


def test_typing_after_a_close_does_not_go_to_the_closed_app_unasked():
    typed_into_switch = safety_check(Plan((Step("switch_to_app", {"name": "notepad"}),
                                           Step("type_text", {"text": "hello"})), "ok"))
    assert typed_into_switch.ok and not typed_into_switch.needs_yes  # the keys go to notepad, a text app
    after_close = safety_check(Plan((Step("close_app", {"name": "notepad"}), Step("type_text", {"text": "hello"})), "ok"))
    assert not after_close.ok or after_close.needs_yes


def test_closing_the_browser_names_the_other_browser_left_open(run):
    # a first-time user: with Firefox and Chrome open, "close the browser" said "1 more Chrome
    # window is still open" of the Firefox window
    run("open firefox")
    run("open chrome")
    result = run("close the browser")
    assert result.status is DONE, result.message
    closed = [w for w in ("Chrome", "Firefox") if w not in [x.app for x in run.desktop.windows]]
    assert len(closed) == 1 and [w.app for w in run.desktop.windows] != []
    left = run.desktop.windows[0].app
    assert f"Closed {closed[0]}. {left} is still open." in result.outcome.spoken, result.outcome.spoken


def test_a_failure_says_what_ran_before_it(run):
    # a first-time user: "switch to firefox and close notepad" opened Firefox, and the reply said
    # only that Notepad wasn't open
    result = run("switch to the calculator and close notepad")
    assert result.status is not DONE
    assert [a.kind for a in run.desktop.actions if a.kind != "speak"] == ["launch"]
    assert "Notepad isn't open" in result.message and "What did run: calculator is open" in result.message
    assert "What did run" not in run("close notepad").message  # nothing ran: nothing to tell
