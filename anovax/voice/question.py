"""The wake gate's rules while a question waits for a yes or no (CONFIRM_REQUESTED until
CONFIRM_ANSWERED or the end of its window), awake or asleep alike:

- a clear yes or no (answers.py: "yes", "no thanks", optionally with the name) is an "answer",
  no wake word needed, if it was said after the question was put;
- a phrase with a yes/no word that is not one of those ("yes no") is dropped: never taken either way;
- anything else follows the gate's wake rules. A command begun after the question that names all
  it acts on (``Trust.stands_alone``) replaces it, the pipeline declining it first
  (``question_id``); a stop stops the command that asked; any other command or doubt ("undo that",
  "do it") is about the question, and is dropped.

Pure functions of the phrase and the question, called by the gate with its lock held.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from anovax.cancel import is_stop_utterance
from anovax.voice.answers import sounds_like_an_answer, spoken_answer
from anovax.voice.decision import GateDecision
from anovax.voice.trust import Trust
from anovax.voice.wakewords import _without_name


@dataclass(frozen=True)
class Question:
    """The question the assistant waits on, on the gate's clock."""

    question_id: str
    #: when the gate heard of it: a phrase that began earlier was not said in answer to it
    opened: float
    #: the end of its window (the broker's timeout): later, a "yes" is just a word again
    deadline: float

    def open_at(self, now: float) -> bool:
        return now < self.deadline


def answer(seq: list[str], heard: str, start: float, question: Question) -> GateDecision | None:
    """An "answer", or a drop of something that sounds like one but is not clear; None: neither."""
    core = _without_name(seq)
    yes = spoken_answer(core)
    if yes is None:
        # "no, stop" is a stop (the command that asked ends), not an unclear answer
        if sounds_like_an_answer(core) and not is_stop_utterance(heard):
            return GateDecision("drop", "", "not a clear yes or no", heard, about_question=True)
        return None
    if start < question.opened:  # begun before the question existed: not said in answer to it
        return GateDecision("drop", "", "said before the question was put", heard, about_question=True)
    return GateDecision("answer", "yes" if yes else "no", "answer to the question", heard, question.question_id)


def instead_of_an_answer(decision: GateDecision, start: float, question: Question, trust: Trust) -> GateDecision:
    """What the wake rules' ``decision`` becomes while ``question`` waits: a command that stands
    alone replaces the question (``question_id`` set), one that is about it is dropped."""
    stop = decision.action == "command" and is_stop_utterance(decision.text)
    if decision.action not in ("command", "doubt") or stop:
        return decision
    if decision.action == "doubt" or start < question.opened or not trust.stands_alone(decision.text):
        return GateDecision("drop", "", "waiting for a yes or no", decision.heard, about_question=True)
    return replace(decision, reason="a new command instead of an answer", question_id=question.question_id)
