"""Rendering of the planner prompts in ``prompts/``: their tool sections come from the registry.

The prompt files hold the wording; the list of tools and the JSON schema are
filled in from ``anovax.tools`` so a new tool appears in the prompt the moment
it is declared.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from anovax.tools import TOOLS, ToolRegistry

#: prompts/ beside the package in a checkout
PROMPTS_DIR = Path(__file__).resolve().parents[1] / "prompts"


@lru_cache(maxsize=8)
def load_template(name: str) -> str:
    return (PROMPTS_DIR / name).read_text(encoding="utf-8")


def render_plan_prompt(memory_context: str = "", registry: ToolRegistry = TOOLS) -> str:
    """The planning system prompt with tools, schema and memory filled in."""
    template = load_template("plan_system.md")
    return (
        template.replace("{{tools}}", registry.prompt_section())
        .replace("{{schema}}", json.dumps(registry.response_schema(), separators=(",", ":")))
        .replace("{{memory}}", memory_context.strip() or "(nothing yet)")
    )
