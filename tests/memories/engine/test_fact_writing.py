"""Writing the fact: one short statement about the user, in the user's language, the user's own
names and quotes kept exactly. The examples are outputs the rules extractor really produced
("User'm", "User prefer", a wrapper or a filler kept, two facts in one, a fragment)."""

from __future__ import annotations

import pytest

from memories.engine.extraction.facts import sentences, write
from memories.engine.extraction.pipeline import extract_facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # "I'm" became "User'm"; the wrapper after the fact was kept.
        (
            "I'm vegetarian, keep that in mind whenever you suggest restaurants.",
            ["The user is vegetarian."],
        ),
        # "I prefer" became "User prefer".
        (
            "I prefer Celsius and metric units in all answers.",
            ["The user prefers Celsius and metric units in all answers."],
        ),
        (
            "I always use Neovim and I work at Shopify.",
            ["The user always uses Neovim.", "The user works at Shopify."],
        ),
        (
            "My timezone is Asia/Singapore, please schedule things accordingly from now on.",
            ["The user's timezone is Asia/Singapore."],
        ),
        (
            "Our production cluster runs in the Frankfurt region; assume that for any latency "
            "estimates.",
            ["The user's production cluster runs in the Frankfurt region."],
        ),
        (
            "We're a fintech startup and we deploy on Fridays.",
            ["The user's team is a fintech startup.", "The user's team deploys on Fridays."],
        ),
        (
            "For all future SQL you write for me, use the PostgreSQL dialect, not MySQL.",
            [
                "For all future SQL the assistant writes for the user, use the PostgreSQL "
                "dialect, not MySQL."
            ],
        ),
        ("我对青霉素过敏，这个很重要，一定要记住。", ["用户对青霉素过敏。"]),
        (
            "I'm allergic to shellfish — keep that in mind whenever you suggest restaurants.",
            ["The user is allergic to shellfish."],
        ),
        ("好，那以后缓存都统一用 Redis。", ["以后缓存都统一用 Redis。"]),
        (
            "OK so from now on, I want answers in English.",
            ["From now on, the user wants answers in English."],
        ),
        (
            "以后所有技术方案都使用简体中文，项目叫“Poco”。",
            ["以后所有技术方案都使用简体中文。", "项目叫“Poco”。"],
        ),
        # The user's quotation marks are theirs: “陈工” is not turned into "陈工".
        (
            "以后给我写邮件草稿的时候，落款统一用“陈工”。",
            ["以后给用户写邮件草稿的时候，落款统一用“陈工”。"],
        ),
        (
            "我们的设计系统叫“Aurora”，所有前端组件都要遵循它的规范。",
            ["用户团队的设计系统叫“Aurora”，所有前端组件都要遵循它的规范。"],
        ),
        ("我们团队每周一开例会，以后都按这个来。", ["用户的团队每周一开例会。"]),
        # First person inside the user's quotes is a quote, not the user.
        ("我的口头禅是“我来搞定”。", ["用户的口头禅是“我来搞定”。"]),
        # A clause that only says when is not a fact of its own; "TL;DR" is not two clauses.
        (
            "上次数据库误删的事之后，我们团队定了规矩：生产库的 DELETE 先在从库上确认行数。",
            ["上次数据库误删的事之后，用户的团队定了规矩：生产库的 DELETE 先在从库上确认行数。"],
        ),
        (
            "Put the TL;DR at the top of every doc you write for me.",
            ["Put the TL;DR at the top of every doc the assistant writes for the user."],
        ),
        ("参考和", []),
        ("Use the and", []),
        # A wrapper clause ("Remember this:") lost its verb to the filler and left "This:".
        ("Remember this: always use metric units.", ["Always use metric units."]),
        ("Note this: our repo uses pnpm.", ["The user's repo uses pnpm."]),
        # "FYI," alone before the comma was kept.
        (
            "FYI, our team deploys on Fridays only.",
            ["The user's team deploys on Fridays only."],
        ),
        # The wrapper with its object first ("这个一定要记住") was kept after the content.
        (
            "以后写技术方案都用简体中文，先给结论再展开，这个一定要记住。",
            ["以后写技术方案都用简体中文，先给结论再展开。"],
        ),
        ("周报都用表格，这点千万别忘了。", ["周报都用表格。"]),
        # A sentence-final particle (哦/呀/啦/呢) is tone, not content; 酒吧 is a word.
        ("以后写技术方案都用简体中文哦，别忘了！", ["以后写技术方案都用简体中文。"]),
        ("我周末常去酒吧。", ["用户周末常去酒吧。"]),
        # The second verb of "I … and …" had no subject to agree with: "the user … and work".
        (
            "I live in Berlin and work in the CET timezone.",
            ["The user lives in Berlin and works in the CET timezone."],
        ),
        (
            "I live in Berlin and usually start at 10am.",
            ["The user lives in Berlin and usually starts at 10am."],
        ),
        ("We use Go and deploy to AWS.", ["The user's team uses Go and deploys to AWS."]),
        ("I like tea and coffee.", ["The user likes tea and coffee."]),
        # A condition of the user's own habit ("数据量大的时候…") was taken for a clause telling
        # the assistant how to apply the fact, and dropped.
        (
            "我是做数据分析的，平时用 Python 和 pandas，数据量大的时候用 Spark。",
            ["用户是做数据分析的，平时用 Python 和 pandas，数据量大的时候用 Spark。"],
        ),
        ("我有乳糖不耐受，推荐早餐的时候避开牛奶。", ["用户有乳糖不耐受。"]),
        # A bare decision is no fact: "那用户的团队就定了吧" was stored.
        ("那我们就定了吧", []),
        ("OK, we're settled then.", []),
        # A prepositional phrase before the subject is not a fact of its own ("For estimates.").
        (
            "For estimates, our team uses story points.",
            ["For estimates, the user's team uses story points."],
        ),
        # A sentence without a full stop ends with one.
        ("我住在杭州", ["用户住在杭州。"]),
        # Found by a second probe over HTTP: "myself" became a verb ("The user myselfs coach…").
        (
            "I myself coach my son's soccer team.",
            ["The user coaches the user's son's soccer team."],
        ),
        (
            "I do all the bookkeeping myself in QuickBooks.",
            ["The user does all the bookkeeping in QuickBooks."],
        ),
        # An answer's "no" before the statement is the conversation's, not the fact's.
        ("不是，我们早就换成 PostgreSQL 了。", ["用户的团队早就换成 PostgreSQL 了。"]),
        ("不要，我们只用关系型数据库。", ["用户的团队只用关系型数据库。"]),
        (
            "No, we moved to PostgreSQL last year.",
            ["The user's team moved to PostgreSQL last year."],
        ),
        # What noise removal leaves ending in a preposition is a fragment ("…docs live at.").
        ("Our docs live at and we use Confluence.", ["The user's team uses Confluence."]),
    ],
)
def test_a_sentence_becomes_the_facts_a_person_would_write(said, facts):
    assert write(said) == facts


