"""The console at its idle prompt when another front end's command asks a question (a spoken
command's "Type `ls` and press Enter in Terminal?"): shown under the prompt, answered by the
line typed after it, and never by a line typed before it; Ctrl-D there still leaves.

In-process, with the real Confirmations broker and a terminal-like pipe for standard input.
The same through a pty with a spoken command is in test_voice_confirm.py."""

from __future__ import annotations

import _thread
import io
import os
import threading
import time
from types import SimpleNamespace

import pytest
from helpers import in_thread, wait_for

from anovax import console as console_module
from anovax import console_question
from anovax.confirm import Answer, Confirmations
from anovax.console import console
from anovax.events import EventBus, EventType

QUESTION = "Type `ls` and press Enter in Terminal?"


class TerminalPipe(io.TextIOWrapper):
    """A pipe the console takes for a terminal (``isatty``), written to by the test."""

    def isatty(self) -> bool:
        return True


class Screen(io.StringIO):
    """What the console wrote, readable while it runs."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def write(self, text: str) -> int:
        with self.lock:
            return super().write(text)

    def shown(self) -> str:
        with self.lock:
            return self.getvalue()


class Assistant:
    """The console's view of the assistant: its questions are asked by "another front end"."""

    def __init__(self) -> None:
        self.bus = EventBus()
        self.confirmations = Confirmations(self.bus, timeout_s=30.0)
        self.busy = False
        self.submitted: list[str] = []

    def submit(self, text: str, source: str = "console"):
        from concurrent.futures import Future

        from anovax.results import CommandResult, Status

        self.submitted.append(text)
        done: Future = Future()
        done.set_result(CommandResult(text=text, status=Status.DONE, message="ok", planner="offline", command_id="c9"))
        return done

    def stop(self, source: str, waiting=()):  # noqa: ANN001
        raise AssertionError("nothing runs here to stop")


@pytest.fixture
def idle():
    """(assistant, type_line, screen, console future): the console running at its idle prompt."""
    read_fd, write_fd = os.pipe()
    stdin = TerminalPipe(os.fdopen(read_fd, "rb"))
    writer = os.fdopen(write_fd, "w")
    assistant, screen = Assistant(), Screen()
    done = in_thread(lambda: console(assistant, stdin, screen, show=lambda result: screen.write(result.message + "\n")))
    wait_for(lambda: assistant.confirmations.frontends() == ("console",), 20, "the console to register")

    def type_line(text: str | None) -> None:
        if text is None:
            writer.close()  # Ctrl-D
        else:
            writer.write(text + "\n")
            writer.flush()

    yield assistant, type_line, screen, done
    if not writer.closed:
        writer.close()
    done.result(10)
    assistant.bus.close()


def ask(assistant: Assistant):
    question = assistant.confirmations.new_question("c1", QUESTION, [{"index": 1, "tool": "type_text",
                                                                      "params": {"text": "ls"}}], "xterm")
    return in_thread(lambda: assistant.confirmations.ask(question, None))


def test_a_question_shows_under_the_idle_prompt_and_the_next_line_answers_it(idle, monkeypatch):
    monkeypatch.setattr(console_question, "ANSWER_AFTER_S", 0.0)  # however soon the answer comes
    assistant, type_line, screen, _ = idle
    reply = ask(assistant)
    wait_for(lambda: "[y/N]" in screen.shown(), 20, "the question under the prompt")
    assert f'you> \nAnovaX asks (in "xterm"): {QUESTION} [y/N] ' in screen.shown()
    type_line("y")
    assert reply.result(10).answer is Answer.YES
    assert assistant.submitted == []  # an answer, not a command
    type_line("quit")


def test_a_line_sent_as_the_question_appears_is_a_command_not_an_answer(idle, monkeypatch):
    # typed before the question was drawn under it: "y" for something else, or a half-typed command
    monkeypatch.setattr(console_question, "ANSWER_AFTER_S", 60.0)  # however slow the machine
    assistant, type_line, screen, _ = idle
    reply = ask(assistant)
    wait_for(lambda: "[y/N]" in screen.shown(), 20, "the question under the prompt")
    type_line("type hello")
    wait_for(lambda: assistant.submitted == ["type hello"], 20, "the line run as a command")
    assert not reply.done()
    assistant.confirmations.answer(assistant.confirmations.pending.question_id, False, "orb")
    assert reply.result(10).answer is Answer.NO
    type_line("quit")


def test_ctrl_d_while_a_question_shows_leaves_cleanly(idle):
    # it crashed: None (end of input) was taken as the answer, and None.strip() raised
    assistant, type_line, screen, done = idle
    reply = ask(assistant)
    wait_for(lambda: "[y/N]" in screen.shown(), 20, "the question under the prompt")
    type_line(None)
    assert done.result(10) == 0
    assert reply.result(10).answer is Answer.NOBODY  # the console was the one front end left


