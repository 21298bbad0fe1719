"""``AssistantPort``: all that the front ends (console, orb, phone, voice) may ask of the assistant.

A front end that can show a question and take a yes or no registers with ``confirmations``
(``anovax.confirm``) while it can; it sees each question as a CONFIRM_REQUESTED event and
answers with ``confirmations.answer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any, Protocol

from anovax.confirm import Confirmations
from anovax.events import EventBus
from anovax.results import CommandResult, StopReport
from anovax.settings import Settings


class AssistantPort(Protocol):
    """The assistant as a front end sees it."""

    #: the parsed settings (voice, orb and remote read their parts)
    settings: Settings
    #: every event of every command; front ends subscribe to it
    bus: EventBus
    #: the question a held plan waits on, and who may answer it
    confirmations: Confirmations

    def submit(self, text: str, source: str = "text") -> Future[CommandResult]:
        """Queue a command (a stop utterance is handled at once); resolves when it has run."""
        ...

    def on_speech(self, text: str, source: str = "text") -> CommandResult:
        """Run one command, queued behind earlier ones, and wait for its result."""
        ...

    def stop(self, source: str = "text", *, waiting: Sequence[str] = ()) -> StopReport:
        """Cancel the running command, drop ``source``'s queued ones, cut off speech."""
        ...

    def stop_speaking(self) -> bool:
        """Barge-in: silence what is being said; True if something was."""
        ...

    @property
    def busy(self) -> bool:
        """A command is running."""
        ...

    def state(self) -> dict[str, Any]:
        """Planner, busy, why speech is off (or None), agents, pool and locks, as plain data."""
        ...
