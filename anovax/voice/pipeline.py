"""The shared path of every phrase: recognise, let the wake gate decide, act.

The microphone thread (listener.py) and recordings (``anovax --audio-file``) both feed phrases
through ``VoicePipeline``; ``Heard`` and ``VoiceState`` are what the console and the orb show.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from anovax.errors import SttError
from anovax.voice.audio import Phrase
from anovax.voice.gate import GateDecision, WakeGate
from anovax.voice.stt import Recognizer

log = logging.getLogger(__name__)

State = Literal["listening", "unavailable", "awake", "asleep", "stopped", "muted"]



@dataclass(frozen=True)
class Heard:
    """One phrase after the recogniser and the gate."""

    decision: GateDecision
    start: float
    end: float
    #: how long recognition took, milliseconds
    recognize_ms: float

    @property
    def text(self) -> str:
        return self.decision.heard

    def to_dict(self) -> dict[str, Any]:
        return {**self.decision.to_dict(), "start": round(self.start, 3), "end": round(self.end, 3),
                "recognize_ms": round(self.recognize_ms, 1)}


@dataclass(frozen=True)
class VoiceState:
    """A change the console and the orb show: listening, unavailable (``detail`` says why), ..."""

    state: State
    detail: str = ""
    #: True when a phrase caused it (the phrase's own report already says so)
    by_phrase: bool = False


class VoicePipeline:
    """Recogniser → wake gate → action, for the microphone thread and for recordings alike.

    ``on_command`` gets the gate's command text, ``stop_speaking`` is called for a barge-in;
    ``report`` and ``on_state`` see every phrase and every change of awake/asleep. A failing
    callback is logged and the pipeline goes on.
    """

    def __init__(self, recognizer: Recognizer, gate: WakeGate, *, on_command: Callable[[str], Any],
                 stop_speaking: Callable[[], Any], report: Callable[[Heard], Any] | None = None,
                 on_state: Callable[[VoiceState], Any] | None = None) -> None:
        self.recognizer = recognizer
        self.gate = gate
        self._on_command = on_command
        self._stop_speaking = stop_speaking
        self._report = report
        self._on_state = on_state

    def handle(self, phrase: Phrase) -> Heard:
        started = time.perf_counter()
        failure = ""
        try:
            text = self.recognizer.recognize(phrase.audio)
        except SttError as exc:
            text, failure = "", exc.message
        except Exception as exc:  # noqa: BLE001 - a recogniser bug costs one phrase, never the listener
            log.exception("speech recogniser failed")
            text, failure = "", f"{type(exc).__name__}: {exc}"
        took = (time.perf_counter() - started) * 1000
        was_awake = self.gate.awake
        if failure:
            decision = GateDecision("drop", "", f"recogniser failed: {failure}")
        else:
            decision = self.gate.decide(text, phrase.start, phrase.end)
        heard = Heard(decision, phrase.start, phrase.end, took)
        self._call(self._report, heard)  # the phrase is shown before the command's result
        if self.gate.awake != was_awake:
            self._call(self._on_state, VoiceState("awake" if self.gate.awake else "asleep", decision.reason,
                                                  by_phrase=True))
        if decision.action == "barge_in":
            self._call(self._stop_speaking)
        elif decision.action == "command":
            self._call(self._on_command, decision.text)
        return heard

    def poll(self) -> None:
        """Let the gate fall asleep on time, and say so."""
        decision = self.gate.poll()
        if decision is not None:
            self._call(self._on_state, VoiceState("asleep", decision.reason))

    @staticmethod
    def _call(fn: Callable[..., Any] | None, *args: Any) -> None:
        if fn is None:
            return
        try:
            fn(*args)
        except Exception:  # noqa: BLE001 - the listener outlives whatever its callbacks do
            log.exception("voice callback failed")
