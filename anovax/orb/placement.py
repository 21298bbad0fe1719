"""Where the orb window sits, how big it is, and dragging it by its body.

A first-time user found it dead centre above everything, growing with every reply, and
movable only by its title bar. So: the first start puts it near the bottom-right corner; after
that it opens where the person left it (``store.OrbPrefs``), moved back on screen if the screen
shrank; each mode (compact, expanded) has one fixed size, so long replies scroll inside it
(widgets.ReplyBox); and a press on any part of the body that is not a control moves it.
Built and used on the Tk thread only.
"""

from __future__ import annotations

import re
import tkinter as tk
import weakref
from collections.abc import Callable, Iterable

from anovax.orb.store import OrbPrefs, geometry_corner

#: the window's inside size, (width, height) by expanded; fixed so a reply never resizes it
SIZE = {False: (280, 390), True: (360, 540)}
#: the first place: this far from the right edge, and from the bottom (room for a panel or dock)
MARGIN_RIGHT = 24
MARGIN_BOTTOM = 64
#: what the window manager adds around the inside (borders, a title bar): kept on screen too
DECORATION = (4, 32)
#: the bind tag that makes a widget a handle for moving the window
DRAG_TAG = "AnovaXDrag"


def corner_position(screen_w: int, screen_h: int, win_w: int, win_h: int) -> tuple[int, int]:
    """The top-left corner that puts a window of this inside size near the bottom-right corner."""
    x = screen_w - win_w - DECORATION[0] - MARGIN_RIGHT
    y = screen_h - win_h - DECORATION[1] - MARGIN_BOTTOM
    return max(0, x), max(0, y)


def on_screen(x: int, y: int, screen_w: int, screen_h: int, win_w: int, win_h: int) -> tuple[int, int]:
    """(x, y) moved just enough that the whole decorated window is on the screen."""
    outer_w, outer_h = win_w + DECORATION[0], win_h + DECORATION[1]
    return max(0, min(x, screen_w - outer_w)), max(0, min(y, screen_h - outer_h))


def window_corner(root: tk.Tk) -> tuple[int, int]:
    """The decorated window's top-left corner, as ``geometry("+x+y")`` restores it exactly."""
    # winfo_x/y are the inside of the decorations, and would creep by a title bar per run
    return geometry_corner(root.geometry()) or (root.winfo_x(), root.winfo_y())


def open_at(root: tk.Tk, prefs: OrbPrefs, size: tuple[int, int]) -> None:
    """Size and place the window as it opens: where it was left (moved back on screen if the
    screen shrank), else near the bottom-right corner."""
    width, height = size
    screen = root.winfo_screenwidth(), root.winfo_screenheight()
    if prefs.x is not None and prefs.y is not None:
        x, y = on_screen(prefs.x, prefs.y, *screen, width, height)
    else:
        x, y = corner_position(*screen, width, height)
    root.geometry(f"{width}x{height}+{x}+{y}")


def _size_of(root: tk.Tk) -> tuple[int, int]:
    found = re.match(r"(\d+)x(\d+)", root.geometry())
    return (int(found.group(1)), int(found.group(2))) if found else (root.winfo_width(), root.winfo_height())


#: per window: (the corner before it grew, the corner it grew to); a shrink from there goes back
_GREW_FROM: weakref.WeakKeyDictionary[tk.Misc, tuple[tuple[int, int], tuple[int, int]]] = weakref.WeakKeyDictionary()


def grown_corner(x: int, y: int, old: tuple[int, int], new: tuple[int, int],
                 screen: tuple[int, int]) -> tuple[int, int]:
    """Where a window at (x, y) goes when its size changes from ``old`` to ``new``: it grows toward
    the side with room (its right or bottom edge stays put when the other side has none), then
    is kept on screen."""
    (ow, oh), (nw, nh) = old, new
    if x + nw + DECORATION[0] > screen[0]:
        x += ow - nw  # no room on the right: grow to the left
    if y + nh + DECORATION[1] > screen[1]:
        y += oh - nh  # no room below: grow upward
    return on_screen(x, y, *screen, nw, nh)


def resize_on_screen(root: tk.Tk, size: tuple[int, int]) -> None:
    """The new fixed size (a mode, the phone panel): grown toward the free side and kept on
    screen; shrinking again, unmoved meanwhile, puts it back where it was before it grew."""
    width, height = size
    old = _size_of(root)
    corner = window_corner(root)
    screen = root.winfo_screenwidth(), root.winfo_screenheight()
    grew = _GREW_FROM.pop(root, None)
    if width * height < old[0] * old[1] and grew is not None and grew[1] == corner:
        x, y = on_screen(*grew[0], *screen, width, height)
    else:
        x, y = grown_corner(*corner, old, size, screen)
        if width * height > old[0] * old[1]:
            _GREW_FROM[root] = (corner, (x, y))
    root.geometry(f"{width}x{height}+{x}+{y}")


def clamped_corner(root: tk.Tk) -> tuple[int, int]:
    """The window's corner, moved just enough that the whole decorated window is on screen."""
    return on_screen(*window_corner(root), root.winfo_screenwidth(), root.winfo_screenheight(), *_size_of(root))


def keep_on_screen(root: tk.Tk) -> tuple[int, int]:
    """Move the window back on screen if a drag took part of it off (its title bar above the top
    edge could no longer be grabbed); its corner, on screen."""
    corner = window_corner(root)
    x, y = clamped_corner(root)
    if (x, y) != corner:
        root.geometry(f"+{x}+{y}")
    return x, y


class BodyDrag:
    """Moves the window while the first button is held on a widget given to ``add``.

    Buttons, the text box, the reply and the chips are never given: they keep their own
    clicks (the reply's is selecting text to copy)."""

    def __init__(self, root: tk.Tk, *, moved: Callable[[], None] | None = None) -> None:
        self.root = root
        self._moved = moved
        #: (pointer x, pointer y, window x, window y) at the press; None: not dragging
        self._start: tuple[int, int, int, int] | None = None
        #: completed drags that moved the window (the tests read it)
        self.drags = 0
        root.bind_class(DRAG_TAG, "<ButtonPress-1>", self._press)
        root.bind_class(DRAG_TAG, "<B1-Motion>", self._motion)
        root.bind_class(DRAG_TAG, "<ButtonRelease-1>", self._release)

    def add(self, widgets: Iterable[tk.Misc]) -> None:
        for widget in widgets:
            tags = widget.bindtags()
            if DRAG_TAG not in tags:
                widget.bindtags((DRAG_TAG, *tags))

    def _press(self, event: tk.Event) -> None:
        self._start = (event.x_root, event.y_root, *window_corner(self.root))

    def _motion(self, event: tk.Event) -> None:
        if self._start is None:
            return
        px, py, wx, wy = self._start
        x, y = on_screen(wx + event.x_root - px, wy + event.y_root - py, self.root.winfo_screenwidth(),
                         self.root.winfo_screenheight(), *_size_of(self.root))
        self.root.geometry(f"+{x}+{y}")

    def _release(self, event: tk.Event) -> None:
        start, self._start = self._start, None
        if start is not None and (event.x_root, event.y_root) != start[:2]:
            self.drags += 1
            if self._moved is not None:
                self._moved()
