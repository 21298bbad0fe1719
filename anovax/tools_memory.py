"""The memory tools' declarations (issue 18, point 3): part of the one registry in ``anovax.tools``,
kept in a module of their own so that ``tools.py`` stays small.

``recall`` and ``recall_all`` read remembered facts aloud, ``forget`` and ``forget_all`` drop them.
The agent's own sentence is the reply (no ``offline_say``): "what is my favourite colour" is
answered "Your favourite colour is green." and nothing else. Forgetting is ``Effect.MEMORY``, so
``anovax.safety.forget`` asks unless the person named the fact, and it is core: a memory file
that could not be rewritten is a failure the person hears.
"""

from __future__ import annotations

from anovax.agents import ForgetAgent, RecallAgent
from anovax.toolspec import Effect, Sink, ToolSpec, text

#: how a fact is named in the memory tools' phrases: "favourite colour", "wife's birthday"
_FACT = text("key", "the fact's name as the user says it, e.g. favourite colour", 64, Sink.FACT_KEY)

MEMORY_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="recall",
        description="Say a fact the user asked you to remember (their favourite colour, a birthday...).",
        params=(_FACT,),
        core=False,
        read_only=True,
        fresh_s=0.5,
        effect=Effect.PASSIVE,
        parallel_safe=True,
        ttl_s=3.0,
        agent=RecallAgent,
        example='recall {"key": "favourite colour"}',
        phrases=(
            "(what is|what's|whats|what are|what're) my {key} [again]",
            "(what is|what's|whats) my {key} called",
            "do you (know|remember) my {key}",
            "tell me my {key}",
            "remind me of my {key}",
            "(tell|remind) me what my {key} (is|are|was)",
            "what did i (tell you|say) my {key} (is|was|are|were)",
            "(who|where|when|which) (is|are|was|were) my {key}",
            "(who's|whos|where's|wheres|when's|whens) my {key}",
            "do you (know|remember) (who|where|when|what|which) my {key} (is|are|was|were)",
            "(where|when) did i (park|put|leave|last see) my {key}",
            "(where|when|what|who|how) did i {key}",
            "do you (know|remember) (where|when|what|who|how) i {key}",
        ),
        ability="Memory",
    ),
    ToolSpec(
        name="recall_all",
        description="List the facts the user asked you to remember, briefly.",
        core=False,
        read_only=True,
        fresh_s=0.5,
        effect=Effect.PASSIVE,
        parallel_safe=True,
        ttl_s=3.0,
        agent=RecallAgent,
        example="recall_all {}",
        phrases=(
            "what do you (remember|know) about (me|myself)",
            "what [else] (have i told you|did i tell you) about (me|myself)",
            "what (facts|things) do you (remember|know|have) about me",
            "(tell me|list) (everything|what|all) you (remember|know) about me",
            "do you remember anything about me",
            "what do you remember",
            "what is in your memory",
            "what's in your memory",
        ),
        ability="Memory",
    ),
    ToolSpec(
        name="forget",
        description="Forget one remembered fact the user names.",
        params=(_FACT,),
        effect=Effect.MEMORY,
        ttl_s=3.0,
        agent=ForgetAgent,
        example='forget {"key": "favourite colour"}',
        phrases=(
            "forget [about] [that|what] my {key}",
            "(stop remembering|don't remember|do not remember|no longer remember) my {key}",
            "(delete|remove|erase|clear) my {key} from (your|the) memory",
        ),
        ability="Memory",
    ),
    ToolSpec(
        name="forget_all",
        description="Forget every remembered fact (always asks the user first).",
        effect=Effect.MEMORY,
        ttl_s=3.0,
        agent=ForgetAgent,
        example="forget_all {}",
        phrases=(
            "forget everything",
            "forget (everything|all) [that] (you know|you remember|i told you|i've told you) [about me]",
            "forget (everything|all) about me",
            "forget all my (facts|details|information|info)",
            "(clear|wipe|erase|reset|empty|delete) (your|the|all your) memory",
            "(clear|wipe|erase|delete) (everything|all) [that] you (know|remember) about me",
        ),
        ability="Memory",
    ),
)