def test_a_console_control_typed_at_the_question_runs_and_is_not_a_no(idle, monkeypatch):
    monkeypatch.setattr(console_question, "ANSWER_AFTER_S", 0.0)
    assistant, type_line, screen, _ = idle
    reply = ask(assistant)
    wait_for(lambda: "[y/N]" in screen.shown(), 20, "the question under the prompt")
    type_line(":help")  # it was taken as a no
    # then "you> " was drawn, and the line typed there answered the question all the same
    asked = f'AnovaX asks (in "xterm"): {QUESTION} [y/N] '
    wait_for(lambda: "Console commands:" in screen.shown() and screen.shown().endswith(asked), 20,
             lambda: f"the console's help, then the question again: {screen.shown()[-200:]!r}")
    assert not reply.done()
    type_line("y")
    assert reply.result(10).answer is Answer.YES
    type_line("quit")


def test_a_timer_alert_draws_the_shown_question_again_not_the_prompt(idle, monkeypatch):
    # without a status line the alert drew "you> " again, and the [y/N] it wrote over was lost
    monkeypatch.setattr(console_question, "ANSWER_AFTER_S", 0.0)
    assistant, type_line, screen, _ = idle
    reply = ask(assistant)
    wait_for(lambda: "[y/N]" in screen.shown(), 20, "the question under the prompt")
    assistant.bus.emit(EventType.TIMER_FIRED, "t1", data={"message": "Timer done: tea."})
    wait_for(lambda: "Timer done: tea." in screen.shown(), 20, "the timer's alert")
    assert screen.shown().endswith(f"Timer done: tea.\nAnovaX asks (in \"xterm\"): {QUESTION} [y/N] ")
    type_line("y")
    assert reply.result(10).answer is Answer.YES
    type_line("quit")


def test_ctrl_c_while_a_question_shows_stops_the_command_and_draws_the_prompt_once():
    # Ctrl-C at the idle prompt's [y/N] (a voice command waits on it) stops that command; the
    # prompt was drawn twice: once after the stop, once more when the question went away
    read_fd, write_fd = os.pipe()
    stdin, writer = TerminalPipe(os.fdopen(read_fd, "rb")), os.fdopen(write_fd, "w")
    assistant, screen, stopped = Assistant(), Screen(), []
    assistant.busy = True  # the voice command that asks

    def stop(source: str, waiting=()):  # noqa: ANN001
        stopped.append(source)
        assistant.confirmations.answer(assistant.confirmations.pending.question_id, False, "console")
        assistant.busy = False
        return SimpleNamespace(message="Stopped the voice command.")

    assistant.stop = stop

    def press_ctrl_c_then_quit() -> None:
        try:
            wait_for(lambda: assistant.confirmations.frontends() == ("console",), 20, "the console to register")
            reply = ask(assistant)
            wait_for(lambda: "[y/N]" in screen.shown(), 20, "the question under the prompt")
            _thread.interrupt_main()
            assert reply.result(10).answer is Answer.NO
            wait_for(lambda: screen.shown().endswith("Stopped the voice command.\nyou> "), 20, "the prompt")
            time.sleep(1.0)  # the question's going away is seen within 0.1 s: time for a second prompt
        finally:
            writer.write("quit\n")
            writer.close()

    helper = in_thread(press_ctrl_c_then_quit)
    assert console(assistant, stdin, screen, show=lambda result: None) == 0
    helper.result(10)
    assistant.bus.close()
    assert stopped == ["console"]
    assert screen.shown().endswith("[y/N] \nStopped the voice command.\nyou> "), screen.shown()
    assert screen.shown().count("you> ") == 2, screen.shown()


def test_a_question_answered_elsewhere_during_a_console_control_is_not_drawn_again(idle, monkeypatch):
    # the ":help" line drew the [y/N] again although the phone had answered it meanwhile: a "y"
    # typed at that dead question then ran as a command
    monkeypatch.setattr(console_question, "ANSWER_AFTER_S", 0.0)
    assistant, type_line, screen, _ = idle
    reply = ask(assistant)
    wait_for(lambda: "[y/N]" in screen.shown(), 20, "the question under the prompt")

    def answered_on_the_phone_meanwhile(text: str, remote) -> str:  # noqa: ANN001
        assistant.confirmations.answer(assistant.confirmations.pending.question_id, False, "phone")
        return "Console commands: ..."

    monkeypatch.setattr(console_module, "console_control", answered_on_the_phone_meanwhile)
    type_line(":help")
    assert reply.result(10).answer is Answer.NO
    wait_for(lambda: screen.shown().endswith("Console commands: ...\nyou> "), 20,
             lambda: f"the prompt after the control: {screen.shown()[-200:]!r}")
    time.sleep(0.5)  # a stale question is forgotten within 0.1 s: time for a second prompt to show
    assert screen.shown().endswith("Console commands: ...\nyou> "), screen.shown()[-200:]
    type_line("quit")
