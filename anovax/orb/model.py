"""What the orb shows, derived from the event stream alone: no Tk, no threads, no clock of its own.

The window (view.py) and the console status line (console.py) both draw a ``Snapshot`` (snapshot.py)
of this model, so they cannot disagree. Time-dependent methods take ``now`` (the clock of ``Event.ts``).
The state is recomputed from a few facts, so events out of order (a SPEAK_END from an earlier
command, a lost AGENT_DONE) cannot leave it stuck: refused/error flash > asking > speaking > acting >
thinking > awake > asleep. A held plan's question is folded by ``Asking``, timers by ``Countdowns``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from anovax.events import Event, EventType
from anovax.orb.asking import Asking
from anovax.orb.countdown import TIMER_EVENTS, Countdowns
from anovax.orb.heardline import HeardLine
from anovax.orb.hints import idle_hint
from anovax.orb.snapshot import (ENDED, Chip, ChipState, ChipView, HistoryEntry, OrbState, QuestionView, Snapshot,
                                  clip, short_arg)

__all__ = ["ENDED", "Chip", "ChipState", "ChipView", "HistoryEntry", "OrbModel", "OrbState", "QuestionView",
           "Snapshot", "clip", "short_arg"]


# the phone remote's events, looked up by name so the orb works with an events.py that lacks them
_REMOTE_VIEWERS = getattr(EventType, "REMOTE_VIEWERS", None)
_REMOTE_PAIRED = getattr(EventType, "REMOTE_PAIRED", None)
_REMOTE_BANNED = getattr(EventType, "REMOTE_BANNED", None)


@dataclass
class _Command:
    received: float
    text: str = ""
    refused: str = ""  # the top-level refusal reason, once SAFETY_REFUSED came
    recovery_turn: int = 0  # the recovery loop's turn being thought about; 0: not recovering
    speaking: int = 0  # utterances between SPEAK_START and SPEAK_END


@dataclass
class OrbModel:
    """Folds events into the few facts the orb shows; ``snapshot(now)`` reads them out."""

    #: how long a finished chip stays; failures stay longer so their reason can be hovered
    done_linger_s: float = 1.5
    failed_linger_s: float = 8.0
    #: the last part of a chip's linger, during which it fades to the background
    fade_s: float = 0.6
    #: how long refused/error colour the orb after the command ended
    flash_s: float = 3.0
    history_size: int = 6
    max_chips: int = 8
    #: a chip whose end never arrived (events dropped) is forgotten after this long
    stale_s: float = 300.0
    #: why replies cannot be heard here ("" when they can): the idle hint says so, once, where
    #: the user looks instead of listening
    speech_off: str = ""
    #: the question a held plan waits on (CONFIRM_REQUESTED until CONFIRM_ANSWERED)
    asking: Asking = field(default_factory=Asking)
    #: the pending timers' countdown chips and the alert of one fired (TIMER_* events)
    countdowns: Countdowns = field(default_factory=Countdowns)
    #: the last phrase said to AnovaX and the gate's decision, for a few seconds (VOICE_HEARD)
    heard: HeardLine = field(default_factory=HeardLine)

    #: bumped by every change; a front end redraws when it moved
    version: int = field(default=0, init=False, repr=False)
    _chips: dict[str, Chip] = field(default_factory=dict, init=False, repr=False)
    _commands: dict[str, _Command] = field(default_factory=dict, init=False, repr=False)
    _flash: tuple[OrbState, float, str] | None = field(default=None, init=False, repr=False)  # (state, until, detail)
    _history: deque[HistoryEntry] = field(default_factory=deque, init=False, repr=False)
    _response: str = field(default="", init=False, repr=False)
    _voice: str = field(default="", init=False, repr=False)
    _voice_detail: str = field(default="", init=False, repr=False)
    _voice_seq: int = field(default=0, init=False, repr=False)
    _viewers: int = field(default=0, init=False, repr=False)
    _remote_note: str = field(default="", init=False, repr=False)
    _pairings: int = field(default=0, init=False, repr=False)

    # -- input ------------------------------------------------------------------------------

    def apply_all(self, events: Iterable[Event]) -> int:
        """Fold a batch in (the window drains its whole queue per tick); returns how many."""
        count = 0
        for event in events:
            self.apply(event)
            count += 1
        return count

    def apply(self, event: Event) -> None:
        handler = _HANDLERS.get(event.type) or _REMOTE_HANDLERS.get(event.type)
        if handler is not None:
            handler(self, event)
            self.version += 1

    def set_muted(self, muted: bool) -> None:
        """The orb's own mute button, until the listener confirms it with an event."""
        was = self._voice
        if muted:
            self._voice = "muted"
        elif was == "muted":
            self._voice = "listening"
        self.version += 1

    def tick(self, now: float) -> bool:
        """Forget chips that have faded and flashes that are over; True if anything went."""
        gone = [a for a, c in self._chips.items() if self._chip_gone(c, now)]
        for agent_id in gone:
            del self._chips[agent_id]
        # a command whose COMMAND_DONE was dropped must not keep the orb thinking forever
        stale = [c for c, cmd in self._commands.items() if now - cmd.received > self.stale_s]
        for command_id in stale:
            del self._commands[command_id]
        flash_over = self._flash is not None and now >= self._flash[1]
        if flash_over:
            self._flash = None
        if self.asking.tick(now) | self.countdowns.tick(now) | self.heard.tick(now) | bool(gone or stale or flash_over):
            self.version += 1
            return True
        return False

    # -- output -----------------------------------------------------------------------------

    def state(self, now: float) -> OrbState:
        if self._flash is not None and now < self._flash[1]:
            return self._flash[0]
        if self.asking.question(now) is not None:
            return OrbState.ASKING
        if any(c.refused for c in self._commands.values()):
            return OrbState.REFUSED
        if any(c.speaking > 0 for c in self._commands.values()):
            return OrbState.SPEAKING
        if any(c.state not in ENDED for c in self._chips.values()):
            return OrbState.ACTING
        if self._commands:
            return OrbState.THINKING
        if self._voice in ("awake", "talking"):  # talking: the hold-to-talk key is down
            return OrbState.AWAKE
        return OrbState.ASLEEP

    @property
    def in_flight(self) -> bool:
        """A command has been received and has not ended yet."""
        return bool(self._commands)

    def animating(self, now: float) -> bool:
        """Whether the window must keep redrawing: an idle orb with no chips is a still picture."""
        return self.state(now) is not OrbState.ASLEEP or bool(self._chips) or self.asking.active

    def snapshot(self, now: float) -> Snapshot:
        state = self.state(now)
        chips, hidden = self._visible_chips(now)
        return Snapshot(state=state, detail=self._detail(state, now), chips=chips, hidden_chips=hidden,
                        response=self._response, history=tuple(self._history), voice=self._voice,
                        voice_detail=self._voice_detail, viewers=self._viewers, heard=self.heard.command,
                        version=self.version, remote_note=self._remote_note, pairings=self._pairings,
                        question=self.asking.question(now), answered=self.asking.note(now),
                        timers=self.countdowns.views(now), alert=self.countdowns.alert,
                        heard_line=self.heard.line(now))

    # -- event handlers ---------------------------------------------------------------------

    def _on_received(self, event: Event) -> None:
        self._flash = None  # a new command: the last one's verdict is old news, and so is an alert
        self.countdowns.dismiss()
        text = str((event.data or {}).get("text", ""))
        self._commands[event.command_id] = _Command(received=event.ts, text=text)

    def _on_refused(self, event: Event) -> None:
        command = self._commands.get(event.command_id)
        # a refused sub-plan (data.depth) only fails its MetaAgent; the command may go on
        if command is not None and not (event.data or {}).get("depth"):
            command.refused = event.error or "Refused."

    def _on_recovery(self, event: Event) -> None:
        command = self._commands.get(event.command_id)
        if command is None:
            return
        if event.type is EventType.RECOVERY_STARTED:
            command.recovery_turn = 1
        elif event.type is EventType.RECOVERY_TURN:
            # the model answered this turn; while its actions run the chips show, then it thinks again
            command.recovery_turn = int((event.data or {}).get("turn", command.recovery_turn)) + 1
        else:
            command.recovery_turn = 0

    def _on_done(self, event: Event) -> None:
        data = event.data or {}
        command = self._commands.pop(event.command_id, None) or _Command(event.ts, str(data.get("text", "")))
        self.asking.command_done(event)
        status = str(data.get("status", "done"))
        message = str(data.get("message", ""))
        self._remember(HistoryEntry(event.command_id, str(data.get("text", command.text)), status, message))
        if message:
            self._response = message
        if status == "refused":
            self._flash = (OrbState.REFUSED, event.ts + self.flash_s, message or command.refused)
        elif status == "failed":
            self._flash = (OrbState.ERROR, event.ts + self.flash_s, message)
        # "stopped" flashes nothing: the user asked for it, the reply line says "Stopped."
        # chips whose end was lost with a dropped event end with their command
        # "needs_yes" (denied for want of a yes) is the person's call, as neutral as a stop
        ended = {"done": ChipState.DONE, "planned": ChipState.DONE, "stopped": ChipState.STOPPED,
                 "needs_yes": ChipState.STOPPED, "not_done": ChipState.STOPPED}.get(status, ChipState.FAILED)
        for chip in self._chips.values():
            if status == "stopped" and chip.command_id == event.command_id and chip.state is ChipState.FAILED:
                # failed on the way to the stop (a click on Stop takes the focus from the typing):
                # the person ended this command, nothing is wrong with it
                chip.state, chip.error = ChipState.STOPPED, ""
            if chip.command_id == event.command_id and chip.state not in ENDED:
                chip.state, chip.ended = ended, event.ts
                chip.error = chip.error or ("" if ended in (ChipState.DONE, ChipState.STOPPED)
                                            else "Ended with its command.")

    def _on_timer(self, event: Event) -> None:
        self.countdowns.apply(event)
        while self.countdowns.fired:  # an alert is listed with the commands (speech may be off)
            self._remember(HistoryEntry(event.command_id, "", "alert", self.countdowns.fired.pop(0)))

    def _remember(self, entry: HistoryEntry) -> None:
        self._history = deque([*self._history, entry][-self.history_size:])

    def dismiss_alert(self) -> None:
        """The alert was clicked away."""
        if self.countdowns.dismiss():
            self.version += 1

    def _on_rejected(self, event: Event) -> None:
        message = event.error or "The command queue is full."
        self._remember(HistoryEntry(event.command_id, "", "rejected", message))
        self._response = message
        self._flash = (OrbState.ERROR, event.ts + self.flash_s, message)

    def _on_spawned(self, event: Event) -> None:
        agent_id = event.agent_id or f"{event.command_id}.?{event.seq}"
        tool = event.tool or "agent"
        self._chips[agent_id] = Chip(agent_id=agent_id, command_id=event.command_id, tool=tool,
                                     arg=short_arg(tool, event.params), spawned=event.ts)
        self._forget_stale(event.ts)

    def _on_started(self, event: Event) -> None:
        chip = self._chips.get(event.agent_id or "")
        if chip is not None and chip.state not in ENDED:
            chip.state = ChipState.RUNNING

    def _on_retry(self, event: Event) -> None:
        chip = self._chips.get(event.agent_id or "")
        if chip is not None and chip.state not in ENDED:
            chip.attempts += 1
            chip.error = event.error or chip.error

    def _on_agent_end(self, event: Event) -> None:
        chip = self._chips.get(event.agent_id or "")
        if chip is None or chip.state in ENDED:
            return  # the janitor and the agent race for the end; the first report wins
        chip.state = {EventType.AGENT_DONE: ChipState.DONE, EventType.AGENT_FAILED: ChipState.FAILED,
                      EventType.AGENT_EXPIRED: ChipState.EXPIRED}[event.type]
        if chip.state is ChipState.FAILED and (event.data or {}).get("code") == "stopped":
            chip.state = ChipState.STOPPED
        chip.ended = event.ts
        chip.error = "" if chip.state is ChipState.STOPPED else (event.error or "")

    def _on_speak_start(self, event: Event) -> None:
        command = self._commands.get(event.command_id)
        if command is not None:  # speech outside a known command is not worth a state of its own
            command.speaking += 1
        text = str((event.data or {}).get("text", ""))
        # a reply's first line is what is said: the list shown under it stays ("what can I say")
        head, newline, _list = self._response.partition("\n")
        if text and not (newline and text in head):  # the first line may be said sentence by sentence
            self._response = text

    def _on_speak_end(self, event: Event) -> None:
        command = self._commands.get(event.command_id)
        if command is not None:
            command.speaking = max(0, command.speaking - 1)

    def _on_voice_state(self, event: Event) -> None:
        data = event.data or {}
        state = str(data.get("state", ""))
        if event.seq and event.seq < self._voice_seq:
            return  # replayed at start-up (run.replay_voice_state) after a newer one came live
        self._voice_seq = max(self._voice_seq, event.seq)
        if state == "listening" and self._voice == "muted":
            return  # the listener restarting does not unmute
        self._voice, self._voice_detail = state, str(data.get("detail", ""))

    def _on_viewers(self, event: Event) -> None:
        viewers = str((event.data or {}).get("viewers", 0))
        self._viewers = int(viewers) if viewers.isdigit() else 0

    def _on_paired(self, event: Event) -> None:
        self._pairings += 1
        self._remote_note = f"phone paired: {(event.data or {}).get('ip', '?')}"

    def _on_banned(self, event: Event) -> None:
        data = event.data or {}
        self._remote_note = f"{data.get('ip', '?')} locked out after {data.get('failures', '?')} wrong tries"

    # -- helpers ----------------------------------------------------------------------------

    def _linger(self, chip: Chip) -> float:
        return self.done_linger_s if chip.state is ChipState.DONE else self.failed_linger_s

    def _chip_gone(self, chip: Chip, now: float) -> bool:
        if chip.ended is None:
            return now - chip.spawned > self.stale_s
        return now >= chip.ended + self._linger(chip)

    def _forget_stale(self, now: float) -> None:
        # bounded even if nobody ticks (a flood with the window stalled)
        if len(self._chips) > 4 * self.max_chips:
            for agent_id in [a for a, c in self._chips.items() if c.state in ENDED or self._chip_gone(c, now)]:
                del self._chips[agent_id]
                if len(self._chips) <= 2 * self.max_chips:
                    break

    def _visible_chips(self, now: float) -> tuple[tuple[ChipView, ...], int]:
        views = []
        for chip in self._chips.values():
            if self._chip_gone(chip, now):
                continue
            fade = 1.0
            if chip.ended is not None:
                left = chip.ended + self._linger(chip) - now
                fade = max(0.0, min(1.0, left / self.fade_s)) if self.fade_s > 0 else 1.0
            end = chip.ended if chip.ended is not None else now
            views.append(ChipView(chip.agent_id, chip.tool, chip.arg, chip.state, max(0.0, end - chip.spawned),
                                  fade, chip.error, chip.attempts))
        if len(views) <= self.max_chips:
            return tuple(views), 0
        # running agents matter more than finished ones; keep spawn order among those shown
        live = [v for v in views if v.state not in ENDED]
        ended = [v for v in views if v.state in ENDED]
        keep = set(id(v) for v in live[:self.max_chips])
        room = self.max_chips - len(keep)
        keep.update(id(v) for v in ended[len(ended) - room:] if room > 0)
        shown = tuple(v for v in views if id(v) in keep)
        return shown, max(0, len(live) - self.max_chips)

    def _detail(self, state: OrbState, now: float) -> str:
        if state in (OrbState.REFUSED, OrbState.ERROR):
            if self._flash is not None and now < self._flash[1]:
                return clip(self._flash[2], 90)
            return clip(next((c.refused for c in self._commands.values() if c.refused), ""), 90)
        command = next(iter(self._commands.values()), None)
        if state is OrbState.ASKING:
            return f"waiting for a yes: {clip(command.text, 50)}" if command and command.text else "waiting for a yes"
        if state is OrbState.SPEAKING:
            return "speaking"
        if state is OrbState.ACTING:
            running = sum(1 for c in self._chips.values() if c.state not in ENDED)
            agents = f"{running} agent{'s' if running != 1 else ''}"
            return f"{agents}: {clip(command.text, 60)}" if command and command.text else agents
        if state is OrbState.THINKING:
            if command is not None and command.recovery_turn:
                return f"recovering (turn {command.recovery_turn}): {clip(command.text, 50)}"
            return f"planning: {clip(command.text, 60)}" if command and command.text else "planning"
        if state is OrbState.AWAKE:
            return "listening (key held)…" if self._voice == "talking" else "listening…"
        return idle_hint(self._voice, phone=self._pairings > 0, speech_off=self.speech_off)


