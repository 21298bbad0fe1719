"""Noise suppression: a steady noise (a fan, a laptop's hiss) taken out of the microphone's audio
before the phrase cutter and the recogniser hear it.

pocketsphinx's model was trained on clean speech. On the room bench's tuning half every wake +
command it got wrong came with pink noise at 10-14 dB SNR (10 of 105 noisy phrases, 0 of 105
clean): "open notepad" heard as "open nova", "set a timer for five minutes" as "set i'd a for five
minutes". WebRTC's noise suppressor (``webrtc-noise-gain``, the one Home Assistant's voice pipeline
uses; 10 ms blocks of 16 kHz audio, 6 µs each, no model to download) took the noisy misses to 3 of
105, and on the report half, which tuning never saw, right actions went from 193 to 202 of 210
(docs/VOICE.md, *Noisy rooms*).

It runs only while the room is noisy, and a quiet room's audio passes exactly as the microphone
gave it: on clean speech a suppressor can only take something away, and every threshold in
trust.py was tuned on speech nobody had filtered (with it always on, the tuning half's clean
phrases lost 2 of 105 and a clean "hey now, amazon stock price" acted). The room's level is the
quietest read of the last two seconds (minimum statistics): speech does not lift it, since words
have gaps, so a long phrase in a quiet room does not switch it on halfway (nor a recording that
starts with a word: it waits until it has heard two seconds).

The package ships wheels for glibc Linux (x86_64, aarch64) only: ``scripts/setup-env.sh``
installs it where a wheel exists (``pip install anovax[denoise]``); elsewhere, or if it fails to
load or to run, the audio passes as it is (``available`` says which).
"""

from __future__ import annotations

import logging
import math
from collections import deque
from typing import Any

from anovax.voice.audio import rms

log = logging.getLogger(__name__)

#: 10 ms of 16 kHz 16-bit mono: the only block the suppressor takes
FRAME_BYTES = 320
SAMPLE_RATE = 16000
#: WebRTC's suppression level, 0 (mild) to 4: 2 on the tuning half (1 and 2 measured)
LEVEL = 2
#: the room's level (RMS of its quietest read, 16-bit units) at which suppression starts, and
#: below which it stops again: the bench's pink noise sits at ~550, a quiet room at 20-100
ENGAGE_LEVEL = 200.0
RELEASE_LEVEL = 120.0
#: the room's level is measured over reads of 32 ms (the microphone's), whatever the caller's size
MEASURE_BYTES = 1024
#: how far back the quietest of them is looked for; it stays off until it has heard this much
WINDOW_S = 2.0
#: what the output lags the input by while engaged: 10 ms of framing here, 6 ms (96 samples) of
#: the suppressor's own
DELAY_BYTES = FRAME_BYTES + 2 * 96


def _processor(level: int) -> Any:
    try:
        from webrtc_noise_gain import AudioProcessor
    except ImportError:  # not on this platform: the audio passes as it is
        return None
    try:
        return AudioProcessor(0, level)  # 0: no automatic gain (level.py sets the gain)
    except Exception:  # noqa: BLE001 - a broken native module must not take the microphone with it
        log.warning("noise suppression is unavailable", exc_info=True)
        return None


class NoiseSuppressor:
    """Bytes in, the same number of bytes out: while the room is noisy, suppressed and 16 ms late
    (``DELAY_BYTES``); otherwise the input itself, at once.

    One per audio stream, owned by the thread that reads it. The suppressor sees every block,
    engaged or not, so its estimate of the noise is current the moment the room gets noisy.
    Switching repeats (on) or skips (off) those 16 ms once, and so does a native failure while
    engaged (the audio then passes as it is for good); the room's level moves over seconds, so a
    switch comes when the noise changes, not with speech.
    """

    def __init__(self, rate: int, width: int, level: int = LEVEL) -> None:
        ok = rate == SAMPLE_RATE and width == 2
        self._processor = _processor(level) if ok else None
        self.engaged = False
        self._pending = b""
        self._out = bytearray(FRAME_BYTES)  # the 10 ms that keeps bytes out == bytes in
        self._levels: deque[float] = deque(maxlen=math.ceil(WINDOW_S * rate * width / MEASURE_BYTES))
        self._unmeasured = b""

    @property
    def available(self) -> bool:
        return self._processor is not None

    @property
    def room(self) -> float | None:
        """The room's level: the energy of the quietest 32 ms in the last WINDOW_S."""
        return min(self._levels) if self._levels else None

    def __call__(self, raw: bytes) -> bytes:
        if self._processor is None or not raw:
            return raw
        self._heard(raw)
        full = len(self._levels) == self._levels.maxlen  # a room heard for less than that may be a word
        self.engaged = full and self.room >= (RELEASE_LEVEL if self.engaged else ENGAGE_LEVEL)
        data = self._pending + raw
        whole = len(data) - len(data) % FRAME_BYTES
        try:
            for at in range(0, whole, FRAME_BYTES):
                self._out += self._processor.Process10ms(data[at:at + FRAME_BYTES]).audio
        except Exception:  # noqa: BLE001 - never lose the microphone to the filter
            log.warning("noise suppression failed; the audio passes as it is", exc_info=True)
            self._processor = None
            self.engaged = False
            return raw
        self._pending = data[whole:]
        out = bytes(self._out[:len(raw)]) if self.engaged else raw
        del self._out[:len(raw)]
        return out

    def _heard(self, raw: bytes) -> None:
        data = self._unmeasured + raw
        whole = len(data) - len(data) % MEASURE_BYTES
        for at in range(0, whole, MEASURE_BYTES):
            self._levels.append(rms(data[at:at + MEASURE_BYTES], 2))
        self._unmeasured = data[whole:]
