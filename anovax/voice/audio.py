"""Audio → phrases: the phrase-cutting settings, speech energy, and recordings.

The microphone (listener.py) and ``Recording`` (``anovax --audio-file``) cut sound into
phrases with the same ``PhraseCutter`` (endpoint.py) and the settings here, so a recording goes
through the same recogniser, pause and gate as the microphone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from anovax.errors import AudioFileError

if TYPE_CHECKING:  # imported lazily: a broken install must not stop the text console
    import speech_recognition as sr

    from anovax.voice.recognizer import Recognizer, Utterance

#: what the recogniser is trained on; PulseAudio/ALSA resample the device for us
SAMPLE_RATE = 16000
#: frames per read (32 ms): the granularity of phrase start and end detection
CHUNK = 512
#: seconds of quiet that end a phrase when the recogniser cannot decode while it is spoken
#: (google.py): more than this, in whole chunks, so 0.288 s in practice. The offline recogniser
#: gets an adaptive pause instead (endpoint.py: 0.256 s after words that look complete, 0.35 s
#: mid-sentence). Every chunk of it is a delay before on_speech; speech_recognition's 0.8 s default
#: would spend twice the 400 ms budget on it alone. Fluent speech pauses less than this between
#: words; a hesitation longer than this splits a phrase, which after the wake words costs nothing
#: (the second part arrives while awake) but inside a command splits it.
#: benchmarks/bench_voice.py measures both.
PAUSE_S = 0.25
#: seconds of quiet kept before and after a phrase (at most PAUSE_S, speech_recognition's rule).
#: Little: with 0.3 s the command model heard words in the quiet ("hey anova" → "hey anova good")
KEEP_QUIET_S = 0.1
#: speech shorter than this is a click or a cough, not a phrase
MIN_PHRASE_S = 0.2
#: a phrase is cut here even if the noise never stops
PHRASE_LIMIT_S = 10.0
#: the energy threshold never falls below this: on a digitally silent input (a virtual
#: microphone) a threshold derived from the quiet would be 0, and every dither sample a phrase
MIN_ENERGY = 100.0
#: speech starts at this many times the energy of the quiet around it
NOISE_RATIO = 3.0


@dataclass(frozen=True)
class Phrase:
    """One phrase of audio, with when its capture started and ended on the gate's clock."""

    audio: sr.AudioData
    start: float
    end: float
    #: the phrase already decoded while it was spoken (endpoint.py): whoever handles the phrase
    #: finishes it instead of recognising ``audio`` again, or abandons it
    utterance: Utterance | None = None


def audio_seconds(audio: sr.AudioData) -> float:
    return len(audio.frame_data) / float(audio.sample_rate * audio.sample_width)


def rms(frames: bytes, width: int) -> float:
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
        if rms(data[i:i + step], audio.sample_width) > threshold:
            return i / float(audio.sample_rate * audio.sample_width)
    return None


def phrase_splitter(energy_threshold: float) -> sr.Recognizer:
    """A speech_recognition Recognizer with these settings, at a fixed threshold (the callers
    track the noise themselves). The listener keeps its threshold here; phrases are cut by
    endpoint.py's ``PhraseCutter``, which follows the same rules chunk by chunk."""
    import speech_recognition as sr

    rec = sr.Recognizer()
    rec.energy_threshold = energy_threshold
    rec.dynamic_energy_threshold = False
    rec.pause_threshold = PAUSE_S
    rec.non_speaking_duration = KEEP_QUIET_S
    rec.phrase_threshold = MIN_PHRASE_S
    return rec



def reason(exc: BaseException) -> str:
    """An exception in a few words for the user: an OSError's strerror, else its message."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    text = str(exc).strip().rstrip(".")
    return text or type(exc).__name__


# --- recordings (anovax --audio-file) ---------------------------------------------------------------


class Recording:
    """A recording (WAV of any sample format, FLAC, Ogg, MP3, AIFF: soundfiles.py) cut into
    phrases the way the microphone is. ``notes`` says what the user should know about the file
    (cut short, no sound, a low rate) once ``phrases`` has started.

    ``now()`` is the position reached in the file, in seconds: the gate's clock for a recording,
    so its sleep timeout runs in recorded time, however fast the machine processes it.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._position = 0.0
        self.duration = 0.0
        self.energy_threshold = MIN_ENERGY
        self.notes: tuple[str, ...] = ()

    def now(self) -> float:
        return self._position

    def phrases(self, recognizer: Recognizer | None = None) -> Iterator[Phrase]:
        """Each phrase in the file, in order. Raises AudioFileError if it cannot be read.

        With a streaming ``recognizer`` each phrase is decoded while it is read and ends on the
        adaptive pause (endpoint.py), as at the microphone: handle (or drop) each phrase before
        asking for the next one."""
        import speech_recognition as sr

        from anovax.voice.soundfiles import decode

        decoded = decode(self.path)
        try:
            if decoded is not None:
                self.notes = decoded.notes
            yield from self._phrases(sr, decoded.path if decoded is not None else self.path, recognizer)
        finally:  # however it ends: read to the end, abandoned, an error, Ctrl-C
            if decoded is not None:
                decoded.path.unlink(missing_ok=True)

    def _phrases(self, sr: Any, readable: Path, recognizer: Recognizer | None) -> Iterator[Phrase]:
        from anovax.voice.denoise import NoiseSuppressor
        from anovax.voice.endpoint import PhraseCutter, streaming_begin

        try:
            source = sr.AudioFile(str(readable))
            source.__enter__()
        except (OSError, ValueError, EOFError) as exc:
            raise AudioFileError(f"Cannot read the audio file {self.path}: {reason(exc)}") from exc
        cutter = None
        try:
            reader = source.audio_reader
            rate = float(source.SAMPLE_RATE)
            self.duration = source.FRAME_COUNT / rate
            self.energy_threshold = self._threshold(source)
            # as at the microphone (a recording at another rate than the microphone's passes as it is)
            suppress = NoiseSuppressor(source.SAMPLE_RATE, source.SAMPLE_WIDTH)
            cutter = PhraseCutter(self.energy_threshold, rate=source.SAMPLE_RATE, width=source.SAMPLE_WIDTH,
                                  begin=streaming_begin(recognizer) if recognizer is not None else None)
            while True:
                frames = suppress(source.stream.read(CHUNK))
                self._position = reader.tell() / rate
                cut = cutter.push(frames) if frames else cutter.end()
                if cut is not None:
                    audio = sr.AudioData(cut.frames, source.SAMPLE_RATE, source.SAMPLE_WIDTH)
                    yield Phrase(audio, cut.started(self._position), self._position, cut.utterance)
                if not frames:
                    break
        finally:
            if cutter is not None:
                cutter.abandon()
            source.__exit__(None, None, None)

    def _threshold(self, source: Any) -> float:
        """Speech energy threshold from the recording's own quiet level (before the noise
        suppressor, as at the microphone: microphone.py); rewinds the file."""
        reader = source.audio_reader
        energies = []
        while True:
            frames = source.stream.read(CHUNK)
            if not frames:
                break
            energies.append(rms(frames, source.SAMPLE_WIDTH))
        reader.rewind()
        if not energies:
            return MIN_ENERGY
        quiet = sorted(energies)[len(energies) // 5]  # the 20th percentile: the quiet between phrases
        return max(MIN_ENERGY, NOISE_RATIO * quiet)
