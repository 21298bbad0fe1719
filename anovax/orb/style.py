"""Colours and words for each state, shared by the window, the console and the screenshot tests.

The state colours are far apart in hue (or, for asleep, in saturation) so that a test
can tell the state from the orb's dominant colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from anovax.orb.model import ChipState, OrbState

BACKGROUND = "#0f172a"
PANEL = "#1e293b"
TEXT = "#e2e8f0"
MUTED_TEXT = "#94a3b8"
FAILED = "#ef4444"
CHIP_BG = {ChipState.WAITING: "#334155", ChipState.RUNNING: "#0e7490", ChipState.DONE: "#166534",
           ChipState.FAILED: "#991b1b", ChipState.EXPIRED: "#9a3412", ChipState.STOPPED: "#475569"}
HISTORY_MARK = {"done": ("✓", "#22c55e"), "planned": ("✓", "#22c55e"), "refused": ("⊘", "#f59e0b"),
                "failed": ("✗", "#ef4444"), "rejected": ("✗", "#ef4444"), "stopped": ("■", "#94a3b8"),
                "needs_yes": ("?", "#ec4899"), "not_done": ("?", "#94a3b8"), "alert": ("⏰", "#fbbf24")}
#: the question's buttons: colours no chip or state uses, so a test can find them on the screen
YES_BG, NO_BG = "#16a34a", "#b91c1c"


@dataclass(frozen=True)
class StateStyle:
    colour: str
    label: str
    #: frames per second while in this state; 0: a still picture (no timer at all)
    fps: int
    #: the console's one-character mark
    mark: str


STYLES: dict[OrbState, StateStyle] = {
    # idle: "Asleep" read as broken to someone who types (hints.IDLE_LABEL)
    OrbState.ASLEEP: StateStyle("#475569", "Ready", 0, "·"),
    OrbState.AWAKE: StateStyle("#3b82f6", "Listening", 15, "○"),
    OrbState.THINKING: StateStyle("#8b5cf6", "Thinking", 25, "◌"),
    # 10 fps: a slow breath and a countdown that moves once a second
    OrbState.ASKING: StateStyle("#ec4899", "Asking you", 10, "?"),
    OrbState.ACTING: StateStyle("#06b6d4", "Acting", 25, "◉"),
    OrbState.SPEAKING: StateStyle("#22c55e", "Speaking", 25, "♪"),
    OrbState.REFUSED: StateStyle("#f59e0b", "Refused", 20, "⊘"),
    OrbState.ERROR: StateStyle("#ef4444", "Error", 20, "✗"),
}


def rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def hex_colour(r: float, g: float, b: float) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(max(0, min(255, round(v))) for v in (r, g, b)))


def blend(colour: str, toward: str, amount: float) -> str:
    """``colour`` moved ``amount`` (0..1) of the way to ``toward``: how chips fade without alpha."""
    a, b = rgb(colour), rgb(toward)
    amount = max(0.0, min(1.0, amount))
    return hex_colour(*(x + (y - x) * amount for x, y in zip(a, b)))


def nearest_state(pixel: tuple[int, int, int]) -> OrbState:
    """The state whose colour is closest to ``pixel`` (the screenshot tests' classifier)."""
    def distance(state: OrbState) -> int:
        return sum((p - c) ** 2 for p, c in zip(pixel, rgb(STYLES[state].colour)))
    return min(STYLES, key=distance)
