"""The noise suppressor between the microphone and everything that listens (anovax/voice/denoise.py):
bytes out as bytes in, the hiss of a noisy room taken out and the speech kept, a quiet room's audio
untouched, and a filter that fails never taking the microphone with it."""

from __future__ import annotations

import threading

import pytest

voicegen = pytest.importorskip("voicegen")
np = pytest.importorskip("numpy")
pytest.importorskip("webrtc_noise_gain")
if not (voicegen.have_espeak() and voicegen.have_sox()):
    pytest.skip("espeak-ng and sox are needed (make test installs them)", allow_module_level=True)

from anovax.voice import denoise  # noqa: E402
from anovax.voice.audio import CHUNK, rms  # noqa: E402
from anovax.voice.denoise import FRAME_BYTES, NoiseSuppressor  # noqa: E402
from anovax.voice.microphone import MicStream  # noqa: E402

SAID = "hey anova open notepad"
NOISE = 0.1  # the room bench's pink noise


def samples(path) -> bytes:  # noqa: ANN001
    import wave

    with wave.open(str(path)) as w:
        assert (w.getframerate(), w.getsampwidth(), w.getnchannels()) == (16000, 2, 1)
        return w.readframes(w.getnframes())


@pytest.fixture(scope="module")
def speech(tmp_path_factory):
    """The phrase clean, and the same phrase in the room's noise (sox's noise is repeatable)."""
    folder = tmp_path_factory.mktemp("denoise")
    clean = samples(voicegen.render(SAID, folder / "clean.wav", voice="en-us+m1"))
    noisy = samples(voicegen.render(SAID, folder / "noisy.wav", voice="en-us+m1", noise=NOISE))
    assert len(clean) == len(noisy)
    return clean, noisy


def through(suppress: NoiseSuppressor, data: bytes, sizes=(2 * CHUNK,)) -> bytes:
    return b"".join(suppress(data[at:at + size]) for at, size in _cuts(len(data), sizes))


def _cuts(total: int, sizes) -> list[tuple[int, int]]:  # noqa: ANN001
    out, at, i = [], 0, 0
    while at < total:
        size = min(sizes[i % len(sizes)], total - at)
        out.append((at, size))
        at, i = at + size, i + 1
    return out


