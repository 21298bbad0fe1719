"""A recording in any common format, as the 16-bit mono WAV the phrase cutter reads.

speech_recognition's reader takes 16-bit PCM WAV, AIFF and FLAC. Anything else it either refuses
with "check if file is corrupted" (24-bit, 32-bit float or multichannel WAV, all of them valid and
common: what a DAW or a phone exports) or, for 8-bit WAV, reads into silence: 0 phrases and no
word of why. libsndfile (``soundfile``) reads all of those, Ogg and MP3 too, so a recording is
decoded here first, its channels mixed down, into a temporary WAV at its own rate; the rate is
left to the phrase cutter, which resamples as it does for a microphone.

It also says what the user should know and otherwise would not (``Decoded.notes``): a file cut
short (its header promises more than it holds: a copy that did not finish), a file with no sound
in it, a rate below the 16 kHz the recogniser works at.
"""

from __future__ import annotations

import os
import struct
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

from anovax.errors import AudioFileError

#: frames decoded at a time: memory stays flat however long the recording
BLOCK_FRAMES = 65536
#: the rate the recogniser works at; below it, words are heard worse
SPEECH_RATE = 16000


@dataclass(frozen=True)
class Decoded:
    """A recording decoded into ``path`` (a temporary file the caller deletes)."""

    path: Path
    rate: int
    seconds: float
    notes: tuple[str, ...]


def decode(source: Path) -> Decoded | None:
    """``source`` as a temporary 16-bit mono WAV, or None when libsndfile is not installed (the
    caller reads the file itself then). Raises AudioFileError when it cannot be read."""
    try:
        import numpy  # noqa: F401 - soundfile's own dependency, used by _convert
        import soundfile
    except (ImportError, OSError):  # OSError: the package without its libsndfile
        return None
    try:
        source.open("rb").close()
    except OSError as exc:  # libsndfile would only say "System error"
        raise AudioFileError(f"Cannot read the audio file {source}: {(exc.strerror or str(exc)).lower()}") from exc
    try:
        info = soundfile.info(str(source))
        handle, name = tempfile.mkstemp(prefix="anovax-recording-", suffix=".wav")
        os.close(handle)
        target = Path(name)
        try:
            frames = _convert(soundfile, source, target, info.samplerate)
        except BaseException:
            target.unlink(missing_ok=True)
            raise
    except (RuntimeError, OSError, ValueError, TypeError) as exc:  # soundfile.LibsndfileError is a RuntimeError
        raise AudioFileError(f"Cannot read the audio file {source}: {_why(exc)} "
                             "(WAV, FLAC, Ogg, MP3 and AIFF can be read)") from exc
    seconds = frames / info.samplerate
    return Decoded(target, info.samplerate, seconds, _notes(source, info, frames))


def _convert(soundfile, source: Path, target: Path, rate: int) -> int:  # noqa: ANN001 - a lazily imported module
    import numpy as np

    frames = 0
    with wave.open(str(target), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        for block in soundfile.blocks(str(source), blocksize=BLOCK_FRAMES, dtype="float32", always_2d=True):
            mono = block.mean(axis=1)
            out.writeframes(np.clip(np.round(mono * 32768.0), -32768, 32767).astype("<i2").tobytes())
            frames += len(mono)
    return frames


def _notes(source: Path, info: object, frames: int) -> tuple[str, ...]:
    notes = []
    promised = _wav_data_frames(source)
    rate = getattr(info, "samplerate", SPEECH_RATE)
    if promised is not None and promised > frames:
        notes.append(f"it ends before its header says it should ({frames / rate:.1f} of {promised / rate:.1f} s are "
                     "there): it may have been cut short")
    elif frames == 0:
        notes.append("it holds no audio at all")
    if frames and rate < SPEECH_RATE:
        notes.append(f"it was recorded at {rate} Hz, below the {SPEECH_RATE} Hz the recogniser works at, so "
                     "words are heard less well")
    return tuple(notes)


def _wav_data_frames(source: Path) -> int | None:
    """The frames a WAV file's header says its data chunk holds, or None (not a WAV, unreadable)."""
    try:
        with source.open("rb") as f:
            head = f.read(12)
            if len(head) < 12 or head[:4] not in (b"RIFF", b"RIFX") or head[8:12] != b"WAVE":
                return None
            order = "<" if head[:4] == b"RIFF" else ">"
            block_align = None
            while True:
                chunk = f.read(8)
                if len(chunk) < 8:
                    return None
                kind, size = chunk[:4], struct.unpack(order + "I", chunk[4:])[0]
                if kind == b"fmt ":
                    fmt = f.read(size)
                    if len(fmt) < 14:
                        return None
                    block_align = struct.unpack(order + "H", fmt[12:14])[0]
                    f.seek(size % 2, os.SEEK_CUR)
                elif kind == b"data":
                    # 0 or 0xFFFFFFFF: a stream written before its length was known
                    if not block_align or size in (0, 0xFFFFFFFF):
                        return None
                    return size // block_align
                else:
                    f.seek(size + size % 2, os.SEEK_CUR)
    except (OSError, struct.error):
        return None


def _why(exc: BaseException) -> str:
    text = str(exc).strip().rstrip(".")
    # libsndfile's messages name the file first ("Error opening 'x.wav': Format not recognised")
    return text.rsplit(": ", 1)[-1] if text.startswith("Error opening") else text or type(exc).__name__
