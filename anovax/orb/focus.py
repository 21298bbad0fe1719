"""Where the keyboard goes around a command typed into the orb (issue 16, "typing goes where
the user was"). Built and used on the Tk thread only.

The person is in a window (an editor), clicks the orb, types "type hello", presses Enter. At
that moment the orb has the focus, so:

- Activating the orb puts the cursor in its text box: a click anywhere on it, or the window
  manager giving it the focus, lands the next keys in the box, not on a button that Tab left
  the focus on. While a question is shown this is where the question wants the keyboard too
  (question.py: Enter / Esc answer from any widget of the window).
- The command's keys are the desktop's business: before the first key it re-activates the
  window the person was in (``anovax.desktop.base.aim``). The orb never takes the focus back
  afterwards; nothing here calls ``focus_force`` or lifts the window.
- A command that acted on no window ("what time is it", a refusal, a failed search) leaves the
  focus in the orb, where it is of no use: it goes back to where the person was
  (``OrbControls.return_focus``, i.e. ``anovax.desktop.base.return_to_user``). Only when nothing
  else wants the keyboard: no other command in flight or queued from the orb, the orb still has
  the focus (the person did not go elsewhere meanwhile) and its text box is empty (they are not
  typing the next command).
"""

from __future__ import annotations

import logging
import time
import tkinter as tk
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from anovax.events import Event, EventType
from anovax.tools import TOOLS
from anovax.toolspec import Sink

__all__ = ["WINDOW_TOOLS", "FocusKeeper", "acted_on_window"]

log = logging.getLogger(__name__)

#: the tools whose work lands in a window (an app opened or switched to, a window closed or resized,
#: keys typed): the focus stays where they left it. Derived from the declarations' sinks.
WINDOW_TOOLS = frozenset(spec.name for spec in TOOLS if any(
    p.sink in (Sink.APP, Sink.WINDOW, Sink.TYPED, Sink.KEYS) for p in spec.params))
#: what ``FocusKeeper.decisions`` says about a command
GIVEN_BACK = "the focus went back to your window"
ACTED = "the focus stays in the window the command acted on"
CANNOT = "this desktop cannot give the focus back"
BUSY = "another command is running or waiting"
ELSEWHERE = "you went to another window meanwhile"
TYPING = "you are typing the next command"
#: an orb command whose end was never heard of (events dropped) stops counting as queued after
#: this long, as the model forgets it (OrbModel.stale_s)
FORGET_AFTER_S = 300.0


def acted_on_window(data: Mapping[str, Any] | None) -> bool:
    """Whether COMMAND_DONE's data (``CommandResult.to_dict()``) has a step of a window tool
    (``WINDOW_TOOLS``) that ran to its end. A step that failed or never ran does not count:
    then the focus goes back to the person's window, which is also where any keys went."""
    outcome = (data or {}).get("outcome")
    steps = outcome.get("steps") if isinstance(outcome, Mapping) else None
    if not isinstance(steps, (list, tuple)):
        return False
    return any(isinstance(s, Mapping) and s.get("tool") in WINDOW_TOOLS and s.get("status") == "done"
               for s in steps)


class FocusKeeper:
    """The orb's side of "typing goes where the user was"; see the module docstring."""

    def __init__(self, root: tk.Tk, entry: tk.Entry, *, give_back: Callable[[], Any] | None,
                 run: Callable[[Callable[[], Any], Callable[[Any, BaseException | None], None]], None],
                 busy: Callable[[], bool], clock: Callable[[], float] = time.monotonic) -> None:
        self.root = root
        self.entry = entry
        #: hands the focus back to the person's window (None: this desktop cannot)
        self._give_back = give_back
        #: runs a blocking job off the Tk thread (the control worker): the desktop waits for the WM
        self._run = run
        #: some command (from any front end) has been received and has not ended
        self._busy = busy
        self._clock = clock
        #: the orb's commands that have not ended yet: command id -> when it was sent
        self._mine: dict[str, float] = {}
        #: the commands of ``_mine`` a window tool finished in (a recovery turn's steps count too)
        self._acted: set[str] = set()
        #: what was decided for the orb's last few commands: (command id, why), newest last
        self.decisions: deque[tuple[str, str]] = deque(maxlen=20)
        #: times the desktop took the focus back (the tests read it)
        self.given_back = 0
        root.bind("<FocusIn>", self._activated, add="+")
        root.bind("<ButtonPress>", lambda _e: self._to_entry(), add="+")

    # -- activation ---------------------------------------------------------------------------

    def _activated(self, event: tk.Event) -> None:
        # the toplevel hears FocusIn only when the focus comes from outside the window (X sends
        # none to the common ancestor of a move inside it, e.g. Tab), so Tab still moves on
        if event.widget is self.root:
            self._to_entry()

    def _to_entry(self) -> None:
        if str(self.entry.cget("state")) != "disabled":
            self.entry.focus_set()

    # -- commands -----------------------------------------------------------------------------

    def track(self, submit: Callable[[str], Any] | None) -> Callable[[str], Any] | None:
        """``submit`` that remembers which commands came from the orb (by the future's
        ``command_id``, as the phone does); None stays None (the text box is then disabled)."""
        if submit is None:
            return None

        def submit_from_orb(text: str) -> Any:
            result = submit(text)
            command_id = getattr(result, "command_id", None)
            done = getattr(result, "done", None)
            # a future already resolved is a control message ("stop") or a rejection: no
            # COMMAND_DONE follows it, so it is not waited for
            if isinstance(command_id, str) and callable(done) and not done():
                now = self._clock()
                for stale in [c for c, at in self._mine.items() if now - at > FORGET_AFTER_S]:
                    self._forget(stale)
                self._mine[command_id] = now
            return result
        return submit_from_orb

    def seen(self, batch: Iterable[Event]) -> None:
        """Follow a batch of events the window has just folded into its model."""
        idle: list[str] = []
        for event in batch:
            command_id = event.command_id
            if command_id not in self._mine:
                continue
            if event.type is EventType.AGENT_DONE and event.tool in WINDOW_TOOLS:
                self._acted.add(command_id)
            elif event.type in (EventType.COMMAND_DONE, EventType.COMMAND_REJECTED):
                if command_id in self._acted or acted_on_window(event.data):
                    self.decisions.append((command_id, ACTED))
                else:
                    idle.append(command_id)
                self._forget(command_id)
        if idle:  # decided once per batch, after all of it: a command received in it is running
            why = self._why_not()
            self.decisions.extend((command_id, why or GIVEN_BACK) for command_id in idle)
            if not why:
                self._hand_back()

    def _forget(self, command_id: str) -> None:
        self._mine.pop(command_id, None)
        self._acted.discard(command_id)

    def _why_not(self) -> str:
        """Why the focus stays where it is ("" when it goes back)."""
        if self._give_back is None:
            return CANNOT
        if self._mine or self._busy():
            return BUSY  # that command will use (or aim) the keyboard itself
        try:
            if self.root.focus_get() is None:
                return ELSEWHERE  # leave them there
        except KeyError:  # the focus is in a widget Tk has no Python object for: still ours
            pass
        return TYPING if self.entry.get() else ""

    def _hand_back(self) -> None:
        give_back = self._give_back
        assert give_back is not None

        def done(_result: Any, error: BaseException | None) -> None:
            if error is None:
                self.given_back += 1
            else:
                log.warning("could not give the focus back to your window: %s", error)
        self._run(give_back, done)
