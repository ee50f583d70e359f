"""What the second-model tests share: the paraphrase only e5 finds, and reading its vectors."""

from __future__ import annotations

import math

from memories import services
from memories.engine import get_engine, second, second_vectors
from memories.ops import portability
from memories.types import WriteStatus
from tests.memories.ops.conftest import mem0_sql

# The paraphrase only the second model finds: no shared word, and USE v3 puts the pair under
# its floor (0.27 < 0.29) where e5 puts it at 0.90 (over its 0.87).
JOB_QUESTION = "用户做什么工作"
JOB = "用户是后端工程师，负责支付系统。"
OTHERS = [
    "用户住在杭州，通勤骑自行车。",
    "团队沟通统一用“飞书”，不用邮件。",
    "用户养了一只叫豆豆的猫。",
]
OFF_TOPIC = "明天北京会下雨吗"
# The service's bound, read before the suite's conftest sets it to 0 for every test.
PRODUCTION_BEHIND = second_vectors.SECOND_VECTORS_BEHIND


def second_row(memory_id: str) -> tuple[list[float] | None, str | None]:
    [(vector, model)] = mem0_sql(
        "SELECT second_vector::text, second_model FROM poco_memories WHERE id = %s", (memory_id,)
    )
    return (None if vector is None else [float(x) for x in vector.strip("[]").split(",")]), model


def cosine(a: list[float], b: list[float]) -> float:
    """(A text embedded alone and in a batch differs in the last digits: padding.)"""
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(
        sum(x * x for x in a) * sum(y * y for y in b)
    )


def passage(text: str) -> list[float]:
    model = second.configured()
    assert model is not None
    return model.passages([text])[0]


def settled() -> None:
    """Wait for the second vectors this process's writes left to be stored once computed."""
    assert get_engine().second_vectors_stored(timeout=60)


def add(scope, agent, text: str) -> str:
    """An add, and its second vector stored (it follows the add's answer)."""
    outcome = services.memory_add(scope=scope, text=text, actor=agent)
    assert outcome.status == WriteStatus.ADDED, outcome
    assert outcome.memory_id is not None
    settled()
    return outcome.memory_id


def ids(result) -> list[str]:
    assert result.available, result
    return [hit.id for hit in result.items]


def imported(scope, agent, texts: list[str]) -> list[str]:
    """An import: it leaves the second vectors to the backfill."""
    report = portability.memory_import(
        scope=scope, items=[{"content": text} for text in texts], actor=agent
    )
    stored = [item.memory_id for item in report.items if item.memory_id]
    assert len(stored) == len(texts), report
    return stored
