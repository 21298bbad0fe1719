"""A woken phrase whose command part was not clearly heard: ask before acting.

"hey anova, open the (mumble)" comes out of a closed-vocabulary recogniser as some command or
other; running it would act on a guess. The gate marks such a phrase a "doubt" and the listener's
command thread asks "Did you say “open the terminal”?" through the same broker as the safety
gate's questions (confirm.py): the orb, the phone and the console show it, and a spoken "yes" or
"no" answers it without the wake word. Only a yes runs the command.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from anovax.confirm import Confirmations

_IDS = itertools.count(1)


@dataclass(frozen=True)
class Doubt:
    """A command the listener asks about before it runs (queued like a command's text)."""

    text: str


def question_text(text: str) -> str:
    return f"Did you say \u201c{text}\u201d?"


class _Until:
    """A cancel token for the broker: cancelled once ``stopped()`` (the listener closing)."""

    def __init__(self, stopped: Callable[[], bool]) -> None:
        self._stopped = stopped

    @property
    def cancelled(self) -> bool:
        return self._stopped()


def confirmed(confirmations: Confirmations | None, doubt: Doubt, stopped: Callable[[], bool] = lambda: False) -> bool:
    """Ask whether ``doubt`` is what was said; True only for a yes (nobody to ask, or ``stopped()``
    while it waits: False)."""
    if confirmations is None or not confirmations.can_ask:
        return False
    question = confirmations.new_question(f"voice-doubt-{next(_IDS)}", question_text(doubt.text), (), "")
    return confirmations.ask(question, _Until(stopped)).yes
