"""The one place that decides what AnovaX says for a command, and says it.

``reply_to_say`` maps a command's result to its spoken sentence (the reply, the refusal, the
failure; nothing for a stop or a dry run). ``Speaker`` says a sentence under the ``tts`` lock
with SPEAK_START/SPEAK_END events, for the assistant (replies) and for the ``speak`` tool (mid-
plan sentences), and cuts it off on a barge-in. ``make_speech_out`` picks the engine: pyttsx3,
or ``SilentSpeech`` with the reason when no sound card can be heard (probed once).
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from anovax.desktop.base import Cancelled, CancelToken
from anovax.desktop.launcher import Launcher, launched_log
from anovax.events import EventBus, EventType
from anovax.locks import LockTable
from anovax.speech.engine import SpeechOut, TtsThread, default_engine
from anovax.speech.probe import sound_card_problem

if TYPE_CHECKING:
    from anovax.results import CommandResult

log = logging.getLogger(__name__)


class SilentSpeech:
    """Speech out that cannot be heard (no sound card, or none wanted): says nothing.

    The reply is still printed by every front end; ``unavailable`` says why it is not heard."""

    def __init__(self, unavailable: str | None = None) -> None:
        self.unavailable = unavailable

    def say(self, text: str, cancel: CancelToken) -> None:
        cancel.check()

    def close(self) -> None:
        pass


def make_speech_out(state_dir: Path | None, *, problem: Callable[[], str | None] = sound_card_problem) -> SpeechOut:
    """The speech engine for this machine: pyttsx3 whose player writes into
    ``<state_dir>/launched.log``, or ``SilentSpeech`` saying why nothing could be heard."""
    why = problem()
    if why is not None:
        return SilentSpeech(why)
    player = Launcher(launched_log(state_dir))
    return TtsThread(lambda: default_engine(player))


def reply_to_say(result: CommandResult) -> str | None:
    """What is said aloud when ``result``'s command ends, or None for silence.

    Said: the reply of a command that acted (its final response and what its steps said),
    the refusal of a plan, the failure of a plan that ran. Silent: a stop, a dry run, a
    bare "Done.", and what never reached a plan (empty, too long, queue full, a planner error).
    Only a reply's first line is said: the lines after it are a list to read ("what can I
    say" shows its examples), which every front end prints in full; a first line that
    introduces them ("…things you can say:") says where they are instead of stopping at its
    colon. A file's path is said as its folder (``said_paths``): the screen shows it whole."""
    from anovax.results import Status

    text: str | None = None
    if result.status is Status.REFUSED:
        text = result.message if result.plan is not None else None
    elif result.outcome is None:
        return None
    elif result.status in (Status.DONE, Status.NOT_DONE):
        text = result.outcome.spoken or None
    elif result.status is Status.FAILED:
        text = result.message
    if not text:
        return None
    first, *rest = text.split("\n", 1)
    first = first.strip()
    if rest and rest[0].strip() and first.endswith(":"):
        first = first[:-1].rstrip() + ", on the screen."
    return said_paths(first) or None


#: what may be a file's path in a reply: from ~, / or a drive letter, ending in a name with an
#: extension ("~/Pictures/anovax-1.png", "C:\\Users\\me\\shot.png")
_FILE_PATH = re.compile(r"(?<![\w/\\~.])(?:~[/\\]|/|[A-Za-z]:\\)(?:[^\s/\\]+[/\\])*[^\s/\\]+\.[A-Za-z0-9]{1,5}\b")


def said_paths(text: str, home: Path | None = None) -> str:
    """``text`` with each path of a file that exists said as its folder: "~/Pictures/anovax-
    20261206-192832.png" became 12 s of letters and digits read out (a first-time user's report),
    and a listener wants only where to look ("your Pictures folder"). Only files on this machine:
    a web address, a dictated "/r/python.json" or a folder named in a reply are left as they are."""
    try:
        home = home if home is not None else Path.home()
    except (RuntimeError, KeyError):
        return text

    def folder(match: re.Match[str]) -> str:
        said = match.group(0)
        path = home.joinpath(*re.split(r"[/\\]", said[2:])) if said.startswith("~") else Path(said)
        try:
            if not path.is_file():
                return said
        except OSError:
            return said
        parent = path.parent
        if parent == home:
            return "your home folder"
        return f"{'your' if parent.parent == home else 'the'} {parent.name or 'top'} folder"

    return _FILE_PATH.sub(folder, text)


class Speaker:
    """Says sentences one at a time under the ``tts`` lock; ``stop_speaking`` cuts them off."""

    def __init__(self, out: SpeechOut, bus: EventBus, locks: LockTable | None = None) -> None:
        self.out = out
        self.bus = bus
        #: shared with the orchestrator: the ``speak`` tool's agent holds ``tts`` while it talks
        self.locks = locks if locks is not None else LockTable()
        self._ids = itertools.count(1)
        #: tokens of utterances speaking or waiting for the tts lock (what stop_speaking cuts off)
        self._tokens: set[CancelToken] = set()
        self._tokens_lock = threading.Lock()

    @property
    def unavailable(self) -> str | None:
        """Why speech cannot be heard here, or None."""
        return self.out.unavailable

    def announce(self, result: CommandResult, cancel: CancelToken | None = None) -> None:
        """Say what ``result``'s command comes to (``reply_to_say``), if anything."""
        text = reply_to_say(result)
        if text:
            self.say(text, result.command_id, cancel)

    def say(self, text: str, command_id: str, cancel: CancelToken | None = None, *, owner: str | None = None) -> None:
        """Speak under the tts lock with SPEAK_* events; a speech failure is logged, never raised.

        ``owner`` is the agent speaking (DialogAgent), which already holds ``tts``. The
        utterance gets a token of its own (cancelled by ``cancel`` too), so ``stop_speaking``
        silences it without cancelling the agent that asked for it.
        """
        token = CancelToken(cancel)
        held = owner is not None and self.locks.holder("tts") == owner
        owner = owner if held else f"speech-{command_id}-{next(self._ids)}"
        with self._tokens_lock:
            self._tokens.add(token)
        try:
            if not held:
                try:
                    self.locks.acquire(("tts",), owner, token)
                except Cancelled:
                    return
            stopped = ""
            try:
                self.bus.emit(EventType.SPEAK_START, command_id, data={"text": text})
                self.out.say(text, token)
            except Cancelled:
                stopped = token.reason or "cancelled"
            except Exception as exc:  # speech is best effort: the command already did its work
                log.warning("could not speak: %s", exc)
            finally:
                if not held:
                    self.locks.release_all(owner)
                self.bus.emit(EventType.SPEAK_END, command_id, data={"stopped": stopped} if stopped else None)
        finally:
            with self._tokens_lock:
                self._tokens.discard(token)

    def stop_speaking(self, reason: str = "stopped by the user") -> bool:
        """Cut off what is being said and what waits to be said; True if there was any.

        For barge-in ("stop" heard while speaking): only speech stops, the command and its
        agents go on, and nothing is planned.
        """
        with self._tokens_lock:
            tokens = list(self._tokens)
        for token in tokens:
            token.cancel(reason)
        # a sentence still playing after its caller stopped waiting (engine.py: overrun)
        silence = getattr(self.out, "silence", None)
        return bool(silence is not None and silence()) or bool(tokens)

    def close(self) -> None:
        self.out.close()