def energies(data: bytes) -> np.ndarray:
    x = np.frombuffer(data, np.int16).astype(float)
    return (x[:len(x) // 160 * 160].reshape(-1, 160) ** 2).mean(axis=1)  # per 10 ms


def hiss(level: float, seconds: float, seed: int = 1) -> bytes:
    """Gaussian noise of RMS ``level``."""
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(0, level, int(16000 * seconds)), -32768, 32767).astype(np.int16).tobytes()


def lag(reference: bytes, delayed: bytes) -> int:
    """The shift (in samples) at which ``delayed`` best matches ``reference``."""
    x, y = (np.frombuffer(b, np.int16).astype(float) for b in (reference, delayed))
    return max(range(0, 600), key=lambda d: np.dot(x[:len(x) - d], y[d:]) / np.linalg.norm(y[d:]))


def test_a_quiet_room_passes_untouched_in_any_read_size(speech):
    clean, _ = speech
    suppress = NoiseSuppressor(16000, 2)
    out = through(suppress, hiss(30, 3.0) + clean, sizes=(1024, 1000, 7, 333, 2, 4096))
    assert out[-len(clean):] == clean and not suppress.engaged  # not a sample moved: every threshold was tuned on it


def test_a_long_phrase_in_a_quiet_room_never_switches_it_on(speech):
    clean, _ = speech
    room = hiss(60, 3.0)
    suppress = NoiseSuppressor(16000, 2)
    said = (clean[len(clean) // 8:-len(clean) // 8]) * 4  # ~6 s of speech, no pause longer than a word's
    for at, size in _cuts(len(room + said), (2 * CHUNK,)):
        suppress((room + said)[at:at + size])
        assert not suppress.engaged, at / 32000


def test_in_a_noisy_room_the_hiss_goes_and_the_speech_stays_16_ms_late(speech):
    clean, noisy = speech
    room = voicegen.room_noise(NOISE, 3.0)
    suppress = NoiseSuppressor(16000, 2)
    through(suppress, room)  # it has heard the room before anyone speaks, as at the microphone
    assert suppress.engaged and suppress.room > denoise.ENGAGE_LEVEL
    out = through(suppress, noisy, sizes=(1024, 1000, 7, 333, 2, 4096))
    assert suppress.engaged and len(out) == len(noisy)
    assert lag(clean, out) == denoise.DELAY_BYTES // 2  # measured: 256 samples
    late = denoise.DELAY_BYTES
    said, heard, was = energies(clean[:-late]), energies(out[late:]), energies(noisy[:-late])
    quiet, loud = said < 1.0, said > np.percentile(said, 60)
    assert quiet.sum() > 50 and loud.sum() > 50
    taken = 10 * np.log10(was[quiet].mean() / heard[quiet].mean())
    kept = 10 * np.log10(heard[loud].sum() / said[loud].sum())
    assert taken >= 10.0, f"the hiss went down by only {taken:.1f} dB"  # measured: 15 dB
    assert abs(kept) <= 3.0, f"the speech changed by {kept:.1f} dB"  # measured: -1 dB


def test_it_waits_to_have_heard_the_room_then_switches_on_and_off_with_hysteresis():
    suppress = NoiseSuppressor(16000, 2)
    window = denoise.WINDOW_S
    steps = [(hiss(250, window * 0.9, 1), False),  # loud enough, but not heard for long enough
             (hiss(250, window * 0.2, 2), True),
             (hiss(150, window * 1.5, 3), True),  # between the two levels: stays on
             (hiss(80, 0.1, 4), False),  # one read quieter than the release level: off
             (hiss(150, window * 1.5, 5), False)]  # between them again: stays off
    for noise, engaged in steps:
        through(suppress, noise)
        assert suppress.engaged is engaged, (suppress.room, engaged)


@pytest.mark.parametrize(("rate", "width"), [(44100, 2), (16000, 4)])
def test_audio_it_cannot_take_passes_as_it_is(rate, width):
    suppress = NoiseSuppressor(rate, width)
    data = bytes(range(256)) * 9
    assert not suppress.available and suppress(data) == data


class _Failing:
    """The native processor, until it raises on block ``after``."""

    def __init__(self, real, after: int) -> None:  # noqa: ANN001
        self.real, self.left = real, after

    def Process10ms(self, block: bytes):  # noqa: N802, ANN201 - the library's name
        self.left -= 1
        if self.left < 0:
            raise RuntimeError("native module broke")
        return self.real.Process10ms(block)


def test_a_filter_that_fails_hands_on_the_audio_and_stays_out_of_the_way(speech, caplog):
    _, noisy = speech
    suppress = NoiseSuppressor(16000, 2)
    through(suppress, voicegen.room_noise(NOISE, 3.0))
    assert suppress.engaged
    suppress._processor = _Failing(suppress._processor, 30)
    pieces = [suppress(noisy[at:at + size]) for at, size in _cuts(len(noisy), (1024,))]
    assert [len(p) for p in pieces] == [size for _, size in _cuts(len(noisy), (1024,))]
    assert not suppress.available and not suppress.engaged
    failed_at = 30 * FRAME_BYTES // 1024  # the read the 31st block was in: from then on, as it is
    assert b"".join(pieces[failed_at:]) == noisy[failed_at * 1024:]
    assert "noise suppression failed" in caplog.text


def test_without_the_package_the_microphone_reads_as_before(speech, monkeypatch):
    monkeypatch.setattr(denoise, "_processor", lambda level: None)
    _, noisy = speech
    stream = MicStream(_Device(noisy), threading.Event(), 2)
    assert b"".join(iter(lambda: stream.read(CHUNK), b"")) == noisy


class _Device:
    """A PyAudio stream's ``read(frames)`` over fixed samples; b"" at the end."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def read(self, frames: int) -> bytes:
        out = self.data[self.at:self.at + 2 * frames]
        self.at += len(out)
        return out


def test_the_microphone_s_floor_is_the_room_s_own_whatever_the_suppressor_does(speech):
    """The listener moves its threshold only between phrases: a floor taken after the suppressor
    would be the filtered quiet when it switched off, and the room's hiss then a 10 s phrase."""
    _, noisy = speech
    room = voicegen.room_noise(NOISE, 3.0)
    stream = MicStream(_Device(room + noisy + room), threading.Event(), 2)
    stream.calibrate(round(0.5 * 16000 / CHUNK), CHUNK)  # as the listener does: CALIBRATE_S
    assert not stream.suppressor.engaged  # it has not heard the room for long enough yet
    raw_floor = stream.floor
    read = sum(len(stream.read(CHUNK)) for _ in range(round(2.5 * 16000 / CHUNK))) + 2 * CHUNK * 16
    assert stream.suppressor.engaged
    assert raw_floor * 0.6 <= stream.floor <= raw_floor * 1.25  # the device's room (its quietest chunk), not the cleaned one
    assert stream.threshold > 3 * rms(stream.read(CHUNK), 2)  # well above what it hands on
    heard = b"".join(iter(lambda: stream.read(CHUNK), b""))
    assert stream.suppressor.engaged and read + 2 * CHUNK + len(heard) == len(room + noisy + room)
    assert 10 * np.log10(energies(noisy[:4000]).mean() / energies(heard[:4000]).mean()) >= 10.0


def test_a_noisy_recording_is_cut_into_its_phrases_and_nothing_else(speech, tmp_path):
    """``--audio-file``: the first seconds, before the suppressor has heard enough of the room to
    switch on, and the rest, after, are cut on the same threshold (the room's own)."""
    import wave

    from anovax.voice.audio import Recording

    _, noisy = speech
    other = samples(voicegen.render("set a timer for five minutes", tmp_path / "b.wav", voice="en-us+m1",
                                    noise=NOISE))
    for lead in (0.0, 3.0):
        data = voicegen.room_noise(NOISE, lead) + noisy + voicegen.room_noise(NOISE, 3.0) + other \
            + voicegen.room_noise(NOISE, 2.0)
        path = tmp_path / f"room-{lead}.wav"
        with wave.open(str(path), "wb") as w:
            w.setnchannels(1), w.setsampwidth(2), w.setframerate(16000)
            w.writeframes(data)
        cuts = [(p.start, p.end) for p in Recording(path).phrases()]
        first_end = lead + len(noisy) / 32000
        second = (first_end + 3.0, first_end + 3.0 + len(other) / 32000)
        assert len(cuts) == 2, (lead, cuts)
        assert lead - 0.1 <= cuts[0][0] and cuts[0][1] <= first_end + 0.5, (lead, cuts)
        assert second[0] - 0.5 <= cuts[1][0] and cuts[1][1] <= second[1] + 0.5, (lead, cuts)
