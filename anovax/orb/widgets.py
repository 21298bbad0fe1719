"""Small Tk pieces of the orb window: hover tooltips, the agent chips, the command history."""

from __future__ import annotations

import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable

from anovax.orb.model import ChipView, HistoryEntry, clip
from anovax.orb.style import BACKGROUND, CHIP_BG, FAILED, HISTORY_MARK, MUTED_TEXT, TEXT, blend

FONT = ("DejaVu Sans", 9)
SMALL = ("DejaVu Sans", 8)
_TIP_DELAY_MS = 350


class Tooltip:
    """Shows ``text()`` next to the pointer while it rests on ``widget``; "" shows nothing."""

    def __init__(self, widget: tk.Widget, text: Callable[[], str]) -> None:
        self.widget = widget
        self.text = text
        self._tip: tk.Toplevel | None = None
        self._pending: str | None = None
        widget.bind("<Enter>", self._enter, add="+")
        widget.bind("<Leave>", self._hide, add="+")
        widget.bind("<ButtonPress>", self._hide, add="+")
        widget.bind("<Destroy>", self._hide, add="+")

    @property
    def showing(self) -> str:
        """The text on screen now, or "" (the tests hover and read it back)."""
        if self._tip is None:
            return ""
        return str(self._tip.winfo_children()[0].cget("text"))

    def _enter(self, _event: object = None) -> None:
        self._cancel()
        self._pending = self.widget.after(_TIP_DELAY_MS, self._show)

    def _show(self) -> None:
        self._pending = None
        text = self.text()
        if not text or self._tip is not None:
            return
        tip = tk.Toplevel(self.widget)
        tip.wm_overrideredirect(True)
        tip.attributes("-topmost", True)
        tk.Label(tip, text=text, bg="#fef3c7", fg="#1c1917", font=SMALL, justify="left", wraplength=320,
                 padx=6, pady=3, relief="solid", bd=1).pack()
        x = self.widget.winfo_rootx() + 8
        y = self.widget.winfo_rooty() + self.widget.winfo_height() + 4
        tip.wm_geometry(f"+{x}+{y}")
        self._tip = tip

    def _cancel(self) -> None:
        if self._pending is not None:
            try:
                self.widget.after_cancel(self._pending)
            except tk.TclError:
                pass
            self._pending = None

    def _hide(self, _event: object = None) -> None:
        self._cancel()
        if self._tip is not None:
            try:
                self._tip.destroy()
            except tk.TclError:
                pass
            self._tip = None


class ChipList:
    """One label per visible agent, kept by agent id so a chip is updated, not rebuilt, per frame.

    ``rows``: the area is that many chips high whether or not they are there, so chips coming
    and going never resize the window (the model shows at most ``rows - 1`` and "+N more")."""

    def __init__(self, parent: tk.Misc, rows: int | None = None) -> None:
        self.frame = tk.Frame(parent, bg=BACKGROUND)
        # a chip is a label (1 px padding above and below) packed with 1 px around it
        self._row_px = tkfont.Font(root=parent, font=FONT).metrics("linespace") + 4 + 2
        self._rows = 0
        self._height = -1
        self._labels: dict[str, tuple[tk.Label, Tooltip]] = {}
        self._views: dict[str, ChipView] = {}
        self._shown: dict[str, tuple[str, str, str]] = {}
        self._more = tk.Label(self.frame, bg=BACKGROUND, fg=MUTED_TEXT, font=SMALL, anchor="w")
        self._more_text = ""
        if rows is not None:
            self.set_rows(rows)

    def set_rows(self, rows: int) -> None:
        """Make the area ``rows`` chips high while chips are shown; with none it takes no room,
        so the reply below uses the space (the window's size stays fixed either way)."""
        self._rows = rows
        self.frame.pack_propagate(False)
        self._fit()

    def _fit(self) -> None:
        height = self._rows * self._row_px if self._labels or self._more_text else 1
        if height != self._height:
            self._height = height
            self.frame.configure(height=height)

    def texts(self) -> list[str]:
        """The chip labels as drawn, in order (for the tests and the screenshot script)."""
        return [label.cget("text") for label, _tip in self._labels.values()]

    def tooltip(self, agent_id: str) -> Tooltip | None:
        entry = self._labels.get(agent_id)
        return entry[1] if entry else None

    def update(self, chips: tuple[ChipView, ...], hidden: int) -> None:
        wanted = {c.agent_id for c in chips}
        for agent_id in [a for a in self._labels if a not in wanted]:
            label, _tip = self._labels.pop(agent_id)
            label.destroy()
            self._views.pop(agent_id, None)
            self._shown.pop(agent_id, None)
        created = False
        for chip in chips:
            self._views[chip.agent_id] = chip
            if chip.agent_id not in self._labels:
                created = True
                label = tk.Label(self.frame, font=FONT, anchor="w", padx=6, pady=1)
                label.pack(fill="x", pady=1)
                agent_id = chip.agent_id
                self._labels[agent_id] = (label, Tooltip(label, lambda a=agent_id: self._hover_text(a)))
            label = self._labels[chip.agent_id][0]
            bg = blend(CHIP_BG[chip.state], BACKGROUND, 1 - chip.fade)
            fg = blend(TEXT if not chip.failed else "#fee2e2", BACKGROUND, 1 - chip.fade)
            shown = (chip.label, bg, fg)
            if self._shown.get(chip.agent_id) != shown:
                self._shown[chip.agent_id] = shown
                label.configure(text=chip.label, bg=bg, fg=fg)
        more = f"+{hidden} more running" if hidden else ""
        if more != self._more_text or (more and created):
            self._more_text = more
            self._more.pack_forget()  # re-packed so that it stays below chips created since
            if more:
                self._more.configure(text=more)
                self._more.pack(fill="x")
        self._fit()

    def _hover_text(self, agent_id: str) -> str:
        chip = self._views.get(agent_id)
        if chip is None:
            return ""
        if chip.failed:
            return f"{chip.tool} {chip.state.value}: {chip.error or 'no reason given'}"
        note = f" (retrying: {chip.error})" if chip.attempts > 1 and chip.error else ""
        return f"{chip.tool} {chip.arg}".strip() + note


