"""What a tool declaration is: ``Param``, ``ToolSpec``, ``ToolRegistry`` and the traits they carry.

The declarations themselves are in ``anovax.tools``. Every trait another module needs lives
on the spec, so nobody keeps a list of tool names of their own:

- the orchestrator reads ``agent``, ``locks``, ``ttl_s``, ``retries``, ``parallel_safe``, ``core``;
- recovery's speculator runs only ``read_only`` tools and serves them for ``fresh_s``;
- safety_check screens each text parameter for its ``Param.sink`` and each step for its
  ``effect`` (does it act on the desktop, open a browser, delegate to a sub-planner);
- the offline planner reads ``carries_content`` (words that are content, not an action).

A spec holds its agent *class*. ``anovax.agents.base`` imports this module only to type its
``spec`` argument, so the class can be imported here without a cycle.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from anovax.agents.base import ChildAgent
from anovax.plan import LIMITS

#: the named locks, in the one order every agent acquires them (deadlock freedom)
LOCK_ORDER: tuple[str, ...] = ("kb_mouse", "tts")


class Sink(enum.StrEnum):
    """Where a text parameter's value ends up: the context safety_check screens it for."""

    #: not described by its tool: screened as executable text, the safe assumption for a plug-in
    UNDECLARED = "undeclared"
    #: typed into the focused window, one keystroke stream with the session's earlier typing
    TYPED = "typed"
    #: pressed as key chords ("ctrl+s"); a single character among them is typed too
    KEYS = "keys"
    #: the everyday name of an application to start, or to bring to the front: the keys go there next
    APP = "app"
    #: the everyday name of an app whose window is closed, minimised or resized (never started):
    #: afterwards the keys go wherever the window manager puts the focus
    WINDOW = "window"
    #: URL-encoded into a fixed search address, never opened as an address itself
    QUERY = "query"
    #: opened as a web address (``anovax.sites`` reads it; the gate asks about one the request
    #: does not hold: ``anovax.safety.address``)
    ADDRESS = "address"
    #: a goal read by a sub-planner, which may plan anything a plan may
    GOAL = "goal"
    #: said aloud, never executed (screened for secrets only)
    SPOKEN = "spoken"
    #: the name of a remembered fact: looked up in memory and said back, never executed
    FACT_KEY = "fact_key"


class Effect(enum.StrEnum):
    """What running a tool can do outside AnovaX."""

    #: reads, waits or talks: nothing it does can carry an instruction to the desktop
    PASSIVE = "passive"
    #: opens a fixed search page in the browser
    BROWSER = "browser"
    #: types, presses keys or starts applications (undeclared plug-ins are assumed to)
    DESKTOP = "desktop"
    #: plans and runs its text as a sub-goal, one level deeper
    SUBPLAN = "subplan"
    #: changes what AnovaX remembers about the user (forgets facts): safety asks unless the
    #: person named what goes
    MEMORY = "memory"


class WindowAct(enum.StrEnum):
    """What a window tool does to the window it names (the safety gate's focus model reads it)."""

    #: brings the app's window to the front and verifies it has the focus: the keys go there
    FOCUS = "focus"
    #: closes it politely: its app may ask "save changes?", and a key pressed next may answer
    CLOSE = "close"
    #: minimises it: the keys leave it if it had them, stay where they were otherwise
    HIDE = "hide"
    #: maximises or restores it: it keeps the keys if it had them, and may take them if not
    SHOW = "show"


