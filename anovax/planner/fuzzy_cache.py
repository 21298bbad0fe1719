"""The fuzzy model, trained once and kept in the user's cache folder.

Training samples every template (~0.3 s), too slow for every start. The model is stored as JSON
under ``<cache>/planner/fuzzy-<key>.json``, the key a hash of the grammar (templates, lists,
the tools' phrases) and of the trainer's source, so a changed grammar or trainer trains a new
model and never reads a stale one. A cache that cannot be read or written is not an error: the
model is trained in memory and used (the next start tries again).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path

from anovax import paths
from anovax.planner import fuzzy, fuzzy_train, sampling
from anovax.planner.grammar import grammar_fingerprint, load_grammar

_LOG = logging.getLogger(__name__)


def default_dir() -> Path:
    """``planner`` in the user cache folder (``~/.cache/anovax/planner`` on Linux)."""
    return paths.cache_dir() / "planner"


def model_key() -> str:
    """The cache key: the grammar's fingerprint with the trainer's own source (a changed
    trainer or setting never reads a model the old code made)."""
    code = "".join(Path(m.__file__).read_text(encoding="utf-8") for m in (fuzzy, fuzzy_train, sampling) if m.__file__)
    return hashlib.sha256(f"{grammar_fingerprint()}|{code}".encode()).hexdigest()[:20]


def load_model(cache_dir: Path | None = None) -> fuzzy.FuzzyModel:
    """The cached model for this grammar, trained and stored first if there is none."""
    folder = cache_dir if cache_dir is not None else default_dir()
    path = folder / f"fuzzy-{model_key()}.json"
    try:
        return fuzzy.FuzzyModel.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, TypeError, KeyError) as exc:
        _LOG.warning("fuzzy model cache %s unreadable (%s); training it again", path, exc)
    model = fuzzy_train.train(load_grammar())
    _store(path, model)
    return model


def _store(path: Path, model: fuzzy.FuzzyModel) -> None:
    """Write the model atomically (two starts at once never read half a file); failures are logged."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=".fuzzy-", suffix=".tmp",
                                         delete=False, encoding="utf-8") as fh:
            json.dump(model.to_dict(), fh, separators=(",", ":"))
        os.replace(fh.name, path)
        for old in path.parent.glob("fuzzy-*.json"):  # models of earlier grammars
            if old != path:
                old.unlink(missing_ok=True)
    except OSError as exc:
        _LOG.warning("could not cache the fuzzy model in %s: %s", path.parent, exc)
