"""The orb's countdown chips and timer alert, under the agents' chips.

One chip per row (at most ``MAX_SHOWN``, then "+N more") so the time left is never cut at the
orb's fixed 280 px: the name is shortened instead (``TimerView.label``). A chip is updated in
place, not rebuilt, as its seconds go down. Above them a fired timer's message stays, in its own
colour, until the next command or a click on it (a command's reply must not hide it).
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable

from anovax.orb.countdown import TimerView
from anovax.orb.style import BACKGROUND, MUTED_TEXT, TEXT

SMALL = ("DejaVu Sans", 8)
TIMER_BG = "#3b2f63"
#: a fired alert: amber, a colour no state or chip uses
ALERT_BG, ALERT_FG = "#fbbf24", "#1c1917"
#: chips shown, one per row; the rest are counted ("+2 more")
MAX_SHOWN = 2


class TimerChips:
    """The alert line and the countdown chips, kept by timer id."""

    def __init__(self, parent: tk.Misc, dismiss: Callable[[], None] = lambda: None) -> None:
        self.frame = tk.Frame(parent, bg=BACKGROUND)
        self.alert = tk.Label(self.frame, font=("DejaVu Sans", 9, "bold"), bg=ALERT_BG, fg=ALERT_FG, padx=5, pady=2,
                              wraplength=250, justify="left", anchor="w", cursor="hand2")
        self.alert.bind("<Button-1>", lambda _e: dismiss())
        self._alert_text = ""
        self._labels: dict[str, tk.Label] = {}
        self._more = tk.Label(self.frame, bg=BACKGROUND, fg=MUTED_TEXT, font=SMALL, anchor="w")
        self._more_text = ""

    def texts(self) -> list[str]:
        """The chips as drawn, in order (the tests and the screenshot script read them)."""
        return [label.cget("text") for label in self._labels.values()] + ([self._more_text] if self._more_text else [])

    def alert_text(self) -> str:
        """The alert shown ("" for none)."""
        return self._alert_text

    def update(self, timers: tuple[TimerView, ...], alert: str = "") -> None:
        self._show_alert(alert)
        shown = timers[:MAX_SHOWN]
        wanted = [t.timer_id for t in shown]
        if list(self._labels) != wanted:  # the set or the order changed: rebuild the rows (rare)
            for label in self._labels.values():
                label.destroy()
            self._labels = {t.timer_id: tk.Label(self.frame, font=SMALL, bg=TIMER_BG, fg=TEXT, padx=5, pady=1,
                                                 anchor="w") for t in shown}
            for label in self._labels.values():
                label.pack(side="top", anchor="w", pady=1)
            self._more.pack_forget()
            self._more_text = ""
        for view in shown:
            label = self._labels[view.timer_id]
            if label.cget("text") != view.label:
                label.configure(text=view.label)
        more = f"+{len(timers) - MAX_SHOWN} more" if len(timers) > MAX_SHOWN else ""
        if more != self._more_text:
            self._more_text = more
            self._more.configure(text=more)
            if more:
                self._more.pack(side="top", anchor="w")
            else:
                self._more.pack_forget()

    def _show_alert(self, alert: str) -> None:
        if alert == self._alert_text:
            return
        self._alert_text = alert
        self.alert.configure(text=f"⏰ {alert}")
        if alert:
            first = next(iter(self._labels.values()), None)
            self.alert.pack(side="top", fill="x", pady=(2, 1), **({"before": first} if first else {}))
        else:
            self.alert.pack_forget()
