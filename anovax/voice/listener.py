"""Voice input: microphone (or a recording) → phrases → speech recogniser → wake gate → on_speech.

Threads, all owned by ``VoiceInput`` and joined by ``close``:

- "voice-listener" opens the microphone, calibrates for ambient noise, then loops on
  ``sr.Recognizer.listen``. Each phrase is recognised and decided by the wake gate right there:
  the recogniser runs at a small fraction of real time and the sound card buffers meanwhile.
  Its stream reads return nothing once the stop Event is set, so ``listen`` ends promptly even
  in the middle of a phrase.
- "voice-commands" runs ``on_speech`` for the gate's commands one at a time, so the listener
  keeps listening (for "stop" above all) while a command runs and its reply is spoken.
- The gate follows SPEAK_START/SPEAK_END through an event-bus subscription ("voice-gate").

Nothing here may take the assistant down: no SpeechRecognition, no PyAudio, no sound card or a
microphone that dies mid-way is one VOICE_STATE "unavailable" event (and one console line
through ``on_state``) while typed commands keep working; a recogniser error drops that one
phrase with a VOICE_HEARD event saying why.

``Recording`` splits a WAV file with the same ``listen`` settings, so ``anovax --audio-file``
goes through the same recogniser and gate as the microphone.
"""

from __future__ import annotations

import ctypes
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from anovax.cancel import is_stop_utterance
from anovax.errors import AudioFileError, VoiceUnavailable
from anovax.events import Event, EventBus, EventType
from anovax.voice.gate import GateDecision, WakeGate
from anovax.voice.stt import Recognizer, SttError

if TYPE_CHECKING:  # imported lazily: a broken install must not stop the text console
    import speech_recognition as sr

log = logging.getLogger(__name__)

#: what the recogniser is trained on; PulseAudio/ALSA resample the device for us
SAMPLE_RATE = 16000
#: frames per read (32 ms): the granularity of phrase start and end detection
CHUNK = 512
#: seconds of quiet that end a phrase (in whole chunks, so 0.288 s in practice). Every chunk of
#: it is a delay before on_speech; speech_recognition's 0.8 s default would spend twice the
#: 400 ms budget on it alone. Fluent speech pauses less than this between words; a hesitation
#: longer than this splits a phrase, which after the wake words costs nothing (the second part
#: arrives while awake) but inside a command splits it. benchmarks/bench_voice.py measures both.
PAUSE_S = 0.25
#: seconds of quiet kept before and after a phrase (at most PAUSE_S, speech_recognition's rule).
#: Little: with 0.3 s the command model heard words in the quiet ("hey anova" → "hey anova good")
KEEP_QUIET_S = 0.1
#: speech shorter than this is a click or a cough, not a phrase
MIN_PHRASE_S = 0.2
#: a phrase is cut here even if the noise never stops
PHRASE_LIMIT_S = 10.0
#: how long the listener waits for a phrase to begin before it looks at its stop Event and
#: the gate's sleep timeout again
LISTEN_POLL_S = 0.5
#: ambient-noise calibration at start-up
CALIBRATE_S = 0.5
#: the energy threshold never falls below this: on a digitally silent input (a virtual
#: microphone) a threshold derived from the quiet would be 0, and every dither sample a phrase
MIN_ENERGY = 100.0
#: speech starts at this many times the energy of the quiet around it
NOISE_RATIO = 3.0
#: how fast the microphone's noise floor may rise, per chunk (32 ms): ~15 s to follow a fan
#: switched on. It falls at once. Not speech_recognition's dynamic threshold: that one also
#: adapts *during* a phrase, climbs towards the speech itself, and with a short PAUSE_S cut
#: "hey anova open | the browser" in two on the virtual microphone.
FLOOR_RISE = 0.002
#: commands waiting for on_speech; more than this and the user has lost track anyway
COMMAND_QUEUE = 4

State = Literal["listening", "unavailable", "awake", "asleep", "stopped", "muted"]


@dataclass(frozen=True)
class Phrase:
    """One phrase of audio, with when its capture started and ended on the gate's clock."""

    audio: sr.AudioData
    start: float
    end: float


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


