"""The microphone: opening the default input device, quietly, and the stream the listener reads.

Opening fails as one ``VoiceUnavailable`` saying why (no SpeechRecognition, no PyAudio, no sound
card, no input device), never as an obscure error at the first read.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from anovax.errors import VoiceUnavailable
from anovax.voice.audio import CHUNK, MIN_ENERGY, NOISE_RATIO, SAMPLE_RATE, reason, rms
from anovax.voice.denoise import NoiseSuppressor

#: ambient-noise calibration at start-up
CALIBRATE_S = 0.5
#: how fast the microphone's noise floor may rise, per chunk (32 ms): ~15 s to follow a fan
#: switched on. It falls at once. Not speech_recognition's dynamic threshold: that one also
#: adapts *during* a phrase, climbs towards the speech itself, and with a short PAUSE_S cut
#: "hey anova open | the browser" in two on the virtual microphone.
FLOOR_RISE = 0.002

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


class MicStream:
    """The microphone's stream, seen by the listener alone.

    It reads as end-of-stream once ``stop`` is set, so a ``listen`` in the middle of a phrase
    returns at once instead of after PHRASE_LIMIT_S; and it tracks the noise floor from every
    chunk that passes (falling at once, rising by FLOOR_RISE), which sets the speech threshold.
    What it hands on has passed the noise suppressor (denoise.py); the floor is the device's own,
    before it. The listener moves its threshold only between phrases, so a floor taken after the
    suppressor would be wrong the moment it switched off (the room's hiss back, above a threshold
    set on the quiet it left: a 10 s phrase of noise), and in a recording's first seconds, before
    it has switched on. Against the cleaned audio that threshold is a little high; a phrase keeps
    KEEP_QUIET_S on either side of it.
    """

    def __init__(self, stream: Any, stop: threading.Event, width: int, rate: int = SAMPLE_RATE) -> None:
        self._stream = stream
        self._stop = stop
        self._width = width
        self.floor: float | None = None
        self.suppressor = NoiseSuppressor(rate, width)

    def read(self, size: int) -> bytes:
        return self.suppressor(self._read(size))

    def _read(self, size: int) -> bytes:
        """The device's own frames, its noise floor tracked on them."""
        if self._stop.is_set():
            return b""
        frames = self._stream.read(size)
        if not frames:  # a device gone: no energy to learn from
            return frames
        energy = rms(frames, self._width)
        if self.floor is None or energy < self.floor:
            self.floor = energy
        else:
            self.floor += (energy - self.floor) * FLOOR_RISE
        return frames

    def calibrate(self, chunks: int, size: int) -> None:
        """Read ``chunks`` chunks and take their median energy as the noise floor."""
        energies = []
        for _ in range(chunks):
            frames = self._read(size)
            if not frames:
                break
            energies.append(rms(frames, self._width))
            self.suppressor(frames)  # it learns the room too
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
        raise VoiceUnavailable(f"the sound system cannot start ({reason(exc)})") from exc
    try:
        info = audio.get_default_input_device_info()
    except OSError as exc:  # "No Default Input Device Available": no sound card, or no microphone
        raise VoiceUnavailable(f"no microphone ({reason(exc)})") from exc
    finally:
        audio.terminate()
    if int(info.get("maxInputChannels", 0)) < 1:
        raise VoiceUnavailable(f"no microphone ({info.get('name', 'the default device')} has no input)")
    with quiet_stderr():  # its constructor starts PortAudio once more, and with it JACK's probe
        return sr.Microphone(sample_rate=SAMPLE_RATE, chunk_size=CHUNK)


def enter_microphone(microphone: Any) -> Any:
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
                raise VoiceUnavailable(f"the microphone cannot be opened ({reason(exc)})") from exc
        source = microphone
    if getattr(source, "stream", None) is None:
        raise VoiceUnavailable("the microphone cannot be opened")
    return source
