"""The orb's Yes / No: the question a held plan waits on, its target window, a countdown, two
buttons, and Enter (yes) / Esc (no) anywhere in the window while it is shown.

Built and used on the Tk thread only. It draws ``Snapshot.question`` (asking.py folds it from
the events), so an answer from any front end hides it at the next redraw.

Keys: a bind tag of our own goes first on every widget of the window, so while a question is
shown Enter answers yes instead of submitting the text box as a command, and Esc answers no
instead of stopping the command. With no question the tag lets the keys through untouched.

Focus: the launch before the question usually gave the focus to the new window (the terminal
the keys are for), so a person pressing Enter would press it there. The orb takes the focus
(into its text box) when a question appears; keys in the first ``ARM_MS`` are swallowed, not
taken as an answer, because they were meant for the window that had the focus a moment ago.
The focus is never moved when the question goes: after a yes the desktop re-activates the
target window, and the orb must not take the keyboard back while the keys are being typed.
"""

from __future__ import annotations

import re
import time
import tkinter as tk
from collections.abc import Callable
from typing import Any

from anovax.cancel import is_stop_utterance
from anovax.orb.snapshot import OrbState, QuestionView, Snapshot
from anovax.orb.style import BACKGROUND, MUTED_TEXT, NO_BG, PANEL, STYLES, TEXT, YES_BG
from anovax.orb.widgets import FONT, SMALL
from anovax.voice.answers import spoken_answer


def typed_answer(text: str) -> bool | None:
    """What words typed into the orb while a question is shown answer: yes, no (also "stop",
    "cancel"), or None when they answer nothing."""
    if is_stop_utterance(text):
        return False
    words = re.findall(r"[a-z']+", text.casefold())
    if len(words) == 1 and words[0] in _SHORT:
        return _SHORT[words[0]]
    return spoken_answer(words) if words else None


#: what a keyboard answers with that nobody says aloud (the console takes y too)
_SHORT = {"y": True, "yeah": True, "yep": True, "yup": True, "n": False, "nope": False, "nah": False}


#: keys pressed this soon after the orb took the focus were meant for another window
ARM_MS = 500
_TAG = "AnovaXQuestion"
_ASKING = STYLES[OrbState.ASKING].colour


