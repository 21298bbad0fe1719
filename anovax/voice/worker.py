"""The "voice-commands" thread's work: run the listener's queued commands one at a time.

The listener queues a command's text, or a ``Doubt`` (a woken phrase not clearly heard: asked
about first, run only after a yes). A stop never waits in this queue: the listener hands it to
the assistant at once (``deliver``) after dropping what is queued (``drain``), since those are
what it stops too. Every callback is guarded: this thread outlives whatever they do.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from typing import Any

from anovax.voice.doubts import Doubt
from anovax.voice.gate import WakeGate
from anovax.voice.takeback import RecentCommands

log = logging.getLogger(__name__)


def deliver(on_speech: Callable[[str], Any], text: str, on_result: Callable[[Any], Any] | None) -> bool:
    """``on_speech(text)``, then ``on_result`` with what it returned; False if on_speech raised."""
    try:
        result = on_speech(text)
    except Exception:  # noqa: BLE001 - on_speech never raises, but the voice threads must not die
        log.exception("voice command failed")
        return False
    if on_result is not None:
        try:
            on_result(result)
        except Exception:  # noqa: BLE001
            log.exception("voice result callback failed")
    return True


def drain(commands: queue.Queue, recent: RecentCommands) -> None:
    """Drop the queued commands (not the close sentinel): a stop is about them too."""
    while True:
        try:
            if commands.get_nowait() is None:
                commands.put_nowait(None)  # keep close()'s sentinel
                return
            recent.ended()  # dropped: it will never run
        except queue.Empty:
            return


def run_commands(commands: queue.Queue, *, on_speech: Callable[[str], Any], on_result: Callable[[Any], Any] | None,
                 gate: WakeGate, recent: RecentCommands, ask: Callable[[Doubt], bool]) -> None:
    """Until the None sentinel: each command through ``on_speech``, a doubt only after ``ask`` says yes."""
    while (item := commands.get()) is not None:
        if isinstance(item, Doubt):  # asked here: the question waits as long as a command would
            if not ask(item):
                continue
            recent.began()
            item = item.text
        gate.command_running(True)  # while it runs (and a moment after), "stop" needs no name
        try:
            if deliver(on_speech, item, on_result):
                gate.touch()  # the timeout counts from the end of the command, not its start
        finally:
            recent.ended()
            gate.command_running(False)


__all__ = ["deliver", "drain", "run_commands"]
