"""Synthetic speech for the voice tests and benchmarks: espeak-ng renders, sox adds noise.

``render("hey anova open notepad", path)`` writes a 16 kHz mono 16-bit WAV (sox resamples;
without sox the file keeps espeak-ng's 22.05 kHz and ``AudioData.get_raw_data(convert_rate=...)``
resamples it later). ``noise`` > 0 mixes pink noise into it, ``noise`` being the amplitude given
to sox's ``synth pinknoise vol``: measured against these voices' speech, 0.05 is 16-20 dB and
0.1 is 10-14 dB signal-to-noise ratio.

``VOICES`` are the three espeak-ng voices the command recogniser was measured on; ``wer`` is
the word error rate (word-level Levenshtein distance / reference length).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

#: three kinds of synthetic voice: female formant (f2), Klatt synthesis (klatt4) and male formant
#: (m1). Measured with the command model (clean, 69 commands): klatt4 ~0.02 WER, m1 ~0.10,
#: f2 ~0.14; en-us+m3 ~0.20 and en-us+f1/f3/f4, en-us+m2/m4/m7 and en-gb+f2 0.45-0.7 with the
#: general model's settings, so they would test espeak-ng's quirks more than the recogniser.
VOICES: tuple[str, ...] = ("en-us+f2", "en-us+klatt4", "en-us+m1")

SAMPLE_RATE = 16000


def have_espeak() -> bool:
    """True when ``espeak-ng`` is on PATH."""
    return shutil.which("espeak-ng") is not None


#: festival's diphone voices (Debian festvox-kallpc16k, festvox-kdlpc16k): a second synthesiser
#: the recogniser and its confidence thresholds were never tuned on; only reported
HELD_OUT_VOICES: tuple[str, ...] = ("festival:kal_diphone", "festival:ked_diphone")
#: flite's voices (Debian flite): a third synthesiser, never tuned on either, found after the
#: thresholds were set. slt, rms and awb are unit-selection voices, each built from about an hour
#: of one person's recordings (awb's accent is Scottish); espeak-ng's voices are formant synthesis,
#: festival's are diphone sets
FLITE_VOICES: tuple[str, ...] = ("flite:slt", "flite:rms", "flite:awb")


def have_festival() -> bool:
    """True when festival's ``text2wave`` is on PATH."""
    return shutil.which("text2wave") is not None


def have_flite() -> bool:
    """True when ``flite`` is on PATH (Debian flite: a third synthesiser, also never tuned on)."""
    return shutil.which("flite") is not None


def have_sox() -> bool:
    """True when ``sox`` is on PATH."""
    return shutil.which("sox") is not None


def render(text: str, path: str | Path, voice: str = "en-us+f2", speed: int = 160, noise: float = 0.0,
           pad: float = 0.3) -> Path:
    """Speak ``text`` with espeak-ng (or festival, for a ``voice`` "festival:<name>", or flite, for
    "flite:<name>") into the WAV file ``path`` and return the path.

    ``noise`` (0..1) is the peak amplitude of pink noise mixed in (needs sox). ``pad`` seconds of
    silence go before and after the speech (needs sox), as a microphone phrase has: espeak-ng
    starts speaking at sample 0, which no listener ever records. Raises RuntimeError when
    espeak-ng (or, for noise, sox) is missing or fails."""
    path = Path(path)
    festival = voice.startswith("festival:")
    if festival and not have_festival():
        raise RuntimeError("festival is not installed (apt-get install festival festvox-kallpc16k festvox-kdlpc16k)")
    flite = voice.startswith("flite:")
    if flite and not have_flite():
        raise RuntimeError("flite is not installed (apt-get install flite)")
    if not festival and not flite and not have_espeak():
        raise RuntimeError("espeak-ng is not installed")
    if noise > 0 and not have_sox():
        raise RuntimeError("sox is not installed (needed to add noise)")
    with tempfile.TemporaryDirectory(prefix="voicegen-") as tmp:
        raw = Path(tmp) / "speech.wav"
        if festival:  # festival has no speed setting worth using: its diphone voices' own pace
            _run(["text2wave", "-eval", f"(voice_{voice.split(':', 1)[1]})", "-o", str(raw)], stdin=text)
        elif flite:
            _run(["flite", "-voice", voice.split(":", 1)[1], "-t", text, "-o", str(raw)])
        else:
            _run(["espeak-ng", "-v", voice, "-s", str(int(speed)), "-w", str(raw), text])
        if not have_sox():
            shutil.copyfile(raw, path)
            return path
        if pad > 0:
            padded = Path(tmp) / "padded.wav"
            _run(["sox", "-R", str(raw), str(padded), "pad", f"{pad:.3f}", f"{pad:.3f}"])
            raw = padded
        if noise <= 0:
            _run(["sox", "-R", str(raw), "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", str(path)])
            return path
        # noise of exactly the speech's length and format, then mixed at full speech volume
        hiss = Path(tmp) / "noise.wav"
        _run(["sox", "-R", str(raw), str(hiss), "synth", "pinknoise", "vol", f"{float(noise):.4f}"])
        _run(["sox", "-R", "-m", "-v", "1", str(raw), "-v", "1", str(hiss),
              "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", str(path)])
    return path


def room_noise(noise: float, seconds: float) -> bytes:
    """``seconds`` of the room ``render`` puts speech in, with nobody speaking: pink noise of peak
    ``noise`` (needs sox), or digital silence for 0; 16 kHz 16-bit mono samples."""
    if seconds <= 0:  # (sox's "synth 0" would never end)
        return b""
    if noise <= 0:
        return bytes(2 * round(SAMPLE_RATE * seconds))
    if not have_sox():
        raise RuntimeError("sox is not installed (needed to add noise)")
    return subprocess.run(["sox", "-R", "-n", "-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed",
                           "-t", "raw", "-", "synth", f"{seconds:.3f}", "pinknoise", "vol", f"{float(noise):.4f}"],
                          capture_output=True, check=True).stdout


def _run(argv: list[str], stdin: str | None = None) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, input=stdin)
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({proc.returncode}): {proc.stderr.strip()[:300]}")


def wer(ref: str, hyp: str) -> float:
    """Word error rate: (substitutions + deletions + insertions) / words in ``ref``.

    Case-insensitive, split on whitespace. An empty reference gives 0.0 for an empty
    hypothesis and 1.0 otherwise."""
    r = ref.lower().split()
    h = hyp.lower().split()
    if not r:
        return 0.0 if not h else 1.0
    prev = list(range(len(h) + 1))
    for i, rw in enumerate(r, 1):
        cur = [i] + [0] * len(h)
        for j, hw in enumerate(h, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (rw != hw))
        prev = cur
    return prev[-1] / len(r)
