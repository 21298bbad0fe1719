"""Adapting the offline recogniser's acoustic model to one person's voice (MLLR).

pocketsphinx's en-us model was trained on many speakers, so any one voice fits it loosely: the
closed command grammar then picks a near miss ("open the google" for "open the terminal"). A
maximum-likelihood linear regression transform, estimated from a minute of the user reading
known sentences, moves the model's Gaussian means towards that voice; pocketsphinx applies it at
load time (``Decoder(mllr=...)``), so the shipped model files are never changed and forgetting
the adaptation is deleting one small file. This is CMU Sphinx's documented adaptation recipe:
``sphinx_fe`` (features), ``bw`` (alignment counts), ``mllr_solve`` (the transform), run here as
the Debian packages ``sphinxbase-utils``, ``sphinxtrain`` and ``pocketsphinx`` install them.

The packaged model keeps its mixture weights only in pocketsphinx's compressed ``sendump``; bw
needs them as a plain ``mixture_weights`` file, which ``model_files`` writes once into the cache
(the format is sphinxtrain's own: ``python/cmusphinx/sendump.py`` and ``s3file.py``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import struct
import subprocess
import tempfile
import wave
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from anovax.errors import AdaptError

__all__ = ["AdaptError", "Adaptation", "estimate", "missing_tools", "model_files", "valid_transform"]

#: where Debian (and a source build) put sphinxtrain's programs; they are not on PATH
_TRAIN_DIRS = ("/usr/lib/sphinxtrain", "/usr/local/libexec/sphinxtrain", "/usr/libexec/sphinxtrain")
#: what each program comes from, for the message when one is missing
_PACKAGES = {"sphinx_fe": "sphinxbase-utils", "pocketsphinx_mdef_convert": "pocketsphinx",
             "bw": "sphinxtrain", "mllr_solve": "sphinxtrain"}
RATE = 16000
#: a transform from fewer phrases is mostly noise (CMU's tutorial uses 20 as a minimum)
MIN_PHRASES = 10
#: a phrase quieter than this (16-bit RMS; speech at a desk is 300-3000, a silent line under 30)
#: holds nothing to adapt to
SPEECH_RMS = 60.0
#: a transform is ~5.4 KB of text (590 numbers); anything much larger is not one
_MAX_TRANSFORM_BYTES = 64 * 1024
#: each program's limit: bw takes ~0.1 s per phrase here; a hung tool must not hang enrolment
_TIMEOUT_S = 300


@dataclass(frozen=True)
class Adaptation:
    """A finished transform and what went into it."""

    path: Path
    phrases: int  # phrases bw could align with their sentence
    offered: int  # phrases it was given


def _tool(name: str) -> str | None:
    if name in ("bw", "mllr_solve"):
        for folder in _TRAIN_DIRS:
            candidate = Path(folder) / name
            if os.access(candidate, os.X_OK):
                return str(candidate)
    return shutil.which(name)


def missing_tools() -> list[str]:
    """The Debian packages adaptation needs that are not installed (empty: it can run)."""
    return sorted({_PACKAGES[name] for name in _PACKAGES if _tool(name) is None})


def _run(name: str, *args: str, cwd: Path) -> str:
    exe = _tool(name)
    if exe is None:
        raise AdaptError(f"{name} is missing (install the Debian package {_PACKAGES[name]})")
    try:
        done = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, errors="replace",
                              timeout=_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AdaptError(f"{name} could not run ({exc})") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise AdaptError(f"{name} failed (exit {done.returncode}): {' / '.join(tail)}")
    return done.stdout + done.stderr


# --- the model's files, as bw wants them ------------------------------------------------------------


def _sendump_to_mixw(sendump: Path, out: Path) -> None:
    """pocketsphinx's 8-bit log mixture weights as sphinxtrain's float ``mixture_weights``."""
    data = sendump.read_bytes()
    pos, shift, features = 0, 10, 1

    def string() -> bytes | None:
        nonlocal pos
        (n,) = struct.unpack_from("<I", data, pos)
        pos += 4
        if n == 0:
            return None
        pos += n
        return data[pos - n:pos - 1]

    string()  # the title
    while (line := string()) is not None:
        key, _, value = line.decode("ascii", "replace").partition(" ")
        if key == "mixw_shift":
            shift = int(value)
        elif key == "feature_count":
            features = int(value)
        elif key == "cluster_count" and int(value) != 0:
            raise AdaptError("this acoustic model's mixture weights are clustered; adaptation does not support it")
    codewords, senones = struct.unpack_from("<II", data, pos)
    pos += 8
    if pos + features * codewords * senones != len(data):
        raise AdaptError("the acoustic model's sendump has an unexpected size")
    table = [1.0001 ** -(b << shift) for b in range(256)]
    # stored per feature and codeword, a byte per senone; written per senone, feature, codeword
    rows = [data[pos + k * senones:pos + (k + 1) * senones] for k in range(features * codewords)]
    weights = array("f")
    for s in range(senones):
        for f in range(features):
            # 8-bit quantisation leaves sums of 0.9-1.1; bw expects distributions
            mix = [table[row[s]] for row in rows[f * codewords:(f + 1) * codewords]]
            total = sum(mix) or 1.0
            weights.extend(w / total for w in mix)
    header = b"s3\nversion 1.0\n"
    header += b" " * (-(len(header) + len(b"endhdr\n")) % 4) + b"endhdr\n"
    with open(out, "wb") as f:
        f.write(header + struct.pack("<i", 0x11223344))
        f.write(struct.pack("<IIII", senones, features, codewords, len(weights)))
        if struct.pack("=i", 1) != struct.pack("<i", 1):
            weights.byteswap()
        f.write(weights.tobytes())


def model_files(model: Path, cache: Path) -> tuple[Path, Path]:
    """The model's text ``mdef`` and float ``mixture_weights``, made once per model in ``cache``."""
    digest = hashlib.sha1()
    for name in ("mdef", "sendump"):
        digest.update((model / name).read_bytes())
    folder = cache / f"model-{digest.hexdigest()[:12]}"
    mdef, mixw = folder / "mdef.txt", folder / "mixture_weights"
    if mdef.is_file() and mixw.is_file():
        return mdef, mixw
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as work:
        tmp = Path(work)
        _run("pocketsphinx_mdef_convert", "-text", str(model / "mdef"), str(tmp / "mdef.txt"), cwd=tmp)
        _sendump_to_mixw(model / "sendump", tmp / "mixture_weights")
        os.replace(tmp / "mixture_weights", mixw)  # mdef last: its presence says both are whole
        os.replace(tmp / "mdef.txt", mdef)
    return mdef, mixw