@dataclass(frozen=True)
class Param:
    """One parameter of a tool, with the limits safety_check enforces before anything runs."""

    name: str
    #: "string" or "number" (JSON types; a bool is never a number here)
    type: str
    #: shown to the planner
    description: str
    #: strings: maximum length in characters, checked before any content scan
    max_len: int = 0
    #: numbers: inclusive range
    minimum: float = 0.0
    maximum: float = 0.0
    #: strings: where the value ends up, which decides how safety_check screens it
    sink: Sink = Sink.UNDECLARED

    def json_schema(self) -> dict[str, Any]:
        if self.type == "string":
            return {"type": "string", "description": self.description, "maxLength": self.max_len}
        return {
            "type": "number",
            "description": self.description,
            "minimum": self.minimum,
            "maximum": self.maximum,
        }

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not acceptable for this parameter, or None when it is."""
        if self.type == "string":
            if not isinstance(value, str):
                return f"'{self.name}' must be text"
            if len(value) > self.max_len:
                return f"'{self.name}' is longer than {self.max_len} characters"
            if not value.strip():
                return f"'{self.name}' is empty"
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"'{self.name}' must be a number"
        try:
            finite = math.isfinite(value)
        except OverflowError:  # an int too large for a float (10**400) is not a finite float
            finite = False
        if not finite or not self.minimum <= value <= self.maximum:
            return f"'{self.name}' must be between {self.minimum:g} and {self.maximum:g}"
        return None


def text(name: str, description: str, max_len: int, sink: Sink = Sink.UNDECLARED) -> Param:
    return Param(name=name, type="string", description=description, max_len=max_len, sink=sink)


def number(name: str, description: str, minimum: float, maximum: float) -> Param:
    return Param(name=name, type="number", description=description, minimum=minimum, maximum=maximum)


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    """Everything AnovaX knows about one tool."""

    #: exact name the planner must use (matched case-sensitively, never normalised)
    name: str
    #: one line for the planner prompt
    description: str
    #: the ChildAgent subclass that runs this tool
    agent: type[ChildAgent]
    params: tuple[Param, ...] = ()
    #: core steps trigger recovery when they fail; optional ones (info, waits) do not
    core: bool = True
    #: has no effect on the desktop, so it may be run speculatively and cached
    read_only: bool = False
    #: read-only tools: a speculated result is served for this long after it was taken
    fresh_s: float = 1.0
    #: what running it can do; safety's taint and depth rules and the evaluations read it
    effect: Effect = Effect.DESKTOP
    #: its words are the user's content (a query, dictation), not an action, so the offline
    #: planner does not refuse them for destructive words ("search for how to kill a process")
    carries_content: bool = False
    #: may run in the same batch as neighbouring parallel-safe steps
    parallel_safe: bool = False
    #: the janitor expires the agent after this many seconds
    ttl_s: float = 10.0
    #: extra attempts after a transient failure (never for non-idempotent actions)
    retries: int = 0
    #: named locks held while the agent runs, acquired in LOCK_ORDER
    locks: tuple[str, ...] = ()
    #: an example step for the prompt, as "tool {json params}"
    example: str = ""
    #: how the offline planner hears a request for this tool: hassil templates in grammar.yaml's
    #: syntax (its expansion rules and lists work here) whose wildcard {slots} are named after
    #: this tool's text params. The grammar adds one intent per tool named after it, so a tool's
    #: words live here and nowhere else. Empty: only the online planner (or an intent of
    #: grammar.yaml with its own handler) plans it.
    phrases: tuple[str, ...] = ()
    #: what the offline planner says when it plans this tool from a phrase ("{param}" is filled in);
    #: empty: the agent's own words are the whole reply (an answer, like a recalled fact)
    offline_say: str = ""
    #: the heading "what can I say" lists this tool's example phrases under
    ability: str = ""
    #: a window tool's act on the window its APP or WINDOW parameter names (None for a WINDOW
    #: parameter: the gate assumes the worst, a close)
    window_act: WindowAct | None = None
    #: the text parameter whose value may name everything the tool acts on ("all"): the gate
    #: asks first unless the user's own words said so
    sweeping_param: str = ""

    def __post_init__(self) -> None:
        unknown = set(self.locks) - set(LOCK_ORDER)
        if unknown:
            raise ValueError(f"tool {self.name}: unknown locks {sorted(unknown)}")
        ordered = tuple(lock for lock in LOCK_ORDER if lock in self.locks)
        object.__setattr__(self, "locks", ordered)
        if not (isinstance(self.agent, type) and issubclass(self.agent, ChildAgent)):
            raise TypeError(f"tool {self.name}: agent must be a ChildAgent subclass, not {self.agent!r}")
        if self.phrases and not self.ability:
            raise ValueError(f"tool {self.name}: phrases need an ability to be listed under")

    @property
    def param_names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.params)

    def param(self, name: str) -> Param:
        """The declared parameter ``name``; KeyError for any other."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"tool {self.name} has no parameter {name!r}")

    def texts(self, params: Mapping[str, Any]) -> Iterator[tuple[Sink, str]]:
        """Each text value of ``params`` (a step's), in the step's order, with where it ends up.
        A name this tool does not declare is UNDECLARED (screened as executable text)."""
        sinks = {p.name: p.sink for p in self.params}
        for key, value in params.items():
            if isinstance(value, str):
                yield sinks.get(key, Sink.UNDECLARED), value

    def param_problem(self, params: Mapping[str, Any]) -> str | None:
        """Why ``params`` does not match this tool's exact schema, or None."""
        if not isinstance(params, Mapping):
            return "its parameters are not an object"
        names = set(params)
        missing = sorted(self.param_names - names)
        extra = sorted(map(str, names - self.param_names))
        if missing:
            return f"it is missing {', '.join(missing)}"
        if extra:
            return f"it has unexpected parameters {', '.join(extra)}"
        for p in self.params:
            problem = p.problem(params[p.name])
            if problem:
                return problem
        return None

    def prompt_line(self) -> str:
        args = ", ".join(f"{p.name}: {p.type}" for p in self.params)
        flags = []
        if self.read_only:
            flags.append("read-only")
        if self.parallel_safe:
            flags.append("can run in parallel")
        suffix = f" ({'; '.join(flags)})" if flags else ""
        return f"- {self.name}({args}): {self.description}{suffix}"