# Found by a black-box probe over HTTP ingest: what was stored is in the comment above each.
@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # A pronoun inside an identifier is part of the name: "the user's team-west-2",
        # "oh-the user's-zsh".
        ("Our servers are in us-west-2.", ["The user's servers are in us-west-2."]),
        (
            "我们的 CI 用 GitHub Actions，deploy 到 AWS us-east-1。",
            ["用户团队的 CI 用 GitHub Actions，deploy 到 AWS us-east-1。"],
        ),
        (
            "Our prod is in eu-west-1 and our staging env is called us-staging.",
            ["The user's prod is in eu-west-1.", "The user's staging env is called us-staging."],
        ),
        ("I use iTerm2 with oh-my-zsh.", ["The user uses iTerm2 with oh-my-zsh."]),
        ("I self-host everything.", ["The user self-hosts everything."]),
    ],
)
def test_a_pronoun_inside_an_identifier_stays_as_typed(said, facts):
    assert write(said) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # 我们 was always "用户的团队": "用户的团队家养了两只狗。"
        ("我们家养了两只狗。", ["用户家养了两只狗。"]),
        ("我们家周末一般去爬山。", ["用户家周末一般去爬山。"]),
        ("我们学校要求研究生每周组会汇报。", ["用户的学校要求研究生每周组会汇报。"]),
        ("我们小区楼下有个健身房", ["用户所在的小区楼下有个健身房。"]),
        # Two people, no one else named: not "用户他们俩" (test_extraction_context.py).
        ("我们俩周末都要加班。", ["用户两人周末都要加班。"]),
        ("我们周末一般去爬山。", ["用户周末一般去爬山。"]),
        (
            "我对象是设计师，我们打算明年结婚。",
            ["用户的对象是设计师。", "用户和对象打算明年结婚。"],
        ),
        ("We have two dogs and a cat at home.", ["The user has two dogs and a cat at home."]),
        ("We usually go hiking on weekends.", ["The user usually goes hiking on weekends."]),
        # A work context is the team.
        ("我们每次发布后都要在群里发通知。", ["用户的团队每次发布后都要在群里发通知。"]),
        ("我们周五不上线。", ["用户的团队周五不上线。"]),
        ("We ship on Tuesdays.", ["The user's team ships on Tuesdays."]),
        (
            "We keep secrets in HashiCorp Vault.",
            ["The user's team keeps secrets in HashiCorp Vault."],
        ),
        ("We're a Django shop.", ["The user's team is a Django shop."]),
    ],
)
def test_we_is_the_team_only_at_work(said, facts):
    assert write(said) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # "The user is both vegetarian." + "The user's wife."
        (
            "My wife and I are both vegetarian.",
            ["The user and the user's wife are both vegetarian."],
        ),
        ("Jordan and I live in Leeds.", ["The user and Jordan live in Leeds."]),
        (
            "My wife and I are vegetarian and we cook at home.",
            [
                "The user and the user's wife are vegetarian.",
                "The user and the user's wife cook at home.",
            ],
        ),
        ("我和我老婆都吃素。", ["用户和用户的老婆都吃素。"]),
    ],
)
def test_the_user_and_someone_is_one_subject(said, facts):
    assert write(said) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # "The user noes longer work at Google."
        (
            "I no longer work at Google; I'm at Stripe now.",
            ["The user no longer works at Google.", "The user is at Stripe now."],
        ),
        # "And the user prefers…"
        (
            "I'm a data scientist at Shopify, based in Toronto, and I prefer answers with code in "
            "Python.",
            [
                "The user is a data scientist at Shopify, based in Toronto.",
                "The user prefers answers with code in Python.",
            ],
        ),
        # "The user is Chinese but live in Germany, answer in Chinese…"
        (
            "I'm Chinese but live in Germany, so answer in Chinese but use metric units and euros.",
            [
                "The user is Chinese but lives in Germany.",
                "Answer in Chinese but use metric units and euros.",
            ],
        ),
        # "The user is based in the US, always use imperial units."
        (
            "I'm based in the US, so always use imperial units.",
            ["The user is based in the US.", "Always use imperial units."],
        ),
        # Stored only the first fact: "don't" after "so" was taken for how to apply it.
        (
            "I usually go to bed around 1am, so don't schedule anything before 10am.",
            ["The user usually goes to bed around 1am.", "Don't schedule anything before 10am."],
        ),
        # A consequence for the assistant that refers back or speaks to it is still dropped.
        (
            "I'm a pescatarian, so whenever you plan meals for me leave out meat.",
            ["The user is a pescatarian."],
        ),
        # "The user doesn't eat honey either."
        (
            "I'm vegan and I don't eat honey either.",
            ["The user is vegan.", "The user doesn't eat honey."],
        ),
        # "The user haven'ts decided": a negation took the -s of a verb.
        ("I haven't decided yet.", ["The user hasn't decided yet."]),
        ("We haven't picked a database.", ["The user's team hasn't picked a database."]),
        ("I didn't like the old layout.", ["The user didn't like the old layout."]),
    ],
)
def test_english_stays_grammatical(said, facts):
    assert write(said) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # What admission leaves of "我们的服务部署在 /opt/app 下面，日志在 /var/log/app。"
        ("我们的服务部署在下面，日志在。", []),
        ("我们的服务部署在 K8s 上，日志在。", ["用户团队的服务部署在 K8s 上。"]),
        # …of "文档地址是 https://wiki.example.com/poco ，以后有问题先查这个。": what points at
        # the cut link goes with it.
        ("文档地址是，以后有问题先查这个。", []),
        ("配置文件放到，改完要重启。", ["改完要重启。"]),
        # …of "Our API is versioned under /api/v2 and we never break backwards compatibility."
        (
            "Our API is versioned under and we never break backwards compatibility.",
            ["The user's team never breaks backwards compatibility."],
        ),
        ("Our docs are in, and we use Confluence.", ["The user's team uses Confluence."]),
        # Words that end in 在/是/到 are no stub.
        ("我总是迟到。", ["用户总是迟到。"]),
        ("I always log in.", ["The user always logs in."]),
        # A preposition whose object came before it, an object after a colon: no stub.
        (
            "I'm American and that's what I think in.",
            ["The user is American and that's what the user thinks in."],
        ),
        ("我的工作邮箱签名是：张晓雨｜增长部。", ["用户的工作邮箱签名是：张晓雨｜增长部。"]),
        ("我的偏好是，回答简短。", ["用户的偏好是，回答简短。"]),
    ],
)
def test_a_clause_whose_object_was_cut_out_is_a_fragment(said, facts):
    assert write(said) == facts


