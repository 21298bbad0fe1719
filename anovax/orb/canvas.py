"""The orb itself: a few canvas items moved and recoloured in place each frame.

Items are created once and only their coordinates and colours change (deleting and
recreating items every frame is what makes Tk animations expensive). An item a state
does not use is hidden, not deleted. The core disc is always a solid fill of the
state's colour, so the state can be read off a screenshot.
"""

from __future__ import annotations

import math
import tkinter as tk

from anovax.orb.model import OrbState
from anovax.orb.style import BACKGROUND, STYLES, blend

#: how long ripples take to grow from the core to the edge while speaking
_RIPPLE_S = 1.2


class OrbCanvas:
    def __init__(self, parent: tk.Misc, size: int) -> None:
        self.size = size
        self.widget = tk.Canvas(parent, width=size, height=size, bg=BACKGROUND, highlightthickness=0, bd=0)
        c = self.widget
        self._halo = c.create_oval(0, 0, 0, 0, outline="", fill=BACKGROUND)
        self._ripples = [c.create_oval(0, 0, 0, 0, outline=BACKGROUND, width=3, state="hidden") for _ in range(2)]
        self._arcs = [c.create_arc(0, 0, 0, 0, style="arc", outline=BACKGROUND, width=4, start=0, extent=100,
                                   state="hidden") for _ in range(2)]
        self._core = c.create_oval(0, 0, 0, 0, outline="", fill=BACKGROUND)
        self._shine = c.create_oval(0, 0, 0, 0, outline="", fill=BACKGROUND)
        self._watch = c.create_text(size - 6, 8, anchor="ne", text="", fill="#fca5a5", font=("DejaVu Sans", 8, "bold"))
        self._last: dict[int, tuple] = {}
        self._state: OrbState | None = None
        self._entered = 0.0

    def resize(self, size: int) -> None:
        self.size = size
        self.widget.configure(width=size, height=size)
        self.widget.coords(self._watch, size - 6, 8)
        self._last.clear()

    def centre(self) -> tuple[int, int, int]:
        """Centre and core radius in canvas pixels (the tests sample the core)."""
        return self.size // 2, self.size // 2, int(self.size * 0.26)

    def set_watchers(self, viewers: int) -> None:
        text = f"● phone ×{viewers}" if viewers > 1 else ("● phone" if viewers == 1 else "")
        self._config(self._watch, text=text)

    def draw(self, state: OrbState, t: float) -> None:
        """One frame of ``state`` at time ``t`` (seconds, any monotonic origin)."""
        if state is not self._state:
            self._state, self._entered = state, t
        since = t - self._entered
        colour = STYLES[state].colour
        cx = cy = self.size / 2
        base = self.size * 0.26
        pulse = 0.0
        if state is OrbState.AWAKE:
            pulse = math.sin(2 * math.pi * 0.5 * t)
        elif state is OrbState.ACTING:
            pulse = 0.4 * math.sin(2 * math.pi * 1.5 * t)
        elif state is OrbState.SPEAKING:
            pulse = abs(math.sin(2 * math.pi * 2.0 * t))
        elif state is OrbState.ASKING:  # a slow breath: waiting, not working
            pulse = 0.8 * math.sin(2 * math.pi * 0.8 * t)
        elif state in (OrbState.REFUSED, OrbState.ERROR):
            pulse = 0.5 * math.sin(2 * math.pi * (2.5 if state is OrbState.ERROR else 1.2) * t)
            # a short shake on entering, like a head shaking "no"
            cx += 5 * math.sin(2 * math.pi * 7 * since) * max(0.0, 1 - since / 0.6)
        r = base + 3 * pulse
        halo = base * 1.32 + 5 * pulse
        self._oval(self._halo, cx, cy, halo, fill=blend(colour, BACKGROUND, 0.72 if state is not OrbState.ASLEEP
                                                        else 0.85))
        self._oval(self._core, cx, cy, r, fill=colour)
        shine_r = r * 0.22
        self._oval(self._shine, cx - r * 0.38, cy - r * 0.38, shine_r, fill=blend(colour, "#ffffff", 0.35))

        spin = state in (OrbState.THINKING, OrbState.ACTING)
        for i, arc in enumerate(self._arcs):
            if spin and (i == 0 or state is OrbState.ACTING):
                speed = 200 if state is OrbState.THINKING else 280
                start = (t * speed * (1 if i == 0 else -1.4) + i * 180) % 360
                ring = base * (1.48 if i == 0 else 1.66)
                self._config(arc, state="normal", outline=blend(colour, "#ffffff", 0.25))
                self._coords(arc, cx - ring, cy - ring, cx + ring, cy + ring)
                self._config(arc, start=round(start), extent=110 if i == 0 else 70)
            else:
                self._config(arc, state="hidden")

        for i, ripple in enumerate(self._ripples):
            if state is OrbState.SPEAKING:
                phase = ((t / _RIPPLE_S) + i / len(self._ripples)) % 1.0
                ring = base + (self.size / 2 - 2 - base) * phase
                self._config(ripple, state="normal", outline=blend(colour, BACKGROUND, phase))
                self._coords(ripple, cx - ring, cy - ring, cx + ring, cy + ring)
            else:
                self._config(ripple, state="hidden")

    # -- change only what changed: itemconfigure with equal values still costs a redraw --

    def _oval(self, item: int, cx: float, cy: float, r: float, *, fill: str) -> None:
        self._coords(item, cx - r, cy - r, cx + r, cy + r)
        self._config(item, fill=fill)

    def _coords(self, item: int, *xy: float) -> None:
        rounded = tuple(round(v) for v in xy)
        if self._last.get(item) != rounded:
            self._last[item] = rounded
            self.widget.coords(item, *rounded)

    def _config(self, item: int, **options: object) -> None:
        key = -item - 1  # coordinates and options share the cache without colliding
        previous = dict(self._last.get(key, ()))
        changed = {k: v for k, v in options.items() if previous.get(k) != v}
        if changed:
            previous.update(changed)
            self._last[key] = tuple(previous.items())
            self.widget.itemconfigure(item, **changed)
