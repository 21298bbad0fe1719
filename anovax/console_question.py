"""The console's [y/N]: a plan held for a yes is asked about on the terminal.

Only when standard input is a terminal and the output is for a person (not ``--json``): piped
input was typed before the question existed, so it must never answer one. The line typed
after the question is shown is the answer ("y" or "yes" is yes; a request that names all it
acts on, "what time is it", declines it and runs, as a new spoken command does; anything else,
an empty line included, is no); lines typed before it stay commands (at the idle prompt, also
one sent within ``ANSWER_AFTER_S`` of the question appearing under it). A question is shown
while a typed command runs and at the idle prompt too: a voice or phone command's question
went unseen there, and the next line typed was taken as a command.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TextIO

from anovax.confirm import Question
from anovax.port import AssistantPort

YES_WORDS = frozenset({"y", "yes"})
#: a line that arrives sooner than this after the question was drawn was typed before it (a
#: question from another front end can appear under a half-typed command): a command, not an answer
ANSWER_AFTER_S = 0.5


class ConsoleQuestion:
    """Registered as the "console" front end for as long as the prompt runs."""

    def __init__(self, assistant: AssistantPort, out: TextIO, hold: Any, status: Any = None, *,
                 leave: Callable[[str], bool] = lambda line: False) -> None:
        #: lines that decline and still do what they say ("quit": it was taken as a no, and stayed)
        self._leave = leave
        self._confirmations = assistant.confirmations
        self._out = out
        self._hold = hold
        self._status = status
        self._shown: Question | None = None
        self._prompt = ""
        #: until when a line is taken as typed before the question showed (under the idle prompt)
        self._typed_ahead_until = 0.0
        #: questions already shown: one answered here stays pending a moment until the command
        #: thread takes the answer, and must not be asked again
        self._asked: set[str] = set()
        self._unregister = self._confirmations.register("console")

    @property
    def showing(self) -> bool:
        return self._shown is not None

    @property
    def prompt(self) -> str:
        """The shown question's line as drawn, for drawing it again; "" when none shows, or when
        the one shown has gone (answered elsewhere, timed out)."""
        shown, waiting = self._shown, self._confirmations.unanswered
        live = shown is not None and waiting is not None and waiting.question_id == shown.question_id
        return self._prompt if live else ""

    def settle(self) -> None:
        """The line is ended (a console control's output): forget a shown question that has
        gone, so the prompt drawn next is the only one."""
        if self._shown is not None and not self.prompt:
            self._forget(newline=False)

    def show_pending(self, *, below: str = "") -> bool:
        """Print the pending question once (after ``below``: the idle prompt's line is ended
        first); end its line if it went away unanswered here. True when it went away."""
        question = self._confirmations.pending
        gone = self._shown is not None and (question is None or question.question_id != self._shown.question_id)
        if gone:
            self._forget(newline=True)  # answered elsewhere, or timed out
        if question is None or self._shown is not None or question.question_id in self._asked:
            return gone
        self._shown = question
        # only under the idle prompt, where it can appear under a half-typed line: while the
        # person's own command runs, they expect its question
        self._typed_ahead_until = time.monotonic() + ANSWER_AFTER_S if below else 0.0
        self._asked.add(question.question_id)
        # "in", not "window": a question may be about AnovaX's own memory, not a window
        where = f' (in "{question.target}")' if question.target else ""
        self._prompt = prompt = f"AnovaX asks{where}: {question.text} [y/N] "
        with self._hold():
            self._out.write(below + prompt)
            self._out.flush()
            if self._status is not None:
                self._status.prompt, self._status.paused = prompt, True
        return False

    def take(self, line: str) -> bool:
        """Answer the shown question with ``line``; False when no question is shown, or when
        ``line`` replaced it (a new request, or a way to leave: the caller acts on it)."""
        question, pending = self._shown, self._confirmations.pending
        if question is None:
            return False
        if pending is None or pending.question_id != question.question_id:
            self._forget(newline=False)
            return False
        if time.monotonic() < self._typed_ahead_until or line.lstrip().startswith(":"):
            return False  # typed before the question showed, or a console control (":help"): not an answer
        text = line.strip().lower()
        leaving = self._leave(text)
        instead = not leaving and text not in YES_WORDS and _stands_alone(text)
        self._confirmations.answer(question.question_id, None if instead else text in YES_WORDS, "console")
        self._forget(newline=False)  # the person's Enter ended the line
        return not (instead or leaving)

    def end(self) -> None:
        """The command ended: a question still shown went unanswered here."""
        if self._shown is not None:
            self._forget(newline=True)

    def close(self) -> None:
        self._unregister()

    def _forget(self, *, newline: bool) -> None:
        self._shown = None
        with self._hold():
            if self._status is not None:
                self._status.prompt, self._status.paused = "", False
            if newline:
                self._out.write("\n")
                self._out.flush()


def _stands_alone(text: str) -> bool:
    """A request that names all it acts on (the wake gate's rule for a spoken one)."""
    from anovax.voice.understand import understanding

    try:
        return understanding(text).stands_alone
    except Exception:  # noqa: BLE001 - a planner that cannot read it: the line is a no, as before
        return False