def test_a_path_cut_out_by_admission_leaves_no_stub():
    from memories.admission.noise import clean_text

    said = "我们的 API 部署在 /opt/app 下面，统一用 Go 写。"
    facts = extract_facts([("user", clean_text(said))], decide=None)
    assert [f["text"] for f in facts] == ["统一用 Go 写。"]


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # "用户的偏好。" (a fragment) and the items without what they are.
        (
            "我的偏好：\n1. 回答用中文\n2. 代码示例用 Python\n3. 不要用 emoji",
            [
                "用户的偏好：回答用中文。",
                "用户的偏好：代码示例用 Python。",
                "用户的偏好：不要用 emoji。",
            ],
        ),
        # "- 用户的团队用 pnpm。": the marker was kept.
        (
            "- 我们用 pnpm\n- 测试框架用 Vitest\n- 代码风格用 Prettier 默认配置",
            ["用户的团队用 pnpm。", "测试框架用 Vitest。", "代码风格用 Prettier 默认配置。"],
        ),
        (
            "Our stack:\n* Backend in Go\n* Frontend in React",
            ["The user's stack: Backend in Go.", "The user's stack: Frontend in React."],
        ),
        ("1、回答用中文\n2、单位用公制", ["回答用中文。", "单位用公制。"]),
        # A line ending in a colon without a list after it is a sentence as before; 3.11 is no
        # list marker.
        ("我们用 Python 3.11。", ["用户的团队用 Python 3.11。"]),
    ],
)
def test_each_list_item_is_a_sentence_with_its_heading(said, facts):
    assert [f["text"] for f in extract_facts([("user", said)], decide=None)] == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # "…penicillin, this is very important."
        (
            "I'm allergic to penicillin, this is very important, please remember.",
            ["The user is allergic to penicillin."],
        ),
        # "Keep in mind that the user's fiscal year…"
        (
            "Keep in mind that our fiscal year starts in April.",
            ["The user's fiscal year starts in April."],
        ),
        ("Note that we deploy on Fridays only.", ["The user's team deploys on Fridays only."]),
        ("Just so you know, I'm left-handed.", ["The user is left-handed."]),
        ("For the record, I don't drink coffee.", ["The user doesn't drink coffee."]),
        ("Important: I'm allergic to nuts.", ["The user is allergic to nuts."]),
        ("注意：我对花生过敏。", ["用户对花生过敏。"]),
        ("I'm allergic to nuts. This is important!", ["The user is allergic to nuts."]),
    ],
)
def test_an_english_wrapper_is_dropped(said, facts):
    assert [f for s in sentences(said) for f in write(s)] == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # An answer before the statement: "Python 吧，用户的组都用 Python 3.11。"
        ("Python 吧，我们组都用 Python 3.11。", ["用户的组都用 Python 3.11。"]),
        # An interjection: "唉，用户最近失眠很严重。"
        ("唉，我最近失眠很严重。", ["用户最近失眠很严重。"]),
        ("哈哈，我是猫奴。", ["用户是猫奴。"]),
        # Kinship glued to 用户: "用户妈不吃海鲜。"
        ("我妈不吃海鲜。", ["用户的妈妈不吃海鲜。"]),
        ("我哥在美国读博。", ["用户的哥哥在美国读博。"]),
        ("我老婆叫王丽", ["用户的老婆叫王丽。"]),
        ("我女儿今年上小学。", ["用户的女儿今年上小学。"]),
        ("我儿子喜欢踢足球。", ["用户的儿子喜欢踢足球。"]),
        ("我老板要求每周五交周报。", ["用户的老板要求每周五交周报。"]),
        ("我爸妈住在成都。", ["用户的父母住在成都。"]),
        ("我妈妈是老师。", ["用户的妈妈是老师。"]),
        # "用户的团队 team", "用户的团队的"
        ("我们 team 每天 standup 是 10 点。", ["用户的团队每天 standup 是 10 点。"]),
        ("我们团队的 on-call 是轮值的。", ["用户团队的 on-call 是轮值的。"]),
        # "用户的组的代码规范"
        (
            "我们组的代码规范：Python 一律用 black 格式化。",
            ["用户所在组的代码规范：Python 一律用 black 格式化。"],
        ),
        ("我们 data team 用 Metabase。", ["用户的 data team 用 Metabase。"]),
        # A second fact about the user's team lost its owner: "团队一共 6 个人。"
        ("我是后端负责人，团队一共 6 个人。", ["用户是后端负责人。", "用户的团队一共 6 个人。"]),
        # …and its company became its team: "用户的团队在海淀".
        (
            "我家在朝阳区，公司在海淀，通勤一个小时。",
            ["用户家在朝阳区。", "用户的公司在海淀，通勤一个小时。"],
        ),
        # An instruction after 所以/因此 is a fact of its own ("用户一般凌晨一点睡。" alone).
        (
            "我一般凌晨一点睡，所以别在早上十点前给我安排会议",
            ["用户一般凌晨一点睡。", "别在早上十点前给用户安排会议。"],
        ),
        ("我对海鲜过敏，因此不要推荐海鲜餐厅。", ["用户对海鲜过敏。", "不要推荐海鲜餐厅。"]),
        # "其实" is a filler: "其实用户挺喜欢 Go 的。"
        ("其实我挺喜欢 Go 的。", ["用户挺喜欢 Go 的。"]),
    ],
)
def test_chinese_person_and_leading_words(said, facts):
    assert write(said) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # One fact of two: "The user is a designer, and the company is in Berlin."
        (
            "I'm a designer, and the company is in Berlin.",
            ["The user is a designer.", "The user's company is in Berlin."],
        ),
        # Split, but the team lost its owner: "The team is remote."
        (
            "I'm a designer, and the team is remote.",
            ["The user is a designer.", "The user's team is remote."],
        ),
        (
            "I lead the backend, the team has six people.",
            ["The user leads the backend.", "The user's team has six people."],
        ),
    ],
)
def test_a_second_english_fact_about_the_bare_group_is_the_users(said, facts):
    """As in Chinese ("我家在朝阳区，公司在海淀"): the owner put before the bare group."""
    assert write(said) == facts