def audio_seconds(audio: sr.AudioData) -> float:
    return len(audio.frame_data) / float(audio.sample_rate * audio.sample_width)


def _rms(frames: bytes, width: int) -> float:
    """Energy of the frames exactly as speech_recognition's ``listen`` measures it (its thresholds
    are compared with this)."""
    import audioop  # speech_recognition's own dependency (audioop-lts from Python 3.13)

    frames = frames[: len(frames) - len(frames) % width]
    try:
        return float(audioop.rms(frames, width)) if frames else 0.0
    except audioop.error:
        return 0.0


def speech_onset(audio: sr.AudioData, threshold: float) -> float | None:
    """Seconds from the start of ``audio`` to its first chunk louder than ``threshold``; None if
    there is none. A phrase starts there, not at the quiet ``listen`` keeps before it: the wake
    gate's overlap rule compares this with the end of the assistant's own speech."""
    step = CHUNK * audio.sample_width
    data = audio.frame_data
    for i in range(0, len(data), step):
        if _rms(data[i:i + step], audio.sample_width) > threshold:
            return i / float(audio.sample_rate * audio.sample_width)
    return None


def _splitter(energy_threshold: float) -> sr.Recognizer:
    """A speech_recognition Recognizer used only to cut audio into phrases, at a fixed threshold
    (the callers track the noise themselves)."""
    import speech_recognition as sr

    rec = sr.Recognizer()
    rec.energy_threshold = energy_threshold
    rec.dynamic_energy_threshold = False
    rec.pause_threshold = PAUSE_S
    rec.non_speaking_duration = KEEP_QUIET_S
    rec.phrase_threshold = MIN_PHRASE_S
    return rec


# --- the shared path: recognise, decide, act --------------------------------------------------------


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


# --- recordings (anovax --audio-file) ---------------------------------------------------------------


