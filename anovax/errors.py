"""The error tree: every failure says whose fault it was and whether retrying can help.

    AnovaXError
    ├── ConfigError          bad settings file or environment value (the user's to fix)
    ├── PlanError            the planner's output is not a valid plan (model misbehaviour)
    ├── SafetyRefusal        a plan was refused by safety_check (carries the Verdict)
    ├── PlannerUnavailable   the online planner could not answer (network, quota, 5xx)
    └── ToolError            a tool failed while acting on the desktop
        ├── TransientToolError   may succeed on retry (window not up yet, busy device)
        └── PermanentToolError   retrying cannot help (app not installed, bad argument)

Retry logic reads ``is_transient``; it never string-matches messages.
"""

from __future__ import annotations


class AnovaXError(Exception):
    """Base class for every error AnovaX raises on purpose."""

    #: short machine-readable code, stable across releases
    code: str = "error"
    #: True when the same action may succeed if tried again
    is_transient: bool = False

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ConfigError(AnovaXError):
    """A setting (environment variable or TOML file) has an invalid value."""

    code = "config"


class PlanError(AnovaXError):
    """The planner produced something that is not a valid plan."""

    code = "bad_plan"


class SafetyRefusal(AnovaXError):
    """safety_check refused a plan; ``verdict`` says which rule and why."""

    code = "refused"

    def __init__(self, verdict) -> None:  # Verdict, untyped to keep this module dependency-free
        super().__init__(verdict.reason, code=verdict.rule)
        self.verdict = verdict


class PlannerUnavailable(AnovaXError):
    """The online planner could not produce a plan (network, quota, server error)."""

    code = "planner_unavailable"
    is_transient = True


class ToolError(AnovaXError):
    """A tool failed while acting on the desktop."""

    code = "tool_failed"


class TransientToolError(ToolError):
    """A failure that may go away on retry (a window not up yet, a busy device)."""

    is_transient = True


class PermanentToolError(ToolError):
    """A failure that retrying cannot fix (an app that is not installed)."""
