"""The as-of kind of `make eval` (docs/retrieval.md, "As of"): what was true at a date.

Two users whose preferences and projects changed over 2025–2026: each fact is stored when it
began to hold (``created_at``) under its ``memory_key``, so a later value supersedes the earlier
one as it would in use; one memory expired (a week's business trip).  Beside them, memories
that never changed.  Every question asks about one of those facts ``as_of`` a day or instant
and names the version that held then (``relevant``) — any other version of the same fact is
``stale``.  Scored like the other kinds (hit@1 / hit@3 / MRR over the top 5), plus how many
answers showed a version that did not hold at that instant (0 is right).  Written before any
run and kept whatever they score.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time


@dataclass(frozen=True)
class Fact:
    key: str  # short name of this version
    text: str
    since: str  # ISO day it began to hold (stored as created_at, noon UTC)
    memory_key: str = ""  # versions of one fact share it: the later supersedes the earlier
    until: str = ""  # ISO day its expiry passed (an expired memory)


@dataclass(frozen=True)
class AsOfQuestion:
    scope: str
    text: str
    as_of: str  # as a client sends it: a day or an ISO instant with its offset
    relevant: str  # the version that held then
    stale: tuple[str, ...]  # the versions of the same fact that did not


FACTS: dict[str, tuple[Fact, ...]] = {
    "zh": (
        Fact("vim", "用户写代码用 Vim 编辑器", "2025-06-01", "preference.editor"),
        Fact("zh_answer", "以后默认用中文回答", "2025-09-01", "preference.answer_language"),
        Fact("mysql", "青鸟项目的数据库用 MySQL", "2025-10-01", "project.qingniao_database"),
        Fact("word", "周报用 Word 文档写", "2025-11-01", "preference.report_format"),
        Fact("cat", "用户养了一只橘猫，叫团子", "2025-05-01"),
        Fact("hangzhou", "用户住在杭州", "2025-05-01"),
        Fact("run", "用户每天早上跑步五公里", "2025-07-01"),
        Fact("feishu", "周报改成用飞书文档写", "2026-02-01", "preference.report_format"),
        Fact("vscode", "用户写代码改用 VS Code 编辑器了", "2026-03-01", "preference.editor"),
        Fact("shanghai", "用户本周在上海出差，见客户", "2026-03-02", until="2026-03-08"),
        Fact(
            "postgres",
            "青鸟项目的数据库迁到了 PostgreSQL",
            "2026-04-15",
            "project.qingniao_database",
        ),
        Fact("en_answer", "以后默认用英文回答", "2026-05-10", "preference.answer_language"),
        Fact(
            "markdown",
            "周报现在用 Markdown 写在 Git 仓库里",
            "2026-07-01",
            "preference.report_format",
        ),
    ),
    "en": (
        Fact(
            "angular",
            "Project Kestrel's frontend is built with Angular",
            "2025-05-01",
            "project.kestrel_frontend",
        ),
        Fact(
            "detailed",
            "The user prefers detailed code reviews that point out every nit",
            "2025-08-01",
            "preference.code_review",
        ),
        Fact("heroku", "The team deploys Nimbus on Heroku", "2025-12-01", "project.nimbus_hosting"),
        Fact("dog", "The user has a dog named Biscuit", "2025-05-01"),
        Fact("lisbon", "The user lives in Lisbon", "2025-05-01"),
        Fact(
            "react",
            "Project Kestrel's frontend moved to React",
            "2026-01-20",
            "project.kestrel_frontend",
        ),
        Fact("aws", "The team moved Nimbus hosting to AWS", "2026-03-15", "project.nimbus_hosting"),
        Fact(
            "short",
            "The user now prefers short code reviews that flag only blocking issues",
            "2026-06-01",
            "preference.code_review",
        ),
    ),
}


def _q(scope: str, text: str, as_of: str, relevant: str, *stale: str) -> AsOfQuestion:
    return AsOfQuestion(scope=scope, text=text, as_of=as_of, relevant=relevant, stale=stale)


QUESTIONS: tuple[AsOfQuestion, ...] = (
    # What the user preferred before a change, and after it.
    _q("zh", "三月之前我用的什么编辑器", "2026-02-28", "vim", "vscode"),
    _q("zh", "我写代码用什么编辑器", "2026-03-05", "vscode", "vim"),
    _q("zh", "默认用什么语言回答我", "2026-01-01", "zh_answer", "en_answer"),
    _q("zh", "默认用什么语言回答我", "2026-06-01T10:00:00+08:00", "en_answer", "zh_answer"),
    _q("zh", "周报用什么写", "2026-01-15", "word", "feishu", "markdown"),
    _q("zh", "周报用什么写", "2026-03-01", "feishu", "word", "markdown"),
    _q("zh", "周报用什么写", "2026-08-01", "markdown", "word", "feishu"),
    _q("en", "How did the user like code reviews back then?", "2026-03-01", "detailed", "short"),
    _q("en", "How does the user like code reviews?", "2026-07-01", "short", "detailed"),
    # What a project used at a date.
    _q("zh", "青鸟项目用的什么数据库", "2026-01-10", "mysql", "postgres"),
    _q("zh", "青鸟项目用的什么数据库", "2026-05-01", "postgres", "mysql"),
    _q(
        "en",
        "Which frontend framework did Kestrel use at the end of 2025?",
        "2025-12-31",
        "angular",
        "react",
    ),
    _q(
        "en",
        "Which frontend framework does Kestrel use?",
        "2026-02-01T00:00:00Z",
        "react",
        "angular",
    ),
    _q("en", "Where was Nimbus hosted?", "2026-01-01", "heroku", "aws"),
    _q("en", "Where is Nimbus hosted?", "2026-04-01", "aws", "heroku"),
    # An expired memory, during the week it held.
    _q("zh", "那周我在哪里出差", "2026-03-05", "shanghai"),
)


def noon(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), time(12), tzinfo=UTC)


def evaluate(misses: bool = False) -> str:
    """Store both users' facts in time order, ask every question of each system, delete them;
    the table of docs/retrieval.md's "As of"."""
    import time as clock
    import uuid

    from edges.contract.fields import parse_as_of
    from eval.run import TOP_K, _score, _second_vectors_stored
    from memories import selectors, services
    from memories.engine import get_engine
    from memories.scope import scope_of
    from memories.types import Actor, ActorKind, MemoryScope, SearchFilters

    actor = Actor(kind=ActorKind.SYSTEM, id="eval")
    run = uuid.uuid4().hex[:8]
    scopes = {name: scope_of(tenant_id="eval", user_id=f"asof-{name}-{run}") for name in FACTS}
    ids: dict[str, str] = {}
    memory = get_engine()._memory  # raw Mem0, same embedder and tables (eval only)

    def product(as_of: bool):  # noqa: ANN202 - a ranker
        def rank(scope: MemoryScope, question: AsOfQuestion) -> list[str]:
            filters = SearchFilters(as_of=parse_as_of(question.as_of)) if as_of else None
            found = selectors.memory_search(
                scope=scope, query=question.text, top_k=TOP_K, filters=filters
            )
            return [hit.id for hit in found.items]

        return rank

    def mem0_raw(scope: MemoryScope, question: AsOfQuestion) -> list[str]:
        found = memory.search(
            question.text, top_k=TOP_K, threshold=0.0, filters={"user_id": scope.key}
        )
        return [str(r["id"]) for r in found.get("results", [])]

    systems = {
        "search as_of (the product)": product(as_of=True),
        "search without as_of (now)": product(as_of=False),
        "mem0 raw (threshold 0, no time)": mem0_raw,
    }
    sums = {name: [0.0, 0.0, 0.0, 0.0] for name in systems}  # hit1, hit3, rr, stale answers
    started = clock.perf_counter()
    try:
        for name, facts in FACTS.items():
            for fact in sorted(facts, key=lambda f: f.since):
                outcome = services.memory_add(
                    scope=scopes[name],
                    text=fact.text,
                    actor=actor,
                    memory_key=fact.memory_key,
                    created_at=noon(fact.since),
                )
                if outcome.memory_id is None:
                    raise SystemExit(f"could not store {fact.key!r}: {outcome}")
                ids[fact.key] = outcome.memory_id
                if fact.until:
                    services.memory_set_validity(
                        scope=scopes[name],
                        memory_id=outcome.memory_id,
                        valid_until=noon(fact.until),
                        actor=actor,
                    )
        _second_vectors_stored()
        key_of = {memory_id: key for key, memory_id in ids.items()}
        for question in QUESTIONS:
            for system, rank in systems.items():
                ranked = rank(scopes[question.scope], question)
                scored = _score(ranked, {ids[question.relevant]})
                stale = {ids[key] for key in question.stale} & set(ranked[:TOP_K])
                row = sums[system]
                for i, value in enumerate(scored):
                    row[i] += value
                row[3] += float(bool(stale))
                if misses and (scored[0] < 1.0 or stale) and system.startswith("search as_of"):
                    print(
                        f"miss [{system}] as of {question.as_of}: {question.text!r} -> "
                        f"{[key_of.get(i, '?') for i in ranked[:3]]} want {question.relevant}"
                    )
    finally:
        for scope in scopes.values():
            services.memory_delete_user(scope=scope, actor=actor)
    elapsed = clock.perf_counter() - started
    n = len(QUESTIONS)
    lines = [
        f"{n} questions over {sum(len(f) for f in FACTS.values())} memories in {len(FACTS)} "
        f"scopes; top {TOP_K}; cells are hit@1 / hit@3 / MRR; stale: how many answers showed "
        "a version that did not hold at that instant (0 is right).",
        "",
        f"| system | as_of ({n}) | stale |",
        "|---|---|---|",
    ]
    for system, (hit1, hit3, rr, stale) in sums.items():
        lines.append(
            f"| {system} | {hit1 / n:.2f} / {hit3 / n:.2f} / {rr / n:.2f} | {int(stale)} / {n} |"
        )
    lines += ["", f"(stored and answered in {elapsed:.1f} s for all systems together)"]
    return "\n".join(lines)
