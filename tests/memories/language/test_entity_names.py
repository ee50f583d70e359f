"""What the entity extractor calls a name: people, products, projects, places, tools — never a
formula's function, a title's adjective, a piece of a split name, a generic word or a fragment
of jieba's segmentation.  The heat map, the admin's entity page and recall's entity channel read
these names; the data migration re-derives the names of memories stored before, on the real
PostgreSQL.
"""

from __future__ import annotations

from importlib import import_module
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from edges.management.commands.seed_demo import DEMO_MEMORIES
from memories import services
from memories.engine import bootstrap
from memories.engine.entities import name_key
from memories.language import nlp
from memories.models import EntityRow
from memories.text import normalize_quotes

# Every junk topic the management page showed, each with the memory that produced it.
JUNK = [
    ("User prefers Dark mode in VS Code.", {"Dark", "Dark mode", "VS", "Code"}),
    ("用户习惯用 VS Code 写代码，字体是 JetBrains Mono。", {"VS", "Code", "Mono"}),
    (
        '用户在 Excel 里用 =SUM(A1:A9) 汇总，用 =HYPERLINK("http://x") 放链接。',
        {"SUM", "A1", "A9", "HYPERLINK", "http://x", "SUM(A1"},
    ),
    ('Totals use =SUM(A1:A9) and links use =HYPERLINK("https://example.com/a").', {"SUM"}),
    ('=HYPERLINK("http://x")', {"HYPERLINK", 'HYPERLINK("http://x', "http://x"}),
    ("对外发布的文档不能出现客户名称和内部 IP 地址。", {"IP"}),
    (
        "Never include API keys or customer data in prompts sent to third-party models.",
        {"API", "API keys"},
    ),
    ("Code reviews must list the conclusion first.", {"Code"}),
    (
        "Prefers concise English summaries for weekly reports sent to overseas partners.",
        {"English", "English summaries", "summaries", "weekly reports"},
    ),
    ("“王磊”负责“Poco”的部署和运维，值班表维护在“飞书”多维表格中。", {"和运维", "部署和运维"}),
    ("画图优先使用 Mermaid，表格优先使用 Markdown。", {"画图优先", "表格优先"}),
    ("下个月为“Poco”增加记忆导入功能，支持从“飞书”文档批量导入。", {"文档批量"}),
    ("会议纪要按“结论”“待办”“负责人”“截止时间”四栏整理。", {"结论", "负责人", "栏整理"}),
    ("前端文档必须包含“使用场景”“操作步骤”“常见问题”三部分。", {"操作步骤", "常见问题"}),
    ("Actually Luca is right about the budget.", {"Actually Luca"}),
    ("Great! Rainy days are the best for reading.", {"Great", "Rainy"}),
    ("他说 Send me the slides 就行。", {"Send", "Send me the slides"}),
    ("The retro is every Monday in March.", {"Monday", "March", "Monday in March"}),
    ("The analytics API promises 99.9% availability.", {"% availability"}),
    ("部门经理张总喜欢先听风险。", {"部门经理张总"}),
    # A verb spaCy read as a plural noun after the memory's subject.
    ("User mentors two junior engineers.", {"User mentors", "junior engineers"}),
    ("User reviews pull requests daily.", {"User reviews"}),
    # A generic head with only an adjective, an ordinal or a circumstance before it.
    ("The report is due end of March.", {"due end"}),
    ("This is the second time the deploy failed.", {"second time"}),
    ("Verified conclusion: the cache bug came from the TTL.", {"Verified conclusion"}),
    ("Team rule: no deploys on Fridays.", {"rule"}),
    # Words glued before a name: a unit after a number, an adjective, a verb, a role.
    ("User's laptop is a 14-inch MacBook Pro M3.", {"inch MacBook Pro M3"}),
    ("User owns a 27-inch Dell monitor.", {"inch Dell monitor"}),
    ("User drives a white Tesla Model 3.", {"white Tesla Model", "Tesla Model"}),
    ("For vendor questions, contact Dana Whitfield.", {"contact Dana Whitfield"}),
    ("Ask senior engineer Luca about the schema.", {"senior engineer Luca"}),
    # A title's closing quote, or its hyphen dropped: a second spelling of one name.
    (
        "User is reading 'Designing Data-Intensive Applications'.",
        {"Designing Data-Intensive Applications'", "Designing Data Intensive Applications"},
    ),
    # The area of a time zone is a setting's syntax, not a place the user named.
    ("User's time zone is Asia/Shanghai.", {"Asia"}),
    ("用户的时区是 Asia/Shanghai。", {"Asia"}),
    # A role or kind before a name is not part of it: the name is the topic.
    ("项目负责人赵敏负责排期。", {"项目负责人赵敏", "负责人赵敏"}),
    ("技术总监孙海涛负责架构评审。", {"技术总监孙海涛"}),
    ("新人徐晓东下周入职。", {"新人徐晓东"}),
    ("客户顺丰要求每周出一份报表。", {"客户顺丰"}),
    # A fragment jieba's HMM made that opens with a family name but is tagged no name.
    ("周末去西湖边夜跑。", {"西湖边夜", "边夜"}),
    # Ordinary words jieba's dictionary tags as a person's name (连 is a family name).
    ("用户对花生过敏。", {"过敏"}),
    ("数据要先脱敏再导出。", {"脱敏"}),
    ("孩子在做牙齿矫正。", {"矫正"}),
    ("数据库连接池满了。", {"连接池"}),
    ("孩子下午去幼儿园。", {"幼儿园"}),
    # A product's model suffix alone, or a name cut before its model number and suffix.
    ("User's phone is an iPhone 15 Pro.", {"Pro", "iPhone"}),
    ("User bought an iPhone 15 Pro Max last week.", {"Pro Max", "Pro"}),
    ("User uses a Pixel 8 Pro.", {"Pixel 8", "Pro"}),
    ("User uses a Pixel 8 as a work phone.", {"Pixel"}),
    # An adjective and a kind after a name: the name is the topic.
    ("User types on a mechanical Keychron K2 keyboard.", {"mechanical Keychron K2 keyboard"}),
    # A number that counts what follows, or a date, is no model number.
    ("User plays Elden Ring 3 hours a day.", {"Elden Ring 3 hours", "Elden Ring 3"}),
    ("The launch moved to March 3.", {"March 3"}),
    # The verb of where one works, studies or lives, which jieba tags a noun, after the place.
    ("用户在蓝鲸科技工作。", {"蓝鲸科技工作"}),
    ("用户去年在阿里工作。", {"阿里工作"}),
    ("用户在阿里工作过两年。", {"阿里工作"}),
    ("王磊在顺丰工作。", {"顺丰工作"}),
    ("用户在蓝鲸科技供职。", {"蓝鲸科技供职"}),
    ("用户在北京大学读书。", {"北京大学读书"}),
    ("孩子在杭州上学。", {"杭州上学"}),
    ("用户在杭州生活了十年。", {"杭州生活"}),
]

