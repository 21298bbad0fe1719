"""The console as a first-time user meets it, on a pseudo-terminal: the reply alone by default,
``--verbose`` with the plan and the verdict in the order they happened, a prompt that nothing
prints over, and ``:help``."""

from __future__ import annotations

import pytest

from pty_kit import Pty, cli_environment, screen

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")

DEVELOPER_OUTPUT = ("Plan (", "Safety:", "Simulated desktop:", "[done]")


@pytest.fixture
def env(tmp_path):
    env = cli_environment(tmp_path, "http://127.0.0.1:9")
    env["ANOVAX_PLANNER"] = "offline"
    return env


def session(env, *args):
    term = Pty(env, "--simulate", *args)
    term.read_until(b"you> ", 60)
    return term


def quit_(term) -> None:
    term.type("quit\n")
    assert term.close() == 0


def test_the_console_prints_the_reply_alone(env):
    term = session(env)
    term.type("open notepad and type hello\n")
    term.read_until(b"you> ", 60)
    term.type("take a screenshot\n")
    term.read_until(b"you> ", 60)
    quit_(term)
    shown = screen(term.seen)
    assert "AnovaX: Opening Notepad. Typing into Notepad: hello." in shown, shown
    # no display: simulated, and no file is claimed (issue 18 round 2)
    assert any(line.startswith("AnovaX: Taking a screenshot. No screenshot was taken: this desktop is simulated")
               for line in shown), shown
    text = term.seen.decode(errors="replace")
    assert not [word for word in DEVELOPER_OUTPUT if word in text], text


def test_verbose_shows_the_plan_and_the_verdict_before_what_they_let_run(env):
    term = session(env, "--verbose")
    term.type("open notepad and type hello\n")
    term.read_until(b"you> ", 60)
    # a plan held for a yes: its verdict is printed while the question waits, before any key
    term.type("open a terminal and type ls and press enter\n")
    term.read_until(b"[y/N] ", 60)
    asks = b"Safety: asks first: Type `ls` and press Enter in Terminal?"
    if asks not in term.seen:
        term.read_until(asks, 10)
    term.type("n\n")
    term.read_until(b"you> ", 60)
    quit_(term)
    shown = screen(term.seen)

    def at(prefix: str, after: int = 0) -> int:
        return next(i for i, line in enumerate(shown) if i >= after and line.startswith(prefix))
    first = at("Plan (offline planner")
    order = [first, at("Safety: allowed", first), at("  [done] open_app: notepad", first),
             at("AnovaX: Opening Notepad.", first), at("Simulated desktop:", first)]
    assert order == sorted(order), shown
    second = at("Plan (offline planner", order[-1])
    order = [second, at("Safety: asks first:", second), at("  [done] open_app: terminal", second),
             at("Not done: You said no", second)]
    assert order == sorted(order), shown
    assert shown[-1] == "you> "


def test_a_refusal_leaves_the_prompt_whole(env):
    term = session(env)
    term.type("open a terminal and run rm -rf ~\n")
    term.read_until(b"you> ", 60)
    term.type("what ti")
    term.read_until(b"what ti", 10)
    shown = screen(term.seen)
    assert shown[-1] == "you> what ti" and shown[-2].startswith("Refused: "), shown
    term.type("me is it\n")
    term.read_until(b"you> ", 60)
    quit_(term)
    assert screen(term.seen)[-2].startswith("AnovaX: "), screen(term.seen)


def test_a_notice_that_comes_while_the_prompt_waits_goes_above_it(env):
    # voice on, no microphone: the listener says so from its own thread, whenever it finds out
    env["ANOVAX_VOICE"] = "auto"
    term = session(env)
    notice = b"Type your commands instead."
    if notice not in term.seen[:term.read_to]:  # not before the prompt: it comes (or came) after it
        term.read_until(notice, 60)
        term.read_until(b"you> ", 10)  # and the prompt is drawn again under it
    term.type("hello")
    term.read_until(b"hello", 10)
    shown = screen(term.seen)
    assert shown[-1] == "you> hello", shown
    notice = next(line for line in shown if "voice input is off" in line)
    assert notice.startswith("anovax: voice input is off"), shown  # on a line of its own
    term.type("\n")
    term.read_until(b"you> ", 60)
    quit_(term)


def test_help_lists_the_console_commands(env):
    term = session(env)
    term.type(":help\n")
    term.read_until(b"you> ", 30)
    term.type(":bogus\n")
    term.read_until(b"you> ", 30)
    quit_(term)
    shown = screen(term.seen)
    start = shown.index("Console commands:")
    listed = [line.split()[0] + (" " + line.split()[1] if line.split()[0] == ":remote" else "")
              for line in shown[start + 1:] if line.startswith("  ")]
    assert listed == [":help", ":remote on", ":remote off", ":unban", "stop", "quit"], shown
    assert "There is no console command ':bogus': :help lists them." in shown


@pytest.mark.parametrize("line", ["quit now", "Exit, please.", "quit!", "goodbye", "close the console", "close anovax",
                                  "see you later", "That's all."])
def test_a_quit_with_now_or_please_leaves_and_closes_no_app_called_now(env, line):
    # a first-time user's "quit now" got "Now isn't open, so there's nothing to close." and stayed
    term = session(env)
    term.type(line + "\n")
    assert term.close() == 0
    shown = "\n".join(screen(term.seen))
    assert "isn't open" not in shown and "nothing to close" not in shown, shown