# --- one transform ---------------------------------------------------------------------------------


def estimate(recordings: Sequence[tuple[str, bytes]], *, model: Path, dict_path: Path, out: Path,
             cache: Path) -> Adaptation:
    """An MLLR transform from ``recordings`` (sentence, 16 kHz 16-bit mono PCM), written to ``out``.

    Sentences must use words of ``dict_path``; a phrase bw cannot align with its sentence (read
    wrongly, cut off) or holding no speech is left out. AdaptError when too few phrases remain or a tool fails; ``out``
    is replaced only by a transform that parsed."""
    if len(recordings) < MIN_PHRASES:
        raise AdaptError(f"adaptation needs at least {MIN_PHRASES} phrases, got {len(recordings)}")
    # bw aligns a sentence with silence as readily as with speech: a phrase with nothing in it
    # (a muted microphone, a wrong input device) is left out here
    offered = len(recordings)
    recordings = [(text, pcm) for text, pcm in recordings if _rms(pcm) >= SPEECH_RMS]
    if len(recordings) < MIN_PHRASES:
        raise AdaptError(f"only {len(recordings)} phrases held speech; check that the microphone is the one "
                         f"you speak into and is not muted")
    mdef, mixw = model_files(model, cache)
    with tempfile.TemporaryDirectory(prefix="anovax-adapt-") as work:
        tmp = Path(work)
        ids = []
        with open(tmp / "phrases.txt", "w", encoding="utf-8") as words:
            for i, (text, pcm) in enumerate(recordings):
                uid = f"u{i:03d}"
                with wave.open(str(tmp / f"{uid}.wav"), "wb") as w:
                    w.setnchannels(1)
                    w.setsampwidth(2)
                    w.setframerate(RATE)
                    w.writeframes(pcm)
                words.write(f"<s> {' '.join(text.lower().split())} </s> ({uid})\n")
                ids.append(uid)
        (tmp / "phrases.ids").write_text("\n".join(ids) + "\n", encoding="utf-8")
        _run("sphinx_fe", "-argfile", str(model / "feat.params"), "-samprate", str(RATE), "-c", "phrases.ids",
             "-di", ".", "-do", ".", "-ei", "wav", "-eo", "mfc", "-mswav", "yes", cwd=tmp)
        # bw waits and retries for ever on a feature file it cannot read
        if missing := [uid for uid in ids if not (tmp / f"{uid}.mfc").is_file()]:
            raise AdaptError(f"sphinx_fe made no features for {len(missing)} of {len(ids)} phrases")
        log = _run("bw", "-moddeffn", str(mdef), "-mixwfn", str(mixw), "-meanfn", str(model / "means"),
                   "-varfn", str(model / "variances"), "-tmatfn", str(model / "transition_matrices"),
                   "-ts2cbfn", ".ptm.", "-feat", "1s_c_d_dd", "-svspec", "0-12/13-25/26-38", "-cmn", "batch",
                   "-agc", "none", "-dictfn", str(dict_path), "-fdictfn", str(model / "noisedict"),
                   "-ctlfn", "phrases.ids", "-lsnfn", "phrases.txt", "-cepdir", ".", "-cepext", "mfc",
                   "-accumdir", ".", cwd=tmp)
        failed = log.count("final state not reached") + log.count("Unable to create utterance HMM")
        aligned = len(recordings) - failed
        if aligned < MIN_PHRASES:
            raise AdaptError(f"only {aligned} of {len(recordings)} phrases matched their sentence; "
                             f"read each sentence as shown, in a quiet room")
        _run("mllr_solve", "-meanfn", str(model / "means"), "-varfn", str(model / "variances"),
             "-outmllrfn", "mllr_matrix", "-accumdir", ".", cwd=tmp)
        if not valid_transform(tmp / "mllr_matrix"):
            raise AdaptError("mllr_solve wrote a transform that does not parse")
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            _replace(tmp / "mllr_matrix", out)
        except OSError as exc:
            raise AdaptError(f"the adaptation cannot be saved to {out} ({exc.strerror or exc})") from exc
    return Adaptation(out, aligned, offered)