# Names a person clicks, each with a memory that mentions it.
NAMES = [
    ("团队的前端组件库叫“青鸟”，已从 Vue 3 迁移到 React 18。", {"青鸟", "Vue", "React"}),
    ("王磊负责部署，林清负责前端文档评审。", {"王磊", "林清"}),
    ("Maya Chen leads Kestrel, due the end of March.", {"Maya Chen", "Kestrel"}),
    ("Kestrel runs on Kubernetes and PostgreSQL in Hangzhou.", {"PostgreSQL", "Kubernetes"}),
    ("后端用 PostgreSQL，部署在 Kubernetes 上。", {"PostgreSQL", "Kubernetes"}),
    ("用户住在杭州，笔记都记在 Obsidian 里。", {"杭州", "Obsidian"}),
    ("Notes live in Obsidian; Maya Chen reviews them.", {"Obsidian", "Maya Chen"}),
    ("User prefers Dark mode in VS Code.", {"VS Code"}),
    ("用户习惯用 VS Code 写代码，字体是 JetBrains Mono。", {"VS Code", "JetBrains Mono"}),
    ("CI 用 GitHub Actions 跑。", {"GitHub Actions", "GitHub", "CI"}),
    ("“Phoenix”的技术栈是Go 和 gRPC。", {"Phoenix", "Go", "gRPC"}),
    ("后端用 Ruby on Rails，前端 Node.js。", {"Ruby on Rails", "Node.js"}),
    ("用户的耳机是 Sony WH-1000XM5。", {"Sony WH-1000XM5"}),
    ("“鸿雁”的负责人是钱坤，找宋老师确认。", {"鸿雁", "钱坤", "宋老师"}),
    ("主角是一只小狐狸，名字叫阿禾。", {"阿禾"}),
    ("Mia Walker leads Pelican; scope changes go through her.", {"Mia Walker", "Pelican"}),
    ("Raven runs on MongoDB, deployed on the container platform.", {"MongoDB"}),
    ("The Adyen payment gateway times out after 30 seconds.", {"Adyen"}),
    ("用户在 Excel 里用 =SUM(A1:A9) 汇总。", {"Excel"}),
    ("周报使用“飞书”文档撰写，周五发给“林清”。", {"飞书", "林清", "周报"}),
    ('Project "Atlas" moves billing from MySQL to PostgreSQL; "Marco" owns it.', {"Atlas"}),
    # A month that names an event is how people call it; an API is a thing people ask about.
    ("Lesson from the March outage: run schema migrations first.", {"March", "March outage"}),
    ("公司不允许把录音发到外部 API。", {"API"}),
    # What is left of the junk above: the names themselves.
    ("User's laptop is a 14-inch MacBook Pro M3.", {"MacBook Pro M3"}),
    ("User drives a white Tesla Model 3.", {"Tesla Model 3"}),
    ("For vendor questions, contact Dana Whitfield.", {"Dana Whitfield"}),
    ("Ask senior engineer Luca about the schema.", {"Luca"}),
    (
        "User is reading 'Designing Data-Intensive Applications'.",
        {"Designing Data-Intensive Applications"},
    ),
    ("User's time zone is Asia/Shanghai.", {"Shanghai"}),
    ("用户的时区是 Asia/Shanghai。", {"Shanghai"}),
    ("项目负责人赵敏负责排期。", {"赵敏"}),
    ("技术总监孙海涛负责架构评审。", {"孙海涛", "架构评审"}),
    ("新人徐晓东下周入职。", {"徐晓东"}),
    ("客户顺丰要求每周出一份报表。", {"顺丰"}),
    ("周末去西湖边夜跑。", {"西湖"}),
    # A lower-case word before a name that is no name alone, or a noun after "User", stays.
    ("The billing API is owned by Maya Chen.", {"billing API", "Maya Chen"}),
    ("User research shows people skip onboarding.", {"User research"}),
    ("User interviews are scheduled for Friday.", {"User interviews"}),
    # Only a name jieba reads as one ends a role: it tags 过敏 a person's name too.
    ("部门经理张总喜欢先听风险。", {"张总"}),
    ("用户对花生过敏。", {"花生过敏"}),
    # A product name with its model number and suffix.
    ("User's phone is an iPhone 15 Pro.", {"iPhone 15 Pro"}),
    ("User's phone is an iPhone 15.", {"iPhone 15"}),
    ("User bought an iPhone 15 Pro Max last week.", {"iPhone 15 Pro Max"}),
    ("User uses a Pixel 8.", {"Pixel 8"}),
    ("User uses a Pixel 8 as a work phone.", {"Pixel 8"}),
    ("User uses a Pixel 8 Pro.", {"Pixel 8 Pro"}),
    ("User wears an Apple Watch Series 9.", {"Apple Watch Series 9"}),
    ("User types on a mechanical Keychron K2 keyboard.", {"Keychron K2"}),
    ("The team moved to Python 3.12 in May.", {"Python 3.12"}),
    # People's names jieba tags as names stay, a dictionary's ordinary word before them goes.
    ("张伟和王磊负责部署。", {"张伟", "王磊"}),
    ("林悦是用户的同事。", {"林悦"}),
    ("用户对青霉素过敏，连接池由孙海涛维护。", {"孙海涛"}),
    ("“洞庭”的负责人是萧然，测试找汪洋。", {"萧然", "汪洋"}),
    # A date or a capitalised word spaCy labels a number is no measure.
    ("The daily standup is at 9:30.", {"daily standup"}),
    ("Retro notes live in the Retros space.", {"Retros space"}),
    # The organisation alone, whatever verb says the user works there.
    ("用户在蓝鲸科技工作。", {"蓝鲸科技"}),
    ("用户在蓝鲸科技工作，是后端开发工程师。", {"蓝鲸科技"}),
    ("用户去年在阿里工作。", {"阿里"}),
    ("用户在阿里工作过两年。", {"阿里"}),
    ("王磊在顺丰工作。", {"王磊", "顺丰"}),
    ("用户在蓝鲸科技上班。", {"蓝鲸科技"}),
    ("用户在蓝鲸科技任职。", {"蓝鲸科技"}),
    ("用户在蓝鲸科技供职。", {"蓝鲸科技"}),
    ("用户在腾讯实习。", {"腾讯"}),
    ("用户在北京大学读书。", {"北京大学"}),
    ("The user works at Blue Whale Tech.", {"Blue Whale Tech"}),
    ("User worked at Alibaba last year.", {"Alibaba"}),
    # Such a verb before a noun is part of the topic (架构评审 above ends on another verb).
    ("用户的工作电脑是 MacBook Pro。", {"工作电脑", "MacBook Pro"}),
]