def test_a_dangling_fragment_left_by_noise_removal_is_not_stored():
    facts = extract_facts([("user", "用户希望周报结论先行。\n参考和")], decide=None)
    assert [f["text"] for f in facts] == ["用户希望周报结论先行。"]


def test_a_one_off_a_snapshot_and_an_unconfirmed_suggestion_are_not_candidates():
    messages = [
        ("user", "这次先生成一份 HTML 报告。当前可用的工具有 search 和 browser。"),
        ("assistant", "建议以后缓存统一用 Redis。"),
    ]
    assert extract_facts(messages, decide=None) == []


def test_the_assistant_confirming_the_users_statement_is_stored_once():
    messages = [
        ("user", "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。"),
        ("assistant", "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。"),
    ]
    facts = extract_facts(messages, decide=None)
    assert [(f["text"], f["attributed_to"]) for f in facts] == [
        ("以后所有技术方案都使用简体中文。", "user"),
        ("项目叫“Poco”。", "user"),
    ]


def test_an_assistant_confirmation_of_something_new_is_kept():
    messages = [
        ("user", "这次缓存用哪个好？"),
        ("assistant", "已确认：缓存统一使用 Redis。"),
    ]
    facts = extract_facts(messages, decide=None)
    assert [(f["text"], f["attributed_to"]) for f in facts] == [
        ("缓存统一使用 Redis。", "assistant")
    ]
