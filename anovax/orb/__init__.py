"""The orb: a small always-on-top window (or, headless, a status line) showing what AnovaX does.

model.py folds events into a Snapshot (pure; asking.py folds the question a held plan waits
on); view.py draws it with tkinter (question.py: the Yes / No); console.py
draws it as one terminal line; run.py starts either for an Assistant. Importing this
package does not import tkinter.
"""

from anovax.orb.controls import OrbControls, RemoteInfo
from anovax.orb.model import ChipState, ChipView, HistoryEntry, OrbModel, OrbState, QuestionView, Snapshot

__all__ = ["ChipState", "ChipView", "HistoryEntry", "OrbControls", "OrbModel", "OrbState", "QuestionView",
           "RemoteInfo", "Snapshot"]