@pytest.fixture(scope="module", autouse=True)
def prepared():
    bootstrap.prepare()


def names_of(text: str) -> set[str]:
    return {value for _, value in nlp.extract_entities(normalize_quotes(text))}


@pytest.mark.parametrize(("text", "junk"), JUNK, ids=[sorted(j)[0] for _, j in JUNK])
def test_junk_is_no_entity(text, junk):
    found = names_of(text)
    assert not found & junk, found


@pytest.mark.parametrize(("text", "wanted"), NAMES, ids=[sorted(w)[0] for _, w in NAMES])
def test_names_stay_entities(text, wanted):
    found = names_of(text)
    assert wanted <= found, found


def test_a_person_name_tag_is_trusted_unless_the_word_is_an_ordinary_one():
    from memories.language import names

    for word in ("过敏", "脱敏", "矫正", "连接池", "幼儿园"):
        assert names.jieba_tag(word, "nr") == "n", word
    for word in (
        "张伟",
        "王磊",
        "赵敏",
        "孙海涛",
        "林悦",
        "朵朵",
        "周杰伦",
        "李娜",
        "汪洋",
        "丁宁",
    ):
        assert names.jieba_tag(word, "nr") == "nr", word
    assert names.jieba_tag("过敏", "v") == "v"


def test_a_name_is_one_entity_spelt_as_written():
    found = names_of("User is reading 'Designing Data-Intensive Applications'.")
    assert {name_key(n) for n in found if "designing" in n.lower()} == {
        "designing data-intensive applications"
    }, found