_HANDLERS = {
    EventType.COMMAND_RECEIVED: OrbModel._on_received,
    EventType.COMMAND_REJECTED: OrbModel._on_rejected,
    EventType.SAFETY_REFUSED: OrbModel._on_refused,
    EventType.CONFIRM_REQUESTED: lambda model, event: model.asking.requested(event),
    EventType.CONFIRM_ANSWERED: lambda model, event: model.asking.answered(event),
    EventType.RECOVERY_STARTED: OrbModel._on_recovery,
    EventType.RECOVERY_TURN: OrbModel._on_recovery,
    EventType.RECOVERY_DONE: OrbModel._on_recovery,
    EventType.COMMAND_DONE: OrbModel._on_done,
    EventType.AGENT_SPAWNED: OrbModel._on_spawned,
    EventType.AGENT_STARTED: OrbModel._on_started,
    EventType.AGENT_RETRY: OrbModel._on_retry,
    EventType.AGENT_DONE: OrbModel._on_agent_end,
    EventType.AGENT_FAILED: OrbModel._on_agent_end,
    EventType.AGENT_EXPIRED: OrbModel._on_agent_end,
    EventType.SPEAK_START: OrbModel._on_speak_start,
    EventType.SPEAK_END: OrbModel._on_speak_end,
    EventType.VOICE_STATE: OrbModel._on_voice_state,
    EventType.VOICE_HEARD: lambda model, event: model.heard.apply(event),
    **dict.fromkeys(TIMER_EVENTS, OrbModel._on_timer),
}

_REMOTE_HANDLERS = {kind: handler for kind, handler in ((_REMOTE_VIEWERS, OrbModel._on_viewers),
                                                        (_REMOTE_PAIRED, OrbModel._on_paired),
                                                        (_REMOTE_BANNED, OrbModel._on_banned)) if kind is not None}
