"""The agents that read and forget remembered facts: recall, recall_all, forget, forget_all.

Their own words are the reply ("Your favourite colour is green."), so each ``say`` is a whole
sentence. Every fact passed the gate when it was stored, but the file can be edited by hand or
written by an older version: a fact is read out only when it is still clean and its sentence
passes the spoken-reply screening (``anovax.safety.memory.unsayable``).
"""

from __future__ import annotations

from anovax import factnames
from anovax.agents.base import AgentResult, ChildAgent, Facts
from anovax.errors import PermanentToolError

#: recall_all reads at most this many facts aloud, and each value at most this long
LISTED_FACTS = 5
LISTED_VALUE_CHARS = 80


def unsayable(key: str, value: str, sentence: str) -> str | None:
    # imported here: the safety package imports the tool registry, which imports these agents
    from anovax.safety.memory import unsayable as why_not

    return why_not(key, value, sentence)


def _store(agent: ChildAgent) -> Facts:
    if agent.ctx.facts is None:
        raise PermanentToolError("My memory is not available here.")
    return agent.ctx.facts


def _sentence(key: str, value: str) -> str:
    """"favourite_colour", "green" -> "your favourite colour is green"; a note is said back to
    its teller: "note_parked_level_3", "parked on level 3" -> "you parked on level 3"."""
    if factnames.is_note(key):
        return f"you {factnames.second_person(value.strip().rstrip('.!'))}"
    return f"your {factnames.spoken(key)} {factnames.verb(key)} {value.strip().rstrip('.!')}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _not_known(name: str) -> str:
    said = factnames.spoken(name)
    return f"I don't know your {said} yet. Say 'remember my {said} is …' and I will."


class RecallAgent(ChildAgent):
    """recall, recall_all: read remembered facts aloud (read-only, so they may be speculated)."""

    def do_work(self) -> AgentResult:
        facts = _store(self).snapshot()
        if self.step.tool == "recall_all":
            return self._all(facts)
        name = str(self.step.params["key"])
        found = factnames.lookup(facts, name)
        if found is None and factnames.is_note(name):
            # "where did I park" planned without the names of the stored notes: find it by its words
            # (a note first; "what size shoe does Lily wear, did I tell you?" may be a named fact)
            note = factnames.fact_for(facts, factnames.spoken(name[len(factnames.NOTE_PREFIX):]))
            found = (note, facts[note]) if note is not None else None
            if found is None:
                return AgentResult(value="not known", say="You haven't told me about that yet. Say 'remember that I "
                                   "…' and I will.", data={"key": name, "known": False})
        if found is None:
            return AgentResult(value="not known", say=_not_known(name), data={"key": name, "known": False})
        key, value = found
        sentence = _capital(_sentence(key, value)) + "."
        problem = unsayable(key, value, sentence)
        if problem:
            return AgentResult(value="withheld", say=f"I have something stored as your {factnames.spoken(key)}, but "
                               f"I won't read it out. {problem}", data={"key": key, "known": True})
        return AgentResult(value=value, say=sentence, data={"key": key, "known": True})

    def _all(self, facts: dict[str, str]) -> AgentResult:
        said: list[str] = []
        withheld = 0
        for key, value in facts.items():
            short = value if len(value) <= LISTED_VALUE_CHARS else value[:LISTED_VALUE_CHARS].rsplit(" ", 1)[0] + "…"
            sentence = _sentence(key, short)
            if unsayable(key, value, sentence):
                withheld += 1
            else:
                said.append(sentence)
        data = {"count": len(facts), "said": min(len(said), LISTED_FACTS)}
        if not facts:
            return AgentResult(value="nothing", data=data, say="I don't remember anything about you yet. "
                               "Say 'remember my favourite colour is green' and I will.")
        parts: list[str] = []
        if said:
            shown = said[:LISTED_FACTS]
            listed = " and ".join(shown) if len(shown) < 3 else ", ".join(shown[:-1]) + ", and " + shown[-1]
            more = len(said) - len(shown)
            parts.append(f"I remember that {listed}." + (f" And {more} more." if more else ""))
        if withheld:
            parts.append(f"{withheld} more I won't read out, because {'it looks' if withheld == 1 else 'they look'} "
                         "like secrets or instructions.")
        return AgentResult(value=f"{len(facts)} fact{'s' if len(facts) != 1 else ''}", say=" ".join(parts), data=data)


class ForgetAgent(ChildAgent):
    """forget, forget_all: drop remembered facts (the file is rewritten atomically)."""

    def do_work(self) -> AgentResult:
        store = _store(self)
        try:
            if self.step.tool == "forget_all":
                count = store.forget_all()
                if not count:
                    return AgentResult(value="nothing", say="There was nothing to forget.", data={"forgot": 0})
                things = "one thing" if count == 1 else f"all {count} things"
                return AgentResult(value=f"forgot {count}", say=f"Done: I've forgotten {things} I knew about you.",
                                   data={"forgot": count})
            name = str(self.step.params["key"])
            key = factnames.find(store.snapshot(), name)
            if key is None or not store.forget(key):
                return AgentResult(value="not known", say=f"I didn't know your {factnames.spoken(name)} anyway.",
                                   data={"forgot": 0})
        except OSError as exc:  # nothing was lost: the old file stays whole (atomic write)
            raise PermanentToolError(f"I couldn't change my memory file ({exc.strerror or exc}).") from exc
        return AgentResult(value=f"forgot {key}", say=f"Okay, I've forgotten your {factnames.spoken(key)}.",
                           data={"forgot": 1, "key": key})