def _rms(pcm: bytes) -> float:
    samples = array("h", pcm[: len(pcm) - len(pcm) % 2])
    if not samples:
        return 0.0
    return (sum(x * x for x in samples) / len(samples)) ** 0.5


def _replace(src: Path, dst: Path) -> None:
    # a rename is atomic only within one file system: copy next to the target first
    staged = dst.with_name(dst.name + ".new")
    try:
        shutil.copyfile(src, staged)
        os.replace(staged, dst)
    except OSError:
        staged.unlink(missing_ok=True)
        raise


def valid_transform(path: Path) -> bool:
    """Whether ``path`` holds an MLLR transform pocketsphinx can load: one class, three 13-wide
    streams, each a 13x13 matrix, 13 offsets and 13 variance scales (sphinxtrain's text format),
    all finite numbers. A damaged file is then refused before pocketsphinx sees it."""
    try:
        # a regular file of a transform's size: never a FIFO (which would block), a device
        # (/dev/zero never ends) or gigabytes of something else
        if not path.is_file() or path.stat().st_size > _MAX_TRANSFORM_BYTES:
            return False
        with open(path, "rb") as f:
            fields = f.read(_MAX_TRANSFORM_BYTES + 1).decode("ascii").split()
        numbers = [float(x) for x in fields]
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    if len(numbers) < 2 or numbers[0] != 1 or numbers[1] != 3:
        return False
    want, at = 2, 2
    for _ in range(3):
        if at >= len(numbers) or numbers[at] != 13:
            return False
        at += 1 + 13 * 13 + 13 + 13
        want = at
    return len(numbers) == want and all(abs(x) < 1e30 for x in numbers)