def test_the_batch_applies_the_same_rules():
    texts = [text for text, _ in JUNK + NAMES]
    assert nlp.extract_entities_batch([normalize_quotes(t) for t in texts]) == [
        nlp.extract_entities(normalize_quotes(t)) for t in texts
    ]


DEMO_NAMES = {"Poco", "飞书", "钉钉", "林清", "王磊", "Atlas", "Marco", "青鸟", "PostgreSQL"}
DEMO_JUNK = {"Dark", "Code", "SUM", "HYPERLINK", "VS", "IP", "API keys"} | {
    "English summaries",
    "和运维",
    "画图优先",
    "文档批量",
    "表格优先",
    "风险",
    "结论",
    "负责人",
    "简体中文",
    "结论先行",
    "SVG",
}


def test_the_demo_memory_names_what_a_person_would_click():
    texts = [normalize_quotes(t) for m in DEMO_MEMORIES for t in (m.text, m.final_text)]
    found = {value for entities in nlp.extract_entities_batch(texts) for _, value in entities}
    assert found >= DEMO_NAMES
    assert not found & DEMO_JUNK, found & DEMO_JUNK


# --- on the real PostgreSQL ----------------------------------------------------------------------
def _entity_rows(scope_key: str) -> dict[str, tuple[str, set[str]]]:
    """name key -> (row id, linked memory ids) of the scope's entity rows."""
    return {
        name_key(row.payload["data"]): (str(row.id), set(row.linked_memory_ids))
        for row in EntityRow.objects.filter(payload__user_id=scope_key).defer("vector")
    }


def _plant(scope_key: str, name: str, memory_ids: list[str]) -> None:
    """An entity row as the old extractor wrote it (its vector borrowed from a memory)."""
    with connection.cursor() as cur:
        cur.execute(
            "INSERT INTO poco_memories_entities (id, vector, payload) "
            "SELECT gen_random_uuid(), vector, jsonb_build_object('data', %s::text, "
            "'entity_type', 'IDENTIFIER', 'user_id', %s::text, "
            "'linked_memory_ids', to_jsonb(%s::text[])) "
            "FROM poco_memories WHERE id = %s::uuid",
            (name, scope_key, memory_ids, memory_ids[0]),
        )


