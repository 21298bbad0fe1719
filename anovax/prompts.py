"""Rendering of the planner prompts: their tool sections come from the registry.

The prompt files are package data in ``anovax/prompt_templates/`` (the repository's
top-level ``prompts/`` is a symlink to that folder, so there is one copy of each) and are
read with ``importlib.resources``: they work from a checkout, an installed wheel or a zip.

The prompt files hold the wording; the list of tools and the JSON schema are
filled in from ``anovax.tools`` so a new tool appears in the prompt the moment
it is declared, the step limit from ``anovax.plan.LIMITS``, and the dictation words from
``anovax.planner.dictation`` (the table the offline planner applies).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from anovax.plan import LIMITS
from anovax.planner.dictation import prompt_section as dictation_section
from anovax.tools import TOOLS, ToolRegistry

#: the folder inside the ``anovax`` package that holds the prompt files (package data)
PROMPTS_PACKAGE_DIR = "prompt_templates"


@lru_cache(maxsize=8)
def load_template(name: str) -> str:
    """The text of the prompt file ``name`` (e.g. ``plan_system.md``), shipped inside the package."""
    return resources.files("anovax").joinpath(PROMPTS_PACKAGE_DIR).joinpath(name).read_text(encoding="utf-8")


def render_plan_prompt(memory_context: str = "", registry: ToolRegistry = TOOLS) -> str:
    """The planning system prompt with tools, schema and memory filled in."""
    template = load_template("plan_system.md")
    return (
        template.replace("{{tools}}", registry.prompt_section())
        .replace("{{schema}}", json.dumps(registry.response_schema(), separators=(",", ":")))
        .replace("{{max_steps}}", str(LIMITS.max_steps))
        .replace("{{dictation}}", dictation_section())
        # last, so nothing in the stored facts is ever taken for a placeholder
        .replace("{{memory}}", memory_context.strip() or "(nothing yet)")
    )
