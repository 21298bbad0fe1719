"""The answer safety_check gives: allow, confirm (hold for a person's yes) or refuse, with a
rule code and one spoken sentence.

The orchestrator decides what to do with a verdict; the check never acts. A confirm verdict
has ``ok`` False, so code that does not know about questions (a sub-plan, a recovery turn)
treats it as the refusal it becomes when nobody answers. ``rule`` is a
stable machine code (logs, tests, metrics); ``reason`` is one plain sentence the assistant
can say out loud, so it never echoes the offending payload back (a spoken ``rm -rf`` or a
secret read aloud would be a second leak); ``detail`` carries the technical specifics for logs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Rule(str, Enum):
    """Stable codes for every reason a plan can be refused (plus ``OK``)."""

    OK = "ok"
    BAD_PLAN = "bad_plan"
    BAD_CONTEXT = "bad_context"
    UNKNOWN_TOOL = "unknown_tool"
    BAD_PARAMS = "bad_params"
    TOO_MANY_STEPS = "too_many_steps"
    TOO_LONG = "too_long"
    DEPTH = "depth"
    AGENT_BUDGET = "agent_budget"
    FORBIDDEN_CHAR = "forbidden_char"
    CONFUSABLE = "confusable"
    DENYLIST = "denylist"
    ENCODED = "encoded"
    SHELL_TYPING = "shell_typing"
    LAUNCHER_HOTKEY = "launcher_hotkey"
    ELEVATION = "elevation"
    GUI_DESTRUCTIVE = "gui_destructive"
    APP_NAME = "app_name"
    URL_SCHEME = "url_scheme"
    UNC_PATH = "unc_path"
    EXFILTRATION = "exfiltration"
    SECRET = "secret"
    MEMORY_INJECTION = "memory_injection"
    #: forgetting remembered facts the person did not name (asked), or from a recovery turn (refused)
    FORGET = "forget"
    PROMPT_INJECTION = "prompt_injection"
    #: keys aimed at AnovaX's own window (the orb)
    OWN_WINDOW = "own_window"
    #: text in a script or language no word list covers: nothing could screen it
    UNREADABLE = "unreadable"
    #: an act only the user's own words justify (closing an app, cancelling every timer) they did not ask for
    UNASKED = "unasked"
    #: a remembered fact sent out (searched, typed) when the request neither said it nor named it
    PERSONAL_DATA = "personal_data"
    INTERNAL_ERROR = "internal_error"
    #: not safety_check's own: the planner itself declined the request
    PLANNER_DECLINED = "planner_declined"


#: the sentence spoken for each rule unless a rule module supplies a more specific one
DEFAULT_REASONS: dict[Rule, str] = {
    Rule.OK: "The plan passed every safety rule.",
    Rule.BAD_PLAN: "I couldn't understand the plan, so I won't run it.",
    Rule.BAD_CONTEXT: "I lost track of the session state, so I won't run this plan.",
    Rule.UNKNOWN_TOOL: "The plan uses a tool I don't have, so I won't run it.",
    Rule.BAD_PARAMS: "The plan gives a tool the wrong kind of settings, so I won't run it.",
    Rule.TOO_MANY_STEPS: "The plan has more steps than I allow for one command.",
    Rule.TOO_LONG: "Part of the request is too long for me to check safely.",
    Rule.DEPTH: "The plan nests sub-tasks deeper than I allow.",
    Rule.AGENT_BUDGET: "This command would start more helpers than I allow.",
    Rule.FORBIDDEN_CHAR: "The plan contains hidden or control characters, so I won't run it.",
    Rule.CONFUSABLE: "The plan disguises a name with look-alike letters, so I won't run it.",
    Rule.DENYLIST: "I won't run system commands like that one.",
    Rule.ENCODED: "I won't act on encoded instructions.",
    Rule.SHELL_TYPING: "I won't type commands into a terminal.",
    Rule.LAUNCHER_HOTKEY: "I won't use shortcuts that open a command prompt or a run box.",
    Rule.ELEVATION: "I won't press shortcuts that approve administrator prompts.",
    Rule.GUI_DESTRUCTIVE: "I won't use shortcuts that permanently delete things or shut the computer down.",
    Rule.APP_NAME: "I can only open an application by its plain name, without paths or arguments.",
    Rule.URL_SCHEME: "I won't open that kind of link from a search or typed text.",
    Rule.UNC_PATH: "I won't open files from a network share.",
    Rule.EXFILTRATION: "I won't send your data to a web address.",
    Rule.SECRET: "I won't type, search for or store passwords, keys or other secrets.",
    Rule.MEMORY_INJECTION: "That memory looks like an instruction rather than a fact, so I won't use it.",
    Rule.FORGET: "I only forget what you ask me to forget.",
    Rule.PROMPT_INJECTION: "The text I was given asks me to do something risky, so I won't follow it.",
    Rule.OWN_WINDOW: "I won't type into my own window.",
    Rule.UNREADABLE: "I can't read the language of part of this plan, so I won't act on it without you.",
    Rule.UNASKED: "I won't close apps or cancel things you didn't ask me to.",
    Rule.PERSONAL_DATA: "I won't send what I remember about you where you didn't ask me to.",
    Rule.INTERNAL_ERROR: "Something went wrong while checking the plan, so I won't run it.",
    Rule.PLANNER_DECLINED: "I won't do that.",
}


class Decision(str, Enum):
    """The three answers; only ALLOW runs without a person."""

    ALLOW = "allow"
    CONFIRM = "confirm"
    REFUSE = "refuse"


@dataclass(frozen=True)
class Verdict:
    """The outcome of safety_check."""

    #: True when every rule passed and the plan may run
    ok: bool
    #: one plain sentence that can be spoken to the user
    reason: str
    #: stable machine code (a ``Rule`` value)
    rule: str
    #: index of the offending step, or None when the problem is not one step's
    step: int | None = None
    #: technical detail for logs only; never spoken
    detail: str = ""
    #: confirm only: the one question put to the person ("Type `ls` and press Enter in Terminal?")
    question: str = ""
    #: confirm only: the app the held steps act on, as the question names it ("Terminal")
    target: str = ""
    #: confirm only: what a yes allows, for the sentence said when it is denied ("type into Terminal")
    action: str = ""

    @property
    def decision(self) -> Decision:
        if self.ok:
            return Decision.ALLOW
        return Decision.CONFIRM if self.question else Decision.REFUSE

    @property
    def needs_yes(self) -> bool:
        return self.decision is Decision.CONFIRM

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"ok": self.ok, "decision": self.decision.value, "rule": self.rule,
                                  "reason": self.reason, "step": self.step}
        if self.question:
            out.update(question=self.question, target=self.target)
        return out

    @classmethod
    def allow(cls) -> Verdict:
        return _ALLOW

    @classmethod
    def refuse(
        cls,
        rule: Rule | str,
        reason: str | None = None,
        *,
        step: int | None = None,
        detail: str = "",
    ) -> Verdict:
        """A refusal; ``reason`` defaults to the rule's standard sentence.

        Callers outside the safety package may use their own codes (the app refuses with
        ``planner_declined``); those must bring their own sentence.
        """
        code = rule.value if isinstance(rule, Rule) else str(rule)
        if not code or code == Rule.OK.value:
            raise ValueError("a refusal needs a rule other than ok")
        if not reason:
            try:
                reason = DEFAULT_REASONS[Rule(code)]
            except ValueError:
                raise ValueError(f"rule {code!r} has no standard reason; pass one") from None
        return cls(ok=False, reason=reason, rule=code, step=step, detail=detail)


    @classmethod
    def confirm(cls, rule: Rule, question: str, *, step: int, target: str, action: str,
                detail: str = "") -> Verdict:
        """Hold the plan from ``step`` on until a person says yes; denied when nobody does."""
        if not question:
            raise ValueError("a confirm verdict needs a question")
        return cls(ok=False, reason=f"This needs your yes first: {question}", rule=rule.value, step=step,
                   detail=detail, question=question, target=target, action=action)


_ALLOW = Verdict(ok=True, reason=DEFAULT_REASONS[Rule.OK], rule=Rule.OK.value)
