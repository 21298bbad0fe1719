"""The tool registry: every tool is declared exactly once, here.

The safety allowlist, the parameter validation, the planner prompt's tool
section, the JSON response schema and the orchestrator's dispatch map are all
derived from these declarations. Adding a tool is one ``ToolSpec`` below plus
the ``ChildAgent`` class it names.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: the named locks, in the one order every agent acquires them (deadlock freedom)
LOCK_ORDER: tuple[str, ...] = ("kb_mouse", "tts")


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


def text(name: str, description: str, max_len: int) -> Param:
    return Param(name=name, type="string", description=description, max_len=max_len)


def number(name: str, description: str, minimum: float, maximum: float) -> Param:
    return Param(name=name, type="number", description=description, minimum=minimum, maximum=maximum)


@dataclass(frozen=True)
class ToolSpec:
    """Everything AnovaX knows about one tool."""

    #: exact name the planner must use (matched case-sensitively, never normalised)
    name: str
    #: one line for the planner prompt
    description: str
    params: tuple[Param, ...] = ()
    #: core steps trigger recovery when they fail; optional ones (info, waits) do not
    core: bool = True
    #: has no effect on the desktop, so it may be run speculatively and cached
    read_only: bool = False
    #: may run in the same batch as neighbouring parallel-safe steps
    parallel_safe: bool = False
    #: the janitor expires the agent after this many seconds
    ttl_s: float = 10.0
    #: extra attempts after a transient failure (never for non-idempotent actions)
    retries: int = 0
    #: named locks held while the agent runs, acquired in LOCK_ORDER
    locks: tuple[str, ...] = ()
    #: name of the ChildAgent subclass that runs this tool
    agent: str = ""
    #: an example step for the prompt, as "tool {json params}"
    example: str = ""

    def __post_init__(self) -> None:
        unknown = set(self.locks) - set(LOCK_ORDER)
        if unknown:
            raise ValueError(f"tool {self.name}: unknown locks {sorted(unknown)}")
        ordered = tuple(lock for lock in LOCK_ORDER if lock in self.locks)
        object.__setattr__(self, "locks", ordered)
        if not self.agent:
            raise ValueError(f"tool {self.name}: no agent class named")

    @property
    def param_names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.params)

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

    def __iter__(self):
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

    def response_schema(self, max_steps: int = 8) -> dict[str, Any]:
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


def _declare(specs: Iterable[ToolSpec]) -> ToolRegistry:
    return ToolRegistry(tuple(specs))


# The tools. TTLs leave room for a slow app start (open_app) and long dictation
# (type_text at ~500 chars/s); typing is never retried because it is not idempotent.
TOOLS: ToolRegistry = _declare(
    [
        ToolSpec(
            name="open_app",
            description="Open a desktop application by its everyday name (notepad, calculator, browser...).",
            params=(text("name", "the application's name, no path or arguments", 64),),
            ttl_s=15.0,
            retries=1,
            locks=("kb_mouse",),
            agent="AppAgent",
            example='open_app {"name": "notepad"}',
        ),
        ToolSpec(
            name="type_text",
            description="Type text into the window that has focus (the app opened last).",
            params=(text("text", "the exact text to type", 2000),),
            ttl_s=30.0,
            locks=("kb_mouse",),
            agent="TypingAgent",
            example='type_text {"text": "milk, eggs, bread"}',
        ),
        ToolSpec(
            name="press_keys",
            description="Press a key or a hotkey such as enter, ctrl+s or alt+tab.",
            params=(text("keys", "keys joined with +, e.g. ctrl+s", 64),),
            ttl_s=5.0,
            locks=("kb_mouse",),
            agent="TypingAgent",
            example='press_keys {"keys": "ctrl+s"}',
        ),
        ToolSpec(
            name="web_search",
            description="Search the web in the default browser.",
            params=(text("query", "what to search for", 300),),
            parallel_safe=True,
            ttl_s=10.0,
            retries=1,
            agent="BrowserAgent",
            example='web_search {"query": "weather in Berlin"}',
        ),
        ToolSpec(
            name="youtube_search",
            description="Search YouTube for a video or music in the default browser.",
            params=(text("query", "what to look for on YouTube", 300),),
            parallel_safe=True,
            ttl_s=10.0,
            retries=1,
            agent="MediaAgent",
            example='youtube_search {"query": "lofi hip hop"}',
        ),
        ToolSpec(
            name="screenshot",
            description="Save a screenshot of the whole screen.",
            core=False,
            read_only=True,
            parallel_safe=True,
            ttl_s=5.0,
            retries=1,
            agent="InfoAgent",
            example="screenshot {}",
        ),
        ToolSpec(
            name="get_time",
            description="Tell the current local time.",
            core=False,
            read_only=True,
            parallel_safe=True,
            ttl_s=2.0,
            agent="InfoAgent",
            example="get_time {}",
        ),
        ToolSpec(
            name="get_date",
            description="Tell today's date.",
            core=False,
            read_only=True,
            parallel_safe=True,
            ttl_s=2.0,
            agent="InfoAgent",
            example="get_date {}",
        ),
        ToolSpec(
            name="wait",
            description="Pause before the next step.",
            params=(number("seconds", "how long to wait, 0 to 5 seconds", 0.0, 5.0),),
            core=False,
            ttl_s=7.0,
            agent="TimingAgent",
            example='wait {"seconds": 1}',
        ),
        ToolSpec(
            name="speak",
            description="Say something to the user out loud.",
            params=(text("text", "what to say", 500),),
            ttl_s=30.0,
            locks=("tts",),
            agent="DialogAgent",
            example='speak {"text": "Here you go."}',
        ),
        ToolSpec(
            name="plan_subtask",
            description="Plan and run a sub-goal as its own small plan (at most two levels deep).",
            params=(text("goal", "the sub-goal in plain words", 300),),
            ttl_s=60.0,
            agent="MetaAgent",
            example='plan_subtask {"goal": "find a vegan lasagna recipe"}',
        ),
    ]
)
