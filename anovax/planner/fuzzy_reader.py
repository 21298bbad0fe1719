"""The fuzzy fallback as the planner uses it: candidates from the model, read by the handlers.

The model (``fuzzy.py``) ranks intents; each candidate goes to the grammar intent's own handler,
which may reject it exactly as it rejects a template match. The best accepted candidate is used
only if it leads the next accepted one that would do something different by ``fuzzy.MARGIN``:
two readings that are nearly as likely and act differently mean the matcher does not know.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from anovax.planner import fuzzy
from anovax.planner.fuzzy_cache import load_model
from anovax.planner.handlers import HANDLERS
from anovax.planner.pieces import Piece, RequestState
from anovax.planner.refusals import refusal_for

_LOG = logging.getLogger(__name__)


class FuzzyReader:
    """Loads the model on first use (thread-safe) and turns a clause into a Piece, or None."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self._cache_dir = cache_dir
        self._model: fuzzy.FuzzyModel | None = None
        self._lock = threading.Lock()

    def model(self) -> fuzzy.FuzzyModel:
        """The model, loaded from the cache or trained the first time it is asked for."""
        with self._lock:
            if self._model is None:
                self._model = load_model(self._cache_dir)
            return self._model

    def piece(self, clause: str, state: RequestState) -> Piece | None:
        """What ``clause`` most likely asks for, or None when no reading is clearly best."""
        if refusal_for(clause):
            return None  # a guess never turns "show me the saved passwords" into a search
        best: tuple[float, tuple[str, ...], Piece] | None = None
        for match in self.model().candidates(clause):
            piece = HANDLERS[match.intent.name](clause, match, state)
            if piece is None or piece.kind in ("unknown", "refuse"):
                continue
            tools = tuple(step.tool for step in piece.steps)
            if best is None:
                best = (match.score, tools, piece)
            elif tools != best[1]:
                if best[0] - match.score < fuzzy.MARGIN:
                    _LOG.debug("fuzzy: %r is ambiguous (%s vs %s)", clause, best[1], tools)
                    return None
                break
        if best is None:
            return None
        best[2].fuzzy = True
        return best[2]
