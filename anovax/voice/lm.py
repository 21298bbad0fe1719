"""Language model files for the offline recogniser: a trigram model of sentences, written whole.

Both of stt.py's models are built here: the command model (every sentence the recogniser may
hear) and the request model of again.py (what may follow the name)."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from anovax.atomicfile import write_atomic

#: the back-off discount of every model built here (part of stt.py's cache key)
LM_DISCOUNT = 0.5


def arpa(sentences: Sequence[str]) -> str:
    """A trigram language model of ``sentences`` in ARPA text (pocketsphinx's own builder)."""
    from pocketsphinx.lm import ArpaBoLM

    if not sentences:  # ArpaBoLM would call sys.exit("No input?")
        raise ValueError("a language model needs at least one sentence")
    lm = ArpaBoLM(text="\n".join(sentences), add_start=True, discount_mass=LM_DISCOUNT)
    lm.compute()
    out = io.StringIO()
    lm.write(out)
    return out.getvalue()


def write_cached(folder: Path, files: Mapping[str, str]) -> Path:
    """Each of ``files`` (name → text) written whole into ``folder``, or, when ``folder`` cannot
    be written, all of them into a fresh temporary folder (recognition still works, the model is
    only built again next time); the folder they are in."""
    try:
        for name, text in files.items():
            write_atomic(folder / name, text)
        return folder
    except OSError:
        folder = Path(tempfile.mkdtemp(prefix="anovax-stt-"))
        for name, text in files.items():
            write_atomic(folder / name, text)
        return folder
