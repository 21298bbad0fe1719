"""What the wake gate decides about one phrase: the type every part of the voice path hands on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Action = Literal["drop", "wake", "command", "sleep", "barge_in", "answer", "doubt"]


@dataclass(frozen=True)
class GateDecision:
    """What the gate did with one phrase (or with the passing of time, for a timeout sleep)."""

    action: Action
    #: for "command": the words to hand to on_speech (original casing kept); for "doubt" the
    #: words to ask about; else ""
    text: str
    #: why, in a few words, for the console, the log and the orb
    reason: str
    #: the phrase as recognised
    heard: str = ""
    #: for "answer": the question it answers (``text``: "yes"/"no"); "command": the one it replaces
    question_id: str = ""
    #: a drop that was an attempt at answering the waiting question ("yes no", "hey anova, do
    #: it"): shown, unlike the room's talk, so the person sees why nothing happened
    about_question: bool = False

    def to_dict(self) -> dict[str, str]:
        out = {"action": self.action, "text": self.text, "reason": self.reason, "heard": self.heard}
        if self.question_id:
            out["question_id"] = self.question_id
        return out
