"""The orb's countdown chips: one small label per pending timer, in one row under the agents.

One row of at most ``MAX_SHOWN`` chips and a "+N" so the orb keeps its width however many
timers run; a chip is updated in place, not rebuilt, as its seconds go down.
"""

from __future__ import annotations

import tkinter as tk

from anovax.orb.countdown import TimerView
from anovax.orb.style import BACKGROUND, MUTED_TEXT, TEXT

SMALL = ("DejaVu Sans", 8)
TIMER_BG = "#3b2f63"
#: chips shown side by side; the rest are counted ("+2")
MAX_SHOWN = 2


class TimerChips:
    """The row of countdown chips, kept by timer id."""

    def __init__(self, parent: tk.Misc) -> None:
        self.frame = tk.Frame(parent, bg=BACKGROUND)
        self._labels: dict[str, tk.Label] = {}
        self._more = tk.Label(self.frame, bg=BACKGROUND, fg=MUTED_TEXT, font=SMALL)
        self._more_text = ""

    def texts(self) -> list[str]:
        """The chips as drawn, in order (the tests and the screenshot script read them)."""
        return [label.cget("text") for label in self._labels.values()] + ([self._more_text] if self._more_text else [])

    def update(self, timers: tuple[TimerView, ...]) -> None:
        shown = timers[:MAX_SHOWN]
        wanted = [t.timer_id for t in shown]
        if list(self._labels) != wanted:  # the set or the order changed: rebuild the row (rare)
            for label in self._labels.values():
                label.destroy()
            self._labels = {t.timer_id: tk.Label(self.frame, font=SMALL, bg=TIMER_BG, fg=TEXT, padx=5, pady=1)
                            for t in shown}
            for label in self._labels.values():
                label.pack(side="left", padx=(0, 4), pady=1)
            self._more.pack_forget()
            self._more_text = ""
        for view in shown:
            label = self._labels[view.timer_id]
            if label.cget("text") != view.label:
                label.configure(text=view.label)
        more = f"+{len(timers) - MAX_SHOWN}" if len(timers) > MAX_SHOWN else ""
        if more != self._more_text:
            self._more_text = more
            self._more.configure(text=more)
            if more:
                self._more.pack(side="left")
            else:
                self._more.pack_forget()
