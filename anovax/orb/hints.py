"""What the idle orb tells a person to do, from the inputs that really exist here.

A first-time user with no microphone was told to say "hey anova" and saw the orb "Asleep";
the hint now names only what works: the text box always, the microphone once a listener has
said it is listening (or muted), the phone once one has paired. Pure: no Tk, no events.
"""

from __future__ import annotations

from anovax.orb.snapshot import OrbState

#: voice states in which a microphone exists and the wake phrase works
MIC_STATES = frozenset({"listening", "asleep", "awake"})
#: the big label of the idle orb: never "Asleep", which reads as broken to someone who types
IDLE_LABEL = "Ready"


def has_microphone(voice: str) -> bool:
    """A listener has reported a working microphone (muted counts: it can be unmuted)."""
    return voice in MIC_STATES or voice in ("muted", "talking")


def idle_hint(voice: str, *, phone: bool = False, speech_off: str = "") -> str:
    """The idle orb's hint line: "Type a command", "Say 'hey anova' or type", …"""
    if voice == "muted":
        hint = "Microphone muted — type a command"
    elif voice in MIC_STATES:
        hint = "Say 'hey anova', type, or use your phone" if phone else "Say 'hey anova' or type"
    else:
        hint = "Type a command or use your phone" if phone else "Type a command"
    return f"{hint} (speech is off: replies are shown here)" if speech_off else hint


def state_name(state: OrbState) -> str:
    """The state as the console's status line names it (the idle orb is "ready")."""
    return IDLE_LABEL.lower() if state is OrbState.ASLEEP else state.value