@pytest.mark.django_db(transaction=True)  # Mem0's own connections must see the rewritten rows
def test_the_migration_rederives_stored_entities_and_keeps_links_consistent(
    scope, other_scope, agent
):
    texts = {
        "vs": "用户习惯用 VS Code 写代码。",
        "ops": "“王磊”负责“Poco”的部署和运维。",
        "excel": '用户在 Excel 里用 =HYPERLINK("http://x") 放链接。',
        "kestrel": "Maya Chen leads Kestrel.",
    }
    ids = {}
    for key, text in texts.items():
        outcome = services.memory_add(scope=scope, text=text, actor=agent)
        assert outcome.memory_id is not None, outcome
        ids[key] = outcome.memory_id
    other = services.memory_add(scope=other_scope, text="团队沟通统一用“飞书”。", actor=agent)
    assert other.memory_id is not None
    before = _entity_rows(scope.key)
    # The index as the old extractor left it: split names, formula words, segmentation fragments,
    # and a link to a memory that is gone.
    with connection.cursor() as cur:
        cur.execute(
            "DELETE FROM poco_memories_entities WHERE payload->>'user_id' = %s "
            "AND payload->>'data' IN ('VS Code', 'Excel')",
            (scope.key,),
        )
    _plant(scope.key, "VS", [ids["vs"]])
    _plant(scope.key, "Code", [ids["vs"]])
    _plant(scope.key, "和运维", [ids["ops"]])
    _plant(scope.key, "HYPERLINK", [ids["excel"]])
    _plant(scope.key, "Excel", [ids["excel"], "00000000-0000-0000-0000-000000000000"])
    _plant(other_scope.key, "Dark", [other.memory_id])

    import_module("memories.migrations.0016_entity_names_only").relink_entities(
        None, connection.schema_editor()
    )

    after = _entity_rows(scope.key)
    wanted = {
        name_key(name): {ids[key] for key, text in texts.items() if name in names_of(text)}
        for text in texts.values()
        for name in names_of(text)
    }
    assert {k: links for k, (_, links) in after.items()} == wanted
    assert {"vs code", "excel", "王磊", "poco", "maya chen", "kestrel"} <= set(after)
    assert not {"vs", "code", "和运维", "hyperlink"} & set(after)
    # A name still found keeps its row: its id, and the pinyin recall reads.
    assert after["王磊"][0] == before["王磊"][0]
    assert after["kestrel"][0] == before["kestrel"][0]
    pinyin = EntityRow.objects.get(id=after["王磊"][0]).payload["pinyin"]
    assert "wanglei" in pinyin
    # Every scope is done, each with its own memories only.
    assert set(_entity_rows(other_scope.key)) == {"飞书"}
    # Recall's entity channel finds the rebuilt names.
    from memories import selectors
    from memories.types import Channel

    channels = selectors.recall_channels(scope=scope, query="VS Code 的字体", pool=10)
    assert ids["vs"] in [h.id for h in channels[Channel.ENTITY]]


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_roles_and_modifiers_out_of_stored_names(scope, agent):
    texts = ["项目负责人赵敏负责排期。", "User drives a white Tesla Model 3."]
    ids = [services.memory_add(scope=scope, text=t, actor=agent).memory_id for t in texts]
    assert all(ids), ids
    # The index as the previous rules left it.
    _plant(scope.key, "项目负责人赵敏", [ids[0]])
    _plant(scope.key, "white Tesla Model", [ids[1]])

    import_module("memories.migrations.0022_entity_names_without_roles").relink_entities(
        None, connection.schema_editor()
    )

    after = _entity_rows(scope.key)
    assert after["赵敏"][1] == {ids[0]}
    assert after["tesla model 3"][1] == {ids[1]}
    assert not {"项目负责人赵敏", "white tesla model"} & set(after)


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_the_verb_of_a_workplace_out_of_stored_names(scope, agent):
    texts = ["用户在蓝鲸科技工作。", "用户去年在阿里工作。"]
    ids = [services.memory_add(scope=scope, text=t, actor=agent).memory_id for t in texts]
    assert all(ids), ids
    # The index as the previous rules left it.
    _plant(scope.key, "蓝鲸科技工作", [ids[0]])
    _plant(scope.key, "阿里工作", [ids[1]])

    import_module("memories.migrations.0023_entity_names_without_verbs").relink_entities(
        None, connection.schema_editor()
    )

    after = _entity_rows(scope.key)
    assert after["蓝鲸科技"][1] == {ids[0]}
    assert after["阿里"][1] == {ids[1]}
    assert not {"蓝鲸科技工作", "阿里工作"} & set(after)


@pytest.mark.django_db
def test_the_demo_heat_map_shows_names(settings, tmp_path):
    from django.contrib.auth import get_user_model

    from memories.scope import scope_for_user
    from memories.selectors import topic_heatmap

    settings.DATA_DIR = tmp_path
    call_command("seed_demo", stdout=StringIO())
    scope = scope_for_user(get_user_model().objects.get(username="demo"))
    topics = {t.text for t in topic_heatmap(scope=scope, limit=100)}
    assert topics >= DEMO_NAMES
    assert not topics & DEMO_JUNK, topics & DEMO_JUNK
