"""What the orb's buttons call. Each control is optional: None greys the button out and its
tooltip says why (``why_off``), so the orb runs before the microphone or the phone remote exist.

The window calls these off the Tk thread (one "orb-controls" worker), so a control may block
for a while (starting a server) without freezing the window.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from anovax.desktop.base import return_to_user

if TYPE_CHECKING:
    from anovax.port import AssistantPort

#: "the assistant's own" for ``for_assistant``'s desktop, whose None already means "none"
DEFAULT: Any = object()


@dataclass(frozen=True)
class RemoteInfo:
    """Where the phone connects: shown as text and as a QR code of ``pairing_url``."""

    address: str
    pairing_url: str


class RemoteServerLike(Protocol):
    """The phone remote as the orb uses it (anovax.remote.runtime.RemoteServer)."""

    @property
    def address(self) -> str: ...
    @property
    def pairing_url(self) -> str: ...
    @property
    def running(self) -> bool: ...

    def start(self) -> Any: ...
    def stop(self) -> Any: ...


@dataclass(frozen=True)
class OrbControls:
    """The callables behind the orb's controls; None: that control is disabled."""

    #: queue a command; must return at once (Assistant.submit does)
    submit: Callable[[str], Any] | None = None
    #: cancel the running command and cut off speech
    stop: Callable[[], Any] | None = None
    #: mute (True) or unmute the microphone; returns the state it is now in
    set_muted: Callable[[bool], bool] | None = None
    #: hold-to-talk: the Mute button held down (True) and let go (False); VoiceInput.hold_to_talk
    hold_to_talk: Callable[[bool], Any] | None = None
    #: start (True) or stop the phone remote; returns where to connect once started
    remote_toggle: Callable[[bool], RemoteInfo | None] | None = None
    #: let phones that were locked out for wrong pairing codes try again
    remote_unban: Callable[[], Any] | None = None
    #: where the remote is when it is on (also when started elsewhere, e.g. ANOVAX_REMOTE=1), else None;
    #: the pairing link is one-time, so the window asks again after a phone has paired
    remote_status: Callable[[], RemoteInfo | None] | None = None
    #: control name → why it is off, e.g. {"set_muted": "no microphone"}
    why_off: Mapping[str, str] = field(default_factory=dict)
    #: why replies are not heard on this machine ("" when they are), for the idle hint
    speech_off: str = ""
    #: answer the open question (Yes / No, Enter / Esc): (question_id, yes) -> whether it still counted.
    #: Called on the Tk thread: it only takes the broker's lock, so it cannot freeze the window
    answer: Callable[[str, bool], bool] | None = None
    #: say that the orb can ask now (``Confirmations.register("orb")``); returns the unregister
    #: the window calls when it closes
    can_ask: Callable[[], Callable[[], None]] | None = None
    #: give the keyboard back to the window the person was in before the orb (the last active
    #: window that is not AnovaX's): after an orb command that acted on no window. Blocking
    #: (the desktop waits for the window manager); called on the control worker
    return_focus: Callable[[], Any] | None = None

    def reason(self, name: str) -> str:
        return self.why_off.get(name) or _DEFAULT_WHY.get(name, "not available")

    @classmethod
    def for_assistant(cls, assistant: AssistantPort, *, voice: Any = None, remote: RemoteServerLike | None = None,
                      why_off: Mapping[str, str] | None = None, desktop: Any = DEFAULT) -> OrbControls:
        """Controls wired to an Assistant, a voice listener with ``set_muted`` and a remote server.

        ``desktop`` is where ``return_focus`` hands the focus back (``return_to_user``); by
        default the assistant's own (None on a dry run: the focus then stays in the orb).

        ``stop`` (the Stop button and Esc) is the assistant's stop for the orb: it cancels the
        running command at whatever stage, drops what the orb still has queued and cuts off
        speech."""
        why = dict(why_off or {})

        def stop() -> None:
            assistant.stop("orb")

        mute = getattr(voice, "set_muted", None)
        talk = getattr(voice, "hold_to_talk", None)
        if voice is None:
            why.setdefault("set_muted", "voice input is off (no microphone, or ANOVAX_VOICE=off)")
        elif not callable(mute):
            why.setdefault("set_muted", "this voice listener cannot be muted")
        if remote is None:
            why.setdefault("remote_toggle", "the phone remote is not available")
        unban = getattr(remote, "unban", None) if remote is not None else None
        confirmations = assistant.confirmations
        if desktop is DEFAULT:
            desktop = getattr(assistant, "desktop", None)  # Assistant has one; AssistantPort does not say
        return cls(submit=lambda text: assistant.submit(text, source="orb"), stop=stop,
                   set_muted=mute if callable(mute) else None, hold_to_talk=talk if callable(talk) else None,
                   remote_toggle=_remote_toggle(remote) if remote is not None else None,
                   remote_unban=unban if callable(unban) else None,
                   remote_status=_remote_status(remote) if remote is not None else None, why_off=why,
                   speech_off=str(assistant.state().get("speech_off") or ""),
                   answer=lambda question_id, yes: confirmations.answer(question_id, yes, "orb"),
                   can_ask=lambda: confirmations.register("orb"),
                   return_focus=(lambda: return_to_user(desktop)) if desktop is not None else None)


def _remote_status(remote: RemoteServerLike) -> Callable[[], RemoteInfo | None]:
    def status() -> RemoteInfo | None:
        if not getattr(remote, "running", True):
            return None
        # read afresh each time: the pairing link is one-time and expires
        return RemoteInfo(address=str(remote.address), pairing_url=str(remote.pairing_url))
    return status


def _remote_toggle(remote: RemoteServerLike) -> Callable[[bool], RemoteInfo | None]:
    def toggle(on: bool) -> RemoteInfo | None:
        if not on:
            remote.stop()
            return None
        remote.start()
        return RemoteInfo(address=str(remote.address), pairing_url=str(remote.pairing_url))
    return toggle


_DEFAULT_WHY = {
    "submit": "typed commands are off",
    "stop": "nothing can be stopped here",
    "set_muted": "no microphone",
    "remote_toggle": "the phone remote is not available",
    "remote_unban": "the phone remote is not available",
    "answer": "questions are answered elsewhere",
}