class Recording:
    """A WAV/AIFF/FLAC file cut into phrases the way the microphone is.

    ``now()`` is the position reached in the file, in seconds: the gate's clock for a recording,
    so its sleep timeout runs in recorded time, however fast the machine processes it.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._position = 0.0
        self.duration = 0.0
        self.energy_threshold = MIN_ENERGY

    def now(self) -> float:
        return self._position

    def phrases(self) -> Iterator[Phrase]:
        """Each phrase in the file, in order. Raises AudioFileError if it cannot be read."""
        import speech_recognition as sr

        try:
            source = sr.AudioFile(str(self.path))
            source.__enter__()
        except (OSError, ValueError, EOFError) as exc:
            raise AudioFileError(f"Cannot read the audio file {self.path}: {_reason(exc)}") from exc
        try:
            reader = source.audio_reader
            total = source.FRAME_COUNT
            rate = float(source.SAMPLE_RATE)
            self.duration = total / rate
            source.CHUNK = CHUNK  # AudioFile reads 4096 frames (256 ms) at a time: too coarse for endpoints
            self.energy_threshold = self._threshold(source)
            splitter = _splitter(self.energy_threshold)
            while reader.tell() < total:
                audio = splitter.listen(source, phrase_time_limit=PHRASE_LIMIT_S)
                self._position = reader.tell() / rate
                # at the end of the file listen() returns the quiet it read instead of raising
                onset = speech_onset(audio, self.energy_threshold)
                if onset is None:
                    continue
                yield Phrase(audio, self._position - audio_seconds(audio) + onset, self._position)
        finally:
            source.__exit__(None, None, None)

    def _threshold(self, source: Any) -> float:
        """Speech energy threshold from the recording's own quiet level; rewinds the file."""
        reader = source.audio_reader
        energies = []
        while True:
            frames = source.stream.read(CHUNK)
            if not frames:
                break
            energies.append(_rms(frames, source.SAMPLE_WIDTH))
        reader.rewind()
        if not energies:
            return MIN_ENERGY
        quiet = sorted(energies)[len(energies) // 5]  # the 20th percentile: the quiet between phrases
        return max(MIN_ENERGY, NOISE_RATIO * quiet)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = str(exc).strip().rstrip(".")
    return text or type(exc).__name__


# --- the microphone -----------------------------------------------------------------------------------

#: the no-op ALSA error handler, referenced for the life of the process (ALSA keeps calling it)
_ALSA_HANDLER: Any = None
_ALSA_LOCK = threading.Lock()


def silence_alsa() -> None:
    """Route ALSA's error messages to a no-op handler instead of stderr (once per process).

    Without a sound card ALSA prints ~20 lines while PortAudio probes devices; the handler is
    ALSA's own documented switch for that. JACK's messages have no such switch (``quiet_stderr``).
    """
    global _ALSA_HANDLER
    with _ALSA_LOCK:
        if _ALSA_HANDLER is not None or not sys.platform.startswith("linux"):
            return
        try:
            lib = ctypes.cdll.LoadLibrary("libasound.so.2")
            # void handler(const char *file, int line, const char *func, int err, const char *fmt, ...)
            proto = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                     ctypes.c_char_p)
            handler = proto(lambda *_: None)
            lib.snd_lib_error_set_handler(handler)
            _ALSA_HANDLER = handler
        except (OSError, AttributeError):
            _ALSA_HANDLER = False  # no ALSA library: nothing to silence


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence fd 2 while PortAudio starts: JACK prints from C with no way to turn it off.

    Kept to the few calls that start PortAudio, since it silences every thread meanwhile."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class _MicStream:
    """The microphone's stream, seen by the listener alone.

    It reads as end-of-stream once ``stop`` is set, so a ``listen`` in the middle of a phrase
    returns at once instead of after PHRASE_LIMIT_S; and it tracks the noise floor from every
    chunk that passes (falling at once, rising by FLOOR_RISE), which sets the speech threshold.
    """

    def __init__(self, stream: Any, stop: threading.Event, width: int) -> None:
        self._stream = stream
        self._stop = stop
        self._width = width
        self.floor: float | None = None

    def read(self, size: int) -> bytes:
        if self._stop.is_set():
            return b""
        frames = self._stream.read(size)
        energy = _rms(frames, self._width)
        if self.floor is None or energy < self.floor:
            self.floor = energy
        else:
            self.floor += (energy - self.floor) * FLOOR_RISE
        return frames

    def calibrate(self, chunks: int, size: int) -> None:
        """Read ``chunks`` chunks and take their median energy as the noise floor."""
        energies = []
        for _ in range(chunks):
            frames = self.read(size)
            if not frames:
                break
            energies.append(_rms(frames, self._width))
        if energies:
            self.floor = sorted(energies)[len(energies) // 2]

    @property
    def threshold(self) -> float:
        return max(MIN_ENERGY, NOISE_RATIO * (self.floor or 0.0))

    def close(self) -> None:
        self._stream.close()


def open_microphone() -> Any:
    """An ``sr.Microphone`` for the default input device (not yet opened), or VoiceUnavailable.

    The device is looked up here: given a sample rate, ``sr.Microphone()`` never asks PortAudio
    for the default input, so without a sound card it would only fail later, and obscurely."""
    try:
        import speech_recognition as sr
    except ImportError as exc:
        raise VoiceUnavailable(f"SpeechRecognition is not installed ({exc})") from exc
    try:
        pyaudio = sr.Microphone.get_pyaudio()
    except AttributeError as exc:  # sr.Microphone's way of saying PyAudio is missing
        raise VoiceUnavailable("PyAudio is not installed (it needs the portaudio19-dev package to build)") from exc
    silence_alsa()
    try:
        with quiet_stderr():
            audio = pyaudio.PyAudio()
    except Exception as exc:  # noqa: BLE001 - PortAudio could not start at all
        raise VoiceUnavailable(f"the sound system cannot start ({_reason(exc)})") from exc
    try:
        info = audio.get_default_input_device_info()
    except OSError as exc:  # "No Default Input Device Available": no sound card, or no microphone
        raise VoiceUnavailable(f"no microphone ({_reason(exc)})") from exc
    finally:
        audio.terminate()
    if int(info.get("maxInputChannels", 0)) < 1:
        raise VoiceUnavailable(f"no microphone ({info.get('name', 'the default device')} has no input)")
    return sr.Microphone(sample_rate=SAMPLE_RATE, chunk_size=CHUNK)


def _enter(microphone: Any) -> Any:
    """Open the microphone's stream; VoiceUnavailable with PortAudio's reason if it cannot be.

    ``sr.Microphone.__enter__`` swallows the error and leaves ``stream`` None (3.17), which would
    surface as an AttributeError at the first read; so for it the stream is opened here, the
    way it would open it. Other sources (tests' fakes) are entered normally."""
    import speech_recognition as sr

    if not isinstance(microphone, sr.Microphone):
        source = microphone.__enter__()
    else:
        with quiet_stderr():
            microphone.audio = microphone.pyaudio_module.PyAudio()
            try:
                microphone.stream = sr.Microphone.MicrophoneStream(microphone.audio.open(
                    input_device_index=microphone.device_index, channels=1, format=microphone.format,
                    rate=microphone.SAMPLE_RATE, frames_per_buffer=microphone.CHUNK, input=True))
            except Exception as exc:  # noqa: BLE001 - PortAudio raises OSError, ValueError...
                microphone.audio.terminate()
                raise VoiceUnavailable(f"the microphone cannot be opened ({_reason(exc)})") from exc
        source = microphone
    if getattr(source, "stream", None) is None:
        raise VoiceUnavailable("the microphone cannot be opened")
    return source


class VoiceInput:
    """Listens to the microphone for one assistant; owns the "voice-listener" and "voice-commands"
    threads. ``start`` once, ``close`` once (it joins both)."""

    def __init__(self, *, on_speech: Callable[[str], Any], stop_speaking: Callable[[], Any],
                 recognizer_factory: Callable[[], Recognizer], gate: WakeGate, bus: EventBus | None = None,
                 microphone_factory: Callable[[], Any] = open_microphone,
                 on_heard: Callable[[Heard], Any] | None = None, on_result: Callable[[Any], Any] | None = None,
                 on_state: Callable[[VoiceState], Any] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.gate = gate
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
        self._commands: queue.Queue[str | None] = queue.Queue(maxsize=COMMAND_QUEUE)
        self._listener = threading.Thread(target=self._listen_safely, name="voice-listener", daemon=True)
        self._worker = threading.Thread(target=self._run_commands, name="voice-commands", daemon=True)
        #: the latest state (listening, unavailable...), for the banner, doctor and tests
        self.state: VoiceState | None = None
        #: set once the listener is listening, or has given up (then ``state`` says why)
        self.settled = threading.Event()
        self.recognizer: Recognizer | None = None
        self.energy_threshold: float | None = None
        if bus is not None:
            bus.subscribe("voice-gate", self._on_event)

    @classmethod
    def for_assistant(cls, assistant: Any, **kw: Any) -> VoiceInput:
        """Wired to an Assistant: its on_speech, stop_speaking, bus and settings."""
        from anovax.voice.stt import make_recognizer

        settings = assistant.settings
        kw.setdefault("gate", WakeGate(timeout_s=settings.wake_timeout_s))
        kw.setdefault("recognizer_factory", lambda: make_recognizer(settings.stt))
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
        if self.state is not None and self.state.state in ("listening", "muted", "asleep", "awake"):
            self._set_state(VoiceState("muted", "the microphone is muted") if muted
                            else VoiceState("listening", "unmuted"))
        return muted

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
        for thread in (self._listener, self._worker):
            if thread.is_alive():
                log.warning("voice thread %s did not stop within %.1f s; leaving it behind", thread.name, timeout_s)

    # -- the gate follows the assistant's speech -----------------------------------------------------

    def _on_event(self, event: Event) -> None:
        if event.type is EventType.SPEAK_START:
            self.gate.speaking_started(str((event.data or {}).get("text", "")))
        elif event.type is EventType.SPEAK_END:
            self.gate.speaking_ended()

    # -- voice-listener ------------------------------------------------------------------------------

    def _listen_safely(self) -> None:
        try:
            self._listen()
        except VoiceUnavailable as exc:
            self._set_state(VoiceState("unavailable", exc.message))
        except Exception as exc:  # noqa: BLE001 - a dead microphone must not take the assistant down
            log.debug("voice listener stopped", exc_info=True)
            self._set_state(VoiceState("unavailable", f"the microphone stopped working ({_reason(exc)})"))
        else:
            self._set_state(VoiceState("stopped"))
        finally:
            self.settled.set()

    def _listen(self) -> None:
        microphone = self._microphone_factory()  # first: no microphone, no recogniser to load
        try:
            recognizer = self._recognizer_factory()
        except SttError as exc:
            raise VoiceUnavailable(f"speech recognition cannot start ({exc.message})") from exc
        except (ImportError, OSError, ValueError, RuntimeError) as exc:
            raise VoiceUnavailable(f"speech recognition cannot start ({_reason(exc)})") from exc
        self.recognizer = recognizer
        pipeline = VoicePipeline(recognizer, self.gate, on_command=self._queue_command,
                                 stop_speaking=self._stop_speaking, report=self._heard, on_state=self._set_state)
        try:
            source = _enter(microphone)
        except OSError as exc:
            raise VoiceUnavailable(f"the microphone cannot be opened ({_reason(exc)})") from exc
        try:
            stream = source.stream = _MicStream(source.stream, self._stop, source.SAMPLE_WIDTH)
            stream.calibrate(max(1, round(CALIBRATE_S * source.SAMPLE_RATE / source.CHUNK)), source.CHUNK)
            splitter = _splitter(stream.threshold)
            self.energy_threshold = splitter.energy_threshold
            if self._stop.is_set():  # closed while starting: nothing to announce
                return
            where = "offline" if recognizer.offline else "online: phrases are sent to Google"
            self._set_state(VoiceState("listening", f'say "hey anova" ({recognizer.name} recogniser, {where})'))
            self.settled.set()
            self._loop(source, splitter, pipeline)
        finally:
            try:
                microphone.__exit__(None, None, None)
            except Exception:  # noqa: BLE001 - a device that vanished may fail to close; what failed first matters
                log.debug("closing the microphone failed", exc_info=True)

    def _loop(self, source: Any, splitter: sr.Recognizer, pipeline: VoicePipeline) -> None:
        stream: _MicStream = source.stream
        import speech_recognition as sr

        while not self._stop.is_set():
            try:
                audio = splitter.listen(source, timeout=LISTEN_POLL_S, phrase_time_limit=PHRASE_LIMIT_S)
            except sr.WaitTimeoutError:
                audio = None
            if self._stop.is_set():
                return
            if audio is not None and audio.frame_data and not self._muted.is_set():
                end = self._clock()
                onset = speech_onset(audio, splitter.energy_threshold) or 0.0
                pipeline.handle(Phrase(audio, end - audio_seconds(audio) + onset, end))
            # between phrases only: a threshold that moved during a phrase would chase the speech
            splitter.energy_threshold = self.energy_threshold = stream.threshold
            pipeline.poll()

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

    def _queue_command(self, text: str) -> None:
        if is_stop_utterance(text):
            # a control message: it must not wait behind the command it stops. The assistant
            # handles a stop at once, so this runs on the listener thread; queued voice commands
            # are dropped first (they are what "stop" is about too).
            while True:
                try:
                    if self._commands.get_nowait() is None:
                        self._commands.put_nowait(None)  # keep close()'s sentinel
                        break
                except queue.Empty:
                    break
            try:
                result = self._on_speech(text)
            except Exception:  # noqa: BLE001 - the listener thread must not die
                log.exception("voice stop failed")
                return
            if self._on_result is not None:
                try:
                    self._on_result(result)
                except Exception:  # noqa: BLE001
                    log.exception("voice result callback failed")
            return
        try:
            self._commands.put_nowait(text)
        except queue.Full:
            log.warning("voice command dropped, %d still waiting: %r", COMMAND_QUEUE, text)

    def _run_commands(self) -> None:
        while (text := self._commands.get()) is not None:
            try:
                result = self._on_speech(text)
            except Exception:  # noqa: BLE001 - on_speech never raises, but this thread must not die
                log.exception("voice command failed")
                continue
            self.gate.touch()  # the timeout counts from the end of the command, not its start
            if self._on_result is not None:
                try:
                    self._on_result(result)
                except Exception:  # noqa: BLE001
                    log.exception("voice result callback failed")
