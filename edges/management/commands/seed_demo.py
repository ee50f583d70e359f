"""``manage.py seed_demo``: a demo user and a realistic memory with 90 days of history.

Embedded/dev mode only (refuses when ``settings.PRODUCTION``).  Idempotent: a memory whose
final text is already stored is skipped, so running it twice adds nothing.  Every write goes
through ``memories.services`` (admission, real embedder, entity index, audit trail): a demo
text admission refuses stops the command instead of being stored.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from memories.scope import scope_for_user
from memories.selectors import memory_find_by_text
from memories.services import memory_add, memory_delete_user, memory_pin, memory_update
from memories.types import Actor, ActorKind, Category, MemoryScope, Source, WriteStatus
from memories.usage import Use, count_use

DEMO_USERNAME = "demo"
PASSWORD_FILE_NAME = "demo_password"

EXECUTOR = Actor(kind=ActorKind.AGENT, id="executor")
AGENT = Actor(kind=ActorKind.AGENT, id="poco-agent")
IMPORTER = Actor(kind=ActorKind.SYSTEM, id="import")
ACTORS = {
    Source.INGEST: EXECUTOR,
    Source.MANAGE: AGENT,
    Source.IMPORT: IMPORTER,
}


@dataclass(frozen=True)
class Correction:
    days_ago: int
    text: str
    by_user: bool = False


@dataclass(frozen=True)
class DemoMemory:
    days_ago: int
    category: Category
    source: Source
    text: str
    corrections: tuple[Correction, ...] = field(default_factory=tuple)

    @property
    def final_text(self) -> str:
        return self.corrections[-1].text if self.corrections else self.text


C, S = Category, Source
DEMO_MEMORIES: tuple[DemoMemory, ...] = (
    DemoMemory(
        88,
        C.PREFERENCE,
        S.INGEST,
        "用户偏好使用简体中文回答，结论先行，说明保持简洁。",
        (
            Correction(
                61, "用户偏好使用简体中文回答，结论先行，说明保持简洁，技术术语保留英文原文。"
            ),
        ),
    ),
    DemoMemory(
        84,
        C.PREFERENCE,
        S.MANAGE,
        "周报使用“飞书”文档撰写，按“本周进展”“风险”“下周计划”三段组织。",
        (
            Correction(
                20,
                "周报使用“飞书”文档撰写，按“本周进展”“风险”“下周计划”三段组织，"
                "周五 18 点前发给“林清”。",
                by_user=True,
            ),
        ),
    ),
    DemoMemory(
        80, C.PROJECT, S.INGEST, "“Poco”是团队的 AI Agent 平台，后端使用 Django 和 PostgreSQL。"
    ),
    DemoMemory(77, C.FACT, S.MANAGE, "“林清”是“Poco”项目的前端负责人，负责前端文档评审。"),
    DemoMemory(
        73, C.CONSTRAINT, S.MANAGE, "前端文档必须包含“使用场景”“操作步骤”“常见问题”三部分。"
    ),
    DemoMemory(69, C.PREFERENCE, S.CONSOLE, "代码评审意见先写结论，再按严重程度列出问题。"),
    DemoMemory(
        65,
        C.PROJECT,
        S.INGEST,
        "“Poco”的长期记忆服务基于 Mem0 和 pgvector，嵌入式部署时不依赖外部 API。",
    ),
    DemoMemory(
        60,
        C.GOAL,
        S.MANAGE,
        "今年第四季度把“Poco”的端到端测试覆盖率提升到 80%。",
        (Correction(9, "今年第四季度把“Poco”的端到端测试覆盖率提升到 85%，并接入 CI 门禁。"),),
    ),
    DemoMemory(
        56,
        C.FACT,
        S.IMPORT,
        "团队使用“钉钉”接收线上告警，使用“飞书”做日常沟通。",
        (
            Correction(
                27, "团队已把线上告警从“钉钉”迁移到“飞书”，日常沟通也使用“飞书”。", by_user=True
            ),
        ),
    ),
    DemoMemory(
        53,
        C.CONSTRAINT,
        S.MANAGE,
        "Python 代码遵循 ruff 规则，行宽 100，所有函数都写类型注解。",
        (
            Correction(
                8, "Python 代码遵循 ruff 规则，行宽 100，所有函数都写类型注解，并通过 mypy 检查。"
            ),
        ),
    ),
    DemoMemory(
        49,
        C.PREFERENCE,
        S.INGEST,
        "Prefers concise English summaries for weekly reports sent to overseas partners.",
    ),
    DemoMemory(
        46,
        C.PROJECT,
        S.MANAGE,
        "Project “Atlas” migrates the billing service from MySQL to PostgreSQL; "
        "“Marco” owns the data migration.",
    ),
    DemoMemory(
        43, C.FACT, S.INGEST, "“王磊”负责“Poco”的部署和运维，值班表维护在“飞书”多维表格中。"
    ),
    DemoMemory(39, C.GOAL, S.CONSOLE, "年底前完成“Atlas”项目的数据迁移演练两次。"),
    DemoMemory(36, C.CONSTRAINT, S.INGEST, "对外发布的文档不能出现客户名称和内部 IP 地址。"),
    DemoMemory(32, C.PREFERENCE, S.MANAGE, "画图优先使用 Mermaid，表格优先使用 Markdown。"),
    DemoMemory(28, C.FACT, S.INGEST, "“林清”习惯在周二下午集中处理设计评审。"),
    DemoMemory(
        25, C.PROJECT, S.INGEST, "“Poco”的记忆管理页面使用 HTMX 渲染，图表由服务端生成 SVG。"
    ),
    DemoMemory(
        22,
        C.PREFERENCE,
        S.INGEST,
        "Prefers TypeScript over JavaScript for new front-end modules, with strict mode on.",
    ),
    DemoMemory(19, C.CONSTRAINT, S.MANAGE, "数据库迁移必须先在预发环境演练，并准备回滚脚本。"),
    DemoMemory(
        16,
        C.GOAL,
        S.MANAGE,
        "Publish the “Poco” memory API documentation in Chinese and English this quarter.",
    ),
    DemoMemory(
        13,
        C.FACT,
        S.CONSOLE,
        "团队的前端组件库叫“青鸟”，基于 Vue 3。",
        (Correction(4, "团队的前端组件库叫“青鸟”，已从 Vue 3 迁移到 React 18。", by_user=True),),
    ),
    DemoMemory(10, C.PREFERENCE, S.INGEST, "会议纪要按“结论”“待办”“负责人”“截止时间”四栏整理。"),
    DemoMemory(7, C.PROJECT, S.MANAGE, "“Atlas”项目的验收会定在每月第一个周一，由“Marco”主持。"),
    DemoMemory(
        5,
        C.CONSTRAINT,
        S.INGEST,
        "Never include API keys or customer data in prompts sent to third-party models.",
    ),
    DemoMemory(3, C.FACT, S.MANAGE, "“王磊”和“林清”共同维护“Poco”的发布检查清单。"),
    DemoMemory(2, C.PREFERENCE, S.CONSOLE, "回答技术问题时先给可运行的最小示例，再解释原理。"),
    DemoMemory(1, C.GOAL, S.INGEST, "下个月为“Poco”增加记忆导入功能，支持从“飞书”文档批量导入。"),
)


class Command(BaseCommand):
    help = "Create the demo user and a realistic memory (embedded/dev mode only; idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", help="set this password for the demo user")
        parser.add_argument(
            "--reset", action="store_true", help="delete the demo user's memories first"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            raise CommandError("seed_demo only runs in embedded/dev mode (POCO_ENV=production).")
        user, password = self._demo_user(options.get("password"))
        scope = scope_for_user(user)
        user_actor = Actor(kind=ActorKind.USER, id=user.get_username())
        if options["reset"]:
            wiped = memory_delete_user(scope=scope, actor=user_actor, source=Source.CONSOLE)
            if not wiped.success:
                raise CommandError(f"could not reset the demo memory: {wiped.status}")
            self.stdout.write(f"Deleted {wiped.deleted_count} demo memories.")
        added = corrected = skipped = 0
        now = timezone.now().replace(minute=0, second=0, microsecond=0)
        for index, item in enumerate(DEMO_MEMORIES):
            if memory_find_by_text(scope=scope, text=_as_stored(item.final_text)) is not None:
                skipped += 1
                continue
            existing = memory_find_by_text(scope=scope, text=_as_stored(item.text))
            if existing is None:
                run_id = _run_id(now, index) if item.source in RUN_SOURCES else ""
                at = _at(now, item.days_ago, index)
                memory_id = self._add(scope, item, user_actor, at, run_id)
                added += 1
                _use(scope, memory_id, index)
                if index == 0:  # the answer-language preference: "always use"
                    memory_pin(scope=scope, memory_id=memory_id, pinned=True, actor=user_actor)
            else:
                memory_id = existing.id  # an earlier run stopped between add and corrections
            for correction in item.corrections:
                actor = user_actor if correction.by_user else ACTORS.get(item.source, AGENT)
                outcome = memory_update(
                    scope=scope,
                    memory_id=memory_id,
                    text=correction.text,
                    actor=actor,
                    source=Source.CONSOLE if correction.by_user else item.source,
                    occurred_at=_at(now, correction.days_ago, index),
                )
                if outcome.status not in (WriteStatus.UPDATED, WriteStatus.NO_EFFECT):
                    raise CommandError(
                        f"correcting a demo memory failed: {outcome.status} {outcome.reason}"
                    )
                corrected += outcome.status == WriteStatus.UPDATED
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo memory ready: {added} added, {corrected} corrected, {skipped} already there."
            )
        )
        self.stdout.write(f"Log in as {user.get_username()!r} with password {password!r}.")

    def _add(
        self, scope: MemoryScope, item: DemoMemory, user_actor: Actor, at: datetime, run_id: str
    ) -> str:
        actor = user_actor if item.source == Source.CONSOLE else ACTORS[item.source]
        outcome = memory_add(
            scope=scope,
            text=item.text,
            actor=actor,
            category=item.category,
            source=item.source,
            run_id=run_id,
            confidence=0.9,
            created_at=at,
        )
        if outcome.status != WriteStatus.ADDED or outcome.memory_id is None:
            raise CommandError(f"adding a demo memory failed: {outcome.status} {outcome.reason}")
        return outcome.memory_id

    def _demo_user(self, password: str | None) -> tuple[Any, str]:
        """The demo user and a password to print: the given one, the saved one, or a new one."""
        password_file = Path(settings.DATA_DIR) / PASSWORD_FILE_NAME
        saved = password_file.read_text().strip() if password_file.exists() else ""
        user_model = get_user_model()
        user = user_model.objects.filter(username=DEMO_USERNAME).first()
        if user is None:
            user = user_model(username=DEMO_USERNAME)
        elif not password and saved and user.check_password(saved):
            return user, saved
        password = password or saved or secrets.token_urlsafe(9)
        user.set_password(password)
        user.save()
        password_file.parent.mkdir(parents=True, exist_ok=True)
        password_file.write_text(password + "\n")
        password_file.chmod(0o600)
        return user, password


def _as_stored(text: str) -> str:
    """The text as the services store it: as typed, quotes too (a lookup folds them)."""
    return text


# Agents write in runs (tasks): the memories of these sources name theirs, two items a run.
RUN_SOURCES = (Source.INGEST, Source.MANAGE)


def _run_id(now: datetime, index: int) -> str:
    """The run that wrote demo item ``index``: items are paired, as one task often leaves
    two memories; named by the day of the pair's first item, as the platform names runs."""
    first = index - index % 2
    day = now - timedelta(days=DEMO_MEMORIES[first].days_ago)
    return f"run-{day:%Y%m%d}-{first // 2 + 1:02d}"


def _use(scope: MemoryScope, memory_id: str, index: int) -> None:
    """Some agent use, so the console's use counts and its "most used" order show something:
    the service counts real use from then on."""
    for _ in range((index * 7) % 5):
        count_use(scope=scope, memory_ids=[memory_id], use=Use.RECALLED)
    for _ in range((index * 3) % 4 if index % 2 == 0 else 0):
        count_use(scope=scope, memory_ids=[memory_id], use=Use.INJECTED)


def _at(now: datetime, days_ago: int, index: int) -> datetime:
    """``days_ago`` days back, a few hours apart between items so the trend looks lived-in."""
    return now - timedelta(days=days_ago, hours=(index * 5) % 9)
