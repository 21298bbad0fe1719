"""Language model files for the offline recogniser: a trigram model of sentences, written whole.

Both of stt.py's models are built here: the command model (every sentence the recogniser may
hear) and the request model of again.py (what may follow the name)."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

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


def write_atomic(path: Path, text: str) -> None:
    """``text`` into ``path``, never half-written: another process may be reading the cache."""
    with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".tmp", delete=False, encoding="utf-8") as f:
        f.write(text)
    os.replace(f.name, path)
