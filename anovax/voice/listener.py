"""Voice input: microphone (or a recording) → phrases → speech recogniser → wake gate → on_speech.

Threads, all owned by ``VoiceInput`` and joined by ``close``:

- "voice-listener" opens the microphone, calibrates for ambient noise, then reads it chunk by
  chunk through endpoint.py's ``PhraseCutter``: each phrase is decoded while it is spoken and
  ends on an adaptive pause, then the wake gate decides right there (the recogniser runs at a
  small fraction of real time and the sound card buffers meanwhile). Its stream reads return
  nothing once the stop Event is set, so it stops promptly even in the middle of a phrase.
- "voice-commands" runs ``on_speech`` for the gate's commands one at a time, so the listener
  keeps listening (for "stop" above all) while a command runs and its reply is spoken.
- The gate follows SPEAK_START/SPEAK_END and CONFIRM_REQUESTED/ANSWERED through an event-bus
  subscription ("voice-gate"). While the microphone is up and not muted, "voice" is registered
  with the assistant's ``confirmations``: a question then waits for a spoken yes or no, which
  the listener thread hands to ``confirmations.answer`` itself (the command that asked keeps
  "voice-commands" busy while it waits, so an answer must not queue behind it).

Nothing here may take the assistant down: no SpeechRecognition, no PyAudio, no sound card or a
microphone that dies mid-way is one VOICE_STATE "unavailable" event (and one console line
through ``on_state``) while typed commands keep working; a recogniser error drops that one
phrase (with a VOICE_HEARD event saying why, if AnovaX was awake: phrases dropped while asleep
are never reported, pipeline.py).

The parts live next door: audio.py (phrase settings, energy, ``Recording``), microphone.py
(opening the device, the stream) and pipeline.py (recogniser → gate → action). Their public
names are importable from here too.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anovax.errors import AudioFileError, SttError, VoiceUnavailable
from anovax.events import Event, EventBus, EventType
from anovax.voice.audio import (
    CHUNK,
    KEEP_QUIET_S,
    MIN_ENERGY,
    MIN_PHRASE_S,
    NOISE_RATIO,
    PAUSE_S,
    PHRASE_LIMIT_S,
    SAMPLE_RATE,
    Phrase,
    Recording,
    audio_seconds,
    reason,
    speech_onset,
    phrase_splitter,
)
from anovax.voice.endpoint import PhraseCutter, streaming_begin
from anovax.voice.gate import WakeGate
from anovax.voice.microphone import (
    CALIBRATE_S,
    FLOOR_RISE,
    MicStream,
    enter_microphone,
    open_microphone,
    quiet_stderr,
    silence_alsa,
)
from anovax.voice.doubts import Doubt, confirmed
from anovax.voice.pipeline import Heard, State, VoicePipeline, VoiceState, follow_events
from anovax.voice.reconnect import keep_listening
from anovax.voice.stt import Recognizer
from anovax.voice.takeback import STOP_TEXT, RecentCommands, stop_text
from anovax.voice.understand import Understanding, understanding
from anovax.voice.worker import deliver, drain, run_commands

if TYPE_CHECKING:  # imported lazily: a broken install must not stop the text console
    import speech_recognition as sr

    from anovax.confirm import Confirmations
    from anovax.port import AssistantPort

__all__ = [
    "CALIBRATE_S", "CHUNK", "COMMAND_QUEUE", "FLOOR_RISE", "KEEP_QUIET_S", "LISTEN_POLL_S", "MIN_ENERGY",
    "MIN_PHRASE_S", "NOISE_RATIO", "PAUSE_S", "PHRASE_LIMIT_S", "SAMPLE_RATE", "AudioFileError", "Heard",
    "Phrase", "Recording", "State", "VoiceInput", "VoicePipeline", "VoiceState", "VoiceUnavailable",
    "audio_seconds", "open_microphone", "quiet_stderr", "silence_alsa", "speech_onset",
]

log = logging.getLogger(__name__)

#: how long the listener waits for a phrase to begin before it looks at its stop Event and
#: the gate's sleep timeout again
LISTEN_POLL_S = 0.5
#: commands waiting for on_speech; more than this and the user has lost track anyway
COMMAND_QUEUE = 4


class VoiceInput:
    """Listens to the microphone for one assistant; owns the "voice-listener" and "voice-commands"
    threads. ``start`` once, ``close`` once (it joins both)."""

    def __init__(self, *, on_speech: Callable[[str], Any], stop_speaking: Callable[[], Any],
                 recognizer_factory: Callable[[], Recognizer], gate: WakeGate, bus: EventBus | None = None,
                 microphone_factory: Callable[[], Any] = open_microphone,
                 on_heard: Callable[[Heard], Any] | None = None, on_result: Callable[[Any], Any] | None = None,
                 on_state: Callable[[VoiceState], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 confirmations: Confirmations | None = None,
                 understands: Callable[[str], bool | Understanding] | None = None) -> None:
        self.gate = gate
        #: where a spoken yes/no goes, and where "voice" registers while it can hear one
        self.confirmations = confirmations
        self._registration_lock = threading.Lock()
        self._unregister: Callable[[], None] | None = None
        #: the microphone is up and phrases are being heard (not starting, not closed)
        self._hearing = False
        self._on_speech = on_speech
        self._stop_speaking = stop_speaking
        self._recognizer_factory = recognizer_factory
        self._microphone_factory = microphone_factory
        self._bus = bus
        self._on_heard = on_heard
        self._on_result = on_result
        self._on_state = on_state
        self._clock = clock
        self._stop = threading.Event()
        #: set by the orb's mute button: phrases are not even recognised (nothing is heard)
        self._muted = threading.Event()
        self._commands: queue.Queue[str | Doubt | None] = queue.Queue(maxsize=COMMAND_QUEUE)
        #: whether a request makes sense (the offline planner's grammar), for the gate's trust
        self._understands = understands
        #: for "no, cancel that" / "that's wrong" right after a command (takeback.py)
        self._recent = RecentCommands(clock)
        self._listener = threading.Thread(target=self._listen_safely, name="voice-listener", daemon=True)
        self._worker = threading.Thread(target=self._run_commands, name="voice-commands", daemon=True)
        #: the latest state (listening, unavailable...), for the banner, doctor and tests
        self.state: VoiceState | None = None
        #: set once the listener is listening, or has given up (then ``state`` says why)
        self.settled = threading.Event()
        self.recognizer: Recognizer | None = None
        self._listened = 0  # times "listening" was announced: reconnect.py tells a loss from no microphone
        #: recogniser → gate → action, once the recogniser is up (``pipeline.unshown`` counts the
        #: phrases dropped while asleep, which are never reported)
        self.pipeline: VoicePipeline | None = None
        self.energy_threshold: float | None = None
        #: the global hold-to-talk key (talkkey.py) that calls ``hold_to_talk``; closed by ``close``
        self.talk_key: Any = None
        #: the state to go back to when the talk key comes up
        self._before_talk: VoiceState | None = None
        if bus is not None:
            bus.subscribe("voice-gate", self._on_event)

    @classmethod
    def for_assistant(cls, assistant: AssistantPort, **kw: Any) -> VoiceInput:
        """Wired to an Assistant: its on_speech, stop_speaking, bus and settings."""
        from anovax.voice.stt import make_recognizer

        settings = assistant.settings
        kw.setdefault("gate", WakeGate(timeout_s=settings.wake_timeout_s))
        kw.setdefault("recognizer_factory", lambda: make_recognizer(settings.stt))
        kw.setdefault("confirmations", assistant.confirmations)
        kw.setdefault("understands", understanding)
        return cls(on_speech=lambda text: assistant.on_speech(text, source="voice"),
                   stop_speaking=assistant.stop_speaking, bus=assistant.bus, **kw)

    def start(self) -> None:
        self._worker.start()
        self._listener.start()

    @property
    def muted(self) -> bool:
        return self._muted.is_set()

    def set_muted(self, muted: bool) -> bool:
        """Mute or unmute; returns the new state. A muted listener keeps the microphone open (so
        unmuting is instant) but drops every phrase before recognition."""
        if muted:
            self._muted.set()
        else:
            self._muted.clear()
        self._sync_registration()
        if self.state is not None and self.state.on and self.state.state != "talking":
            self._set_state(VoiceState("muted", "the microphone is muted") if muted
                            else VoiceState("listening", "unmuted"))
        return muted

    def hold_to_talk(self, held: bool) -> None:
        """The talk key (or the orb's held Mute button) went down or came up: while it is down a
        phrase is a command without the wake word, also when muted (hold-to-talk is how a muted
        microphone is used on purpose). Shown as the state "talking" until it comes up."""
        changed = self.gate.talk_started() if held else self.gate.talk_ended()
        if held and changed and self.gate.speaking:
            # the key is how to talk over a reply: said over loudspeakers, "stop" reaches the
            # microphone mixed with the reply and is not heard (measured: a 9 s reply ran to its end)
            self._stop_speaking()
        if not changed or self.state is None:
            return
        if held and self.state.on and self.state.state != "talking":
            self._before_talk = self.state
            self._set_state(VoiceState("talking", "listening (key held)"))
        elif not held and self.state.state == "talking":
            before, self._before_talk = self._before_talk, None
            if self._muted.is_set():
                self._set_state(VoiceState("muted", "the microphone is muted"))
            elif self.gate.awake:
                self._set_state(VoiceState("awake", "key let go"))
            else:
                self._set_state(before if before is not None and before.state != "muted"
                                else VoiceState("listening", "key let go"))

    def close(self, timeout_s: float = 3.0) -> None:
        """Stop listening and join both threads (bounded: a command still running is left to the
        Assistant, whose own close waits for it)."""
        self._stop.set()
        if self._listener.is_alive():
            self._listener.join(timeout_s)
        if self._worker.is_alive():
            try:
                self._commands.put(None, timeout=timeout_s)
            except queue.Full:
                pass
            self._worker.join(timeout_s)
        if self.talk_key is not None:  # after the listener: it is what starts the key (frontends.start_voice)
            self.talk_key.close()
        for thread in (self._listener, self._worker):
            if thread.is_alive():
                log.warning("voice thread %s did not stop within %.1f s; leaving it behind", thread.name, timeout_s)

    # -- the gate follows the assistant's speech -----------------------------------------------------

    def _on_event(self, event: Event) -> None:
        follow_events(self.gate, event)

    # -- answering questions -------------------------------------------------------------------------

    @property
    def registered(self) -> bool:
        """True while "voice" is registered with the confirmations broker."""
        return self._unregister is not None

    def _sync_registration(self) -> None:
        """Registered exactly while the microphone is up and not muted: only then can a question
        put to "voice" be answered."""
        if self.confirmations is None:
            return
        with self._registration_lock:
            want = self._hearing and not self._muted.is_set()
            if want and self._unregister is None:
                self._unregister = self.confirmations.register("voice")
                pending = self.confirmations.pending  # asked before the microphone came up
                if pending is not None:
                    self.gate.question_asked(pending.question_id, pending.expires_ts - time.time())
            elif not want and self._unregister is not None:
                self._unregister()
                self._unregister = None

    def _answer(self, question_id: str, yes: bool | None) -> None:
        if self.confirmations is None:
            return
        if not self.confirmations.answer(question_id, yes, "voice"):
            log.info("%s came too late for question %s", {True: "yes", False: "no"}.get(yes, "a command"), question_id)

    # -- voice-listener ------------------------------------------------------------------------------

    def _listen_safely(self) -> None:
        try:  # a microphone that stops working is opened again (reconnect.py)
            keep_listening(self._listen, self._stop, self._set_state, lambda: self._listened, self.settled)
        finally:
            self.settled.set()

    def _listen(self) -> None:
        microphone = self._microphone_factory()  # first: no microphone, no recogniser to load
        try:  # kept while the microphone is opened again
            recognizer = self.recognizer if self.recognizer is not None else self._recognizer_factory()
        except SttError as exc:
            raise VoiceUnavailable(f"speech recognition cannot start ({exc.message})") from exc
        except (ImportError, OSError, ValueError, RuntimeError) as exc:
            raise VoiceUnavailable(f"speech recognition cannot start ({reason(exc)})") from exc
        self.recognizer = recognizer
        pipeline = self.pipeline = VoicePipeline(
            recognizer, self.gate, on_command=self._queue_command, stop_speaking=self._stop_speaking,
            report=self._heard, on_state=self._set_state, on_answer=self._answer, on_take_back=self._take_back,
            on_doubt=self._queue_doubt, understands=self._understands)
        try:
            source = enter_microphone(microphone)
        except OSError as exc:
            raise VoiceUnavailable(f"the microphone cannot be opened ({reason(exc)})") from exc
        try:
            stream = source.stream = MicStream(source.stream, self._stop, source.SAMPLE_WIDTH, source.SAMPLE_RATE)
            stream.calibrate(max(1, round(CALIBRATE_S * source.SAMPLE_RATE / source.CHUNK)), source.CHUNK)
            splitter = phrase_splitter(stream.threshold)
            self.energy_threshold = splitter.energy_threshold
            if self._stop.is_set():  # closed while starting: nothing to announce
                return
            adapted = ", adapted to your voice" if getattr(recognizer, "adapted", None) is not None else ""
            where = f"offline{adapted}" if recognizer.offline else "online: phrases are sent to Google"
            self._hearing = True
            self._listened += 1
            self._sync_registration()  # before "listening" is announced: a question then reaches voice
            self._set_state(VoiceState("listening", f'say "hey anova" ({recognizer.name} recogniser, {where})'))
            self.settled.set()
            self._loop(source, splitter, pipeline)
        finally:
            self._hearing = False
            self._sync_registration()
            try:
                microphone.__exit__(None, None, None)
            except Exception:  # noqa: BLE001 - a device that vanished may fail to close; what failed first matters
                log.debug("closing the microphone failed", exc_info=True)

    def _loop(self, source: Any, splitter: sr.Recognizer, pipeline: VoicePipeline) -> None:
        """Chunk by chunk through the phrase cutter (endpoint.py): each phrase is decoded while it
        is spoken, so once its pause ends only the recogniser's last step and the gate are left."""
        import speech_recognition as sr

        stream: MicStream = source.stream
        begin = streaming_begin(pipeline.recognizer)

        def start() -> Any:  # a muted microphone decodes nothing, unless the talk key is down
            muted = self._muted.is_set() and not self.gate.holds.held
            return None if begin is None or muted else begin()

        cutter = PhraseCutter(splitter.energy_threshold, rate=source.SAMPLE_RATE, width=source.SAMPLE_WIDTH,
                              chunk=source.CHUNK, begin=start)
        poll_every = max(1, round(LISTEN_POLL_S * source.SAMPLE_RATE / source.CHUNK))
        idle = 0
        try:
            while not self._stop.is_set():
                frames = stream.read(source.CHUNK)
                if not frames or self._stop.is_set():
                    return
                cut = cutter.push(frames)
                if cut is not None:
                    end = self._clock()
                    if self._muted.is_set() and not self.gate.holds.covers(cut.started(end), end):
                        if cut.utterance is not None:  # muted: only phrases said with the talk key
                            cut.utterance.abandon()
                    else:
                        audio = sr.AudioData(cut.frames, source.SAMPLE_RATE, source.SAMPLE_WIDTH)
                        pipeline.handle(Phrase(audio, cut.started(end), end, cut.utterance))
                    idle = poll_every
                if cutter.in_phrase:
                    continue
                idle += 1
                if idle >= poll_every:  # between phrases only: a threshold that moved during one would chase the speech
                    idle = 0
                    cutter.threshold = splitter.energy_threshold = self.energy_threshold = stream.threshold
                    pipeline.poll()
        finally:
            cutter.abandon()

    def _heard(self, heard: Heard) -> None:
        if self._bus is not None:
            self._bus.emit(EventType.VOICE_HEARD, "voice", data=heard.to_dict())
        if self._on_heard is not None:
            self._on_heard(heard)

    def _set_state(self, state: VoiceState) -> None:
        self.state = state
        if self._bus is not None:
            self._bus.emit(EventType.VOICE_STATE, "voice",
                           data={"state": state.state, "detail": state.detail, "by_phrase": state.by_phrase})
        if self._on_state is not None:
            try:
                self._on_state(state)
            except Exception:  # noqa: BLE001
                log.exception("voice state callback failed")

    # -- voice-commands ------------------------------------------------------------------------------

    def _take_back(self, _words: str) -> None:
        """A take-back said while AnovaX spoke (speech is already cut off): stop the voice
        command it is about, if one runs or just began."""
        if self._recent.open():
            self._queue_command(STOP_TEXT)

    def _queue_command(self, text: str) -> None:
        stop = stop_text(text, self._recent)
        if stop is not None:
            # a control message: it must not wait behind the command it stops. The assistant
            # handles a stop at once, so this runs on the listener thread; queued voice commands
            # are dropped first (they are what "stop" is about too).
            drain(self._commands, self._recent)
            deliver(self._on_speech, stop, self._on_result)
            return
        self._recent.began()  # before the worker can take it (and end it)
        try:
            self._commands.put_nowait(text)
        except queue.Full:
            self._recent.ended()
            log.warning("voice command dropped, %d still waiting: %r", COMMAND_QUEUE, text)

    def _queue_doubt(self, text: str) -> None:
        try:
            self._commands.put_nowait(Doubt(text))
        except queue.Full:
            log.warning("doubtful voice command dropped, %d still waiting", COMMAND_QUEUE)

    def _run_commands(self) -> None:
        run_commands(self._commands, on_speech=self._on_speech, on_result=self._on_result, gate=self.gate,
                     recent=self._recent, ask=lambda doubt: confirmed(self.confirmations, doubt, self._stop.is_set))