class HistoryList:
    """The last few commands and how they ended, newest first."""

    def __init__(self, parent: tk.Misc, rows: int = 5) -> None:
        self.frame = tk.Frame(parent, bg=BACKGROUND)
        self._rows: list[tuple[tk.Frame, tk.Label, tk.Label]] = []
        for _ in range(rows):
            row = tk.Frame(self.frame, bg=BACKGROUND)
            mark = tk.Label(row, font=FONT, bg=BACKGROUND, width=2)
            text = tk.Label(row, font=SMALL, bg=BACKGROUND, fg=MUTED_TEXT, anchor="w", justify="left")
            mark.pack(side="left")
            text.pack(side="left", fill="x", expand=True)
            self._rows.append((row, mark, text))  # packed once it has something to say
        self._shown: tuple[HistoryEntry, ...] | None = None

    def texts(self) -> list[str]:
        return [text.cget("text") for _row, _mark, text in self._rows if text.cget("text")]

    def labels(self) -> list[tk.Widget]:
        """Every widget of the list (the window drags by them)."""
        return [w for row in self._rows for w in row]

    def update(self, history: tuple[HistoryEntry, ...]) -> None:
        if history == self._shown:
            return
        self._shown = history
        newest = list(reversed(history))[:len(self._rows)]
        for i, (row, mark, text) in enumerate(self._rows):
            if i < len(newest):
                entry = newest[i]
                symbol, colour = HISTORY_MARK.get(entry.status, ("•", FAILED))
                what = clip(entry.text, 34) or "(not queued)"
                mark.configure(text=symbol, fg=colour)
                # a timer's alert is its own message (it answers no command)
                shown = clip(entry.message, 90) if entry.status == "alert" else f"{what} — {clip(entry.message, 60)}"
                text.configure(text=shown)
                row.pack(fill="x")
            else:
                text.configure(text="")
                row.pack_forget()


class ReplyBox:
    """The last reply, wrapped inside a fixed area: a long one scrolls (wheel or the slim bar that
    appears only then) instead of growing the window. Read-only; its text can be selected."""

    def __init__(self, parent: tk.Misc) -> None:
        self.frame = tk.Frame(parent, bg=BACKGROUND)
        self.text = tk.Text(self.frame, height=2, wrap="word", font=FONT, bg=BACKGROUND, fg=TEXT, relief="flat",
                            bd=0, highlightthickness=0, padx=0, pady=0, cursor="arrow", takefocus=0,
                            insertwidth=0, selectbackground="#334155", inactiveselectbackground="#334155")
        self.bar = tk.Scrollbar(self.frame, orient="vertical", width=8, bd=0, highlightthickness=0,
                                elementborderwidth=0, relief="flat", troughcolor=BACKGROUND, bg="#334155",
                                activebackground="#475569", command=self.text.yview)
        self.text.configure(yscrollcommand=self._scrolled, state="disabled")
        self.text.pack(side="left", fill="both", expand=True)
        self.value = ""

    def set(self, text: str) -> None:
        if text == self.value:
            return
        self.value = text
        self.text.configure(state="normal")
        self.text.delete("1.0", "end")
        self.text.insert("1.0", text)
        self.text.configure(state="disabled")
        self.text.yview_moveto(0.0)

    @property
    def scrollable(self) -> bool:
        """The reply is longer than the area (the bar is shown)."""
        return bool(self.bar.winfo_manager())

    def _scrolled(self, first: str, last: str) -> None:
        self.bar.set(first, last)
        # shown only when needed: narrower text only wraps more, so this cannot flip back and forth
        need = float(first) > 0.0 or float(last) < 1.0
        packed = bool(self.bar.winfo_manager())
        if need and not packed:
            self.bar.pack(side="right", fill="y", before=self.text)
        elif not need and packed:
            self.bar.pack_forget()