@dataclass(frozen=True)
class ToolRegistry:
    """An immutable set of tool declarations and everything derived from them."""

    specs: tuple[ToolSpec, ...]
    _by_name: Mapping[str, ToolSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name: dict[str, ToolSpec] = {}
        for spec in self.specs:
            if spec.name in by_name:
                raise ValueError(f"tool {spec.name} declared twice")
            by_name[spec.name] = spec
        object.__setattr__(self, "_by_name", by_name)

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self.specs)

    def __len__(self) -> int:
        return len(self.specs)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._by_name

    def get(self, name: object) -> ToolSpec | None:
        """The declaration for ``name``, matched exactly; None for anything else."""
        if not isinstance(name, str):
            return None
        return self._by_name.get(name)

    def __getitem__(self, name: str) -> ToolSpec:
        return self._by_name[name]

    @property
    def allowlist(self) -> frozenset[str]:
        return frozenset(self._by_name)

    def with_tools(self, *extra: ToolSpec) -> ToolRegistry:
        """A new registry with ``extra`` tools added (for plug-ins and tests)."""
        return ToolRegistry(self.specs + tuple(extra))

    def read_only(self) -> frozenset[str]:
        return frozenset(s.name for s in self.specs if s.read_only)

    def with_effect(self, *effects: Effect) -> frozenset[str]:
        """The names of the tools whose effect is one of ``effects``."""
        return frozenset(s.name for s in self.specs if s.effect in effects)

    def with_phrases(self) -> tuple[ToolSpec, ...]:
        """The tools the offline grammar hears directly (an intent each, named after the tool)."""
        return tuple(s for s in self.specs if s.phrases)

    def prompt_section(self) -> str:
        """The tool list the planner prompt shows the model."""
        return "\n".join(spec.prompt_line() for spec in self.specs)

    def step_schema(self) -> dict[str, Any]:
        """JSON schema of one step: a tagged union over the declared tools."""
        variants = []
        for spec in self.specs:
            variants.append(
                {
                    "type": "object",
                    "properties": {
                        "tool": {"type": "string", "enum": [spec.name]},
                        "params": {
                            "type": "object",
                            "properties": {p.name: p.json_schema() for p in spec.params},
                            "required": [p.name for p in spec.params],
                            "additionalProperties": False,
                        },
                    },
                    "required": ["tool", "params"],
                    "additionalProperties": False,
                }
            )
        return {"anyOf": variants}

    def response_schema(self, max_steps: int = LIMITS.max_steps) -> dict[str, Any]:
        """JSON schema of a whole plan, for the model's JSON mode."""
        return {
            "type": "object",
            "properties": {
                "steps": {"type": "array", "items": self.step_schema(), "maxItems": max_steps},
                "final_response": {"type": "string", "maxLength": 500},
                "remember": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "required": ["steps", "final_response", "remember"],
            "additionalProperties": False,
        }