class QuestionPanel:
    """The open question and its Yes / No buttons; ``answer(question_id, yes)`` sends the answer and
    says whether it still counted (False: already answered elsewhere, or expired)."""

    def __init__(self, root: tk.Tk, answer: Callable[[str, bool], bool] | None, *, say: Callable[[str], None],
                 after: tk.Widget, focus: Callable[[], tk.Widget], clock: Callable[[], float] = time.monotonic,
                 ) -> None:
        self.root = root
        self._answer = answer
        #: shows a line in the window's response line
        self._say = say
        self._after_widget = after
        #: where the keyboard goes while a question is shown (the text box)
        self._focus = focus
        self._clock = clock
        #: the question on screen (None: hidden)
        self.shown: QuestionView | None = None
        self._armed_at = 0.0
        #: what the text box held when the question appeared (typed later: an answer in words)
        self._box_before = ""
        #: the answer this window sent for the question on screen (None: none yet)
        self.sent: bool | None = None
        self._texts: dict[str, str] = {}

        self.frame = tk.Frame(root, bg=PANEL, highlightthickness=2, highlightbackground=_ASKING,
                              highlightcolor=_ASKING)
        self.question_label = tk.Label(self.frame, font=("DejaVu Sans", 10, "bold"), bg=PANEL, fg=TEXT,
                                       justify="left", anchor="w")
        self.question_label.pack(fill="x", padx=8, pady=(6, 0))
        self.target_label = tk.Label(self.frame, font=SMALL, bg=PANEL, fg=MUTED_TEXT, justify="left", anchor="w")
        self.target_label.pack(fill="x", padx=8)
        row = tk.Frame(self.frame, bg=PANEL)
        row.pack(fill="x", padx=8, pady=(6, 2))
        self.yes_button = tk.Button(row, text="Yes", command=lambda: self.choose(True), font=FONT, bg=YES_BG,
                                    fg=TEXT, activebackground="#15803d", activeforeground=TEXT, relief="flat", bd=0,
                                    padx=14, pady=3, highlightthickness=0, disabledforeground="#475569")
        self.no_button = tk.Button(row, text="No", command=lambda: self.choose(False), font=FONT, bg=NO_BG,
                                   fg=TEXT, activebackground="#991b1b", activeforeground=TEXT, relief="flat", bd=0,
                                   padx=14, pady=3, highlightthickness=0, disabledforeground="#475569")
        self.yes_button.pack(side="left")
        self.no_button.pack(side="left", padx=(6, 0))
        # a line of its own: beside the buttons the key hint ran under No in a narrow window
        self.countdown_label = tk.Label(self.frame, font=SMALL, bg=PANEL, fg=MUTED_TEXT, anchor="w", justify="left")
        self.countdown_label.pack(fill="x", padx=8, pady=(0, 6))
        #: how the last question ended, for a few seconds (shown where the question was)
        self.note_label = tk.Label(root, font=SMALL, bg=BACKGROUND, fg=_ASKING, anchor="w", justify="left")
        if answer is None:
            for button in (self.yes_button, self.no_button):
                button.configure(state="disabled")

    # -- keys ---------------------------------------------------------------------------

    def bind_keys(self) -> None:
        """Put our tag first on every widget of the window (call once the window is built)."""
        for name, yes in (("<Return>", True), ("<KP_Enter>", True), ("<Escape>", False)):
            self.root.bind_class(_TAG, name, lambda _e, y=yes: self._key(y))
        pending: list[tk.Misc] = [self.root]
        while pending:
            widget = pending.pop()
            tags = widget.bindtags()
            if _TAG not in tags:
                widget.bindtags((_TAG, *tags))
            pending.extend(widget.winfo_children())

    def _key(self, yes: bool) -> str | None:
        if self.shown is None:
            return None  # no question: Enter submits, Esc stops, as always
        if not self.armed:
            return "break"
        box = self._focus()
        now = box.get() if isinstance(box, tk.Entry) else ""
        before = self._box_before
        if now != before:
            # words typed while the question was shown are the answer, never a yes by Enter: "no"
            # or "stop" + Enter must not run what the question holds; the box gets back what it had
            typed = now[len(before):] if now.startswith(before) else now
            box.delete(0, "end")
            box.insert(0, before)
            answer = typed_answer(typed) if yes else False
            if answer is None:
                self._say("Please answer the question: Yes or No (Enter means yes, Esc means no).")
                return "break"
            yes = answer
        self.choose(yes)
        return "break"

    @property
    def armed(self) -> bool:
        """Enter and Esc answer (the keys that were on their way when the orb took the focus are past)."""
        return self.shown is not None and self._clock() >= self._armed_at

    # -- drawing ------------------------------------------------------------------------

    def update(self, snap: Snapshot, wrap: int) -> None:
        question = snap.question
        if question is None:
            if self.shown is not None:
                self._hide()
        else:
            if self.shown is None or self.shown.question_id != question.question_id:
                self._show(question)
            self.shown = question
            self._text(self.question_label, question.text, wraplength=wrap - 16)
            self._text(self.target_label, f"in: {question.target}" if question.target else "", wraplength=wrap - 16)
            keys = "Enter = yes · Esc = no" if self._answer is not None else "answer elsewhere"
            self._text(self.countdown_label, f"{question.seconds_left} s · {keys}", wraplength=wrap - 16)
        note = "" if question is not None else snap.answered
        if note != self._texts.get("note"):
            self._texts["note"] = note
            self.note_label.configure(text=note, wraplength=wrap)
            if note:
                self.note_label.pack(fill="x", padx=8, pady=(2, 0), after=self._after_widget)
            else:
                self.note_label.pack_forget()

    def _show(self, question: QuestionView) -> None:
        self.sent = None
        if self._answer is not None:
            for button in (self.yes_button, self.no_button):
                button.configure(state="normal")
        self.note_label.pack_forget()
        self._texts.pop("note", None)
        self.frame.pack(fill="x", padx=8, pady=(4, 0), after=self._after_widget)
        self._armed_at = self._clock() + ARM_MS / 1000
        box = self._focus()
        self._box_before = box.get() if isinstance(box, tk.Entry) else ""
        # the orb is where the answer is given: in front, with the keyboard
        try:
            self.root.deiconify()
            self.root.lift()
            self._focus().focus_force()
        except tk.TclError:
            pass

    def _hide(self) -> None:
        self.shown = None
        self.frame.pack_forget()

    def choose(self, yes: bool) -> None:
        """The Yes or No button (or Enter / Esc): answer the question on screen once."""
        question = self.shown
        if question is None or self._answer is None or self.sent is not None:
            return
        self.sent = yes
        for button in (self.yes_button, self.no_button):
            button.configure(state="disabled")  # until the next question: one answer per question
        if not self._answer(question.question_id, yes):
            self._say("That question was already answered.")

    def _text(self, widget: tk.Label, text: str, **extra: Any) -> None:
        key = str(id(widget))
        value = text + repr(sorted(extra.items()))
        if self._texts.get(key) != value:
            self._texts[key] = value
            widget.configure(text=text, **extra)
