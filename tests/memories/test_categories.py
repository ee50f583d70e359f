"""A fact's category from its wording: deterministic, Chinese and English, first rule wins."""

from __future__ import annotations

import pytest

from memories.categories import categorize
from memories.models import MemoryRow
from memories.types import Category
from tests.memories.conftest import body


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # constraint
        ("不要在周末给用户发送通知", Category.CONSTRAINT),
        ("提交信息必须使用简体中文", Category.CONSTRAINT),
        ("Never push directly to the main branch", Category.CONSTRAINT),
        ("User must review every database migration", Category.CONSTRAINT),
        # goal
        ("用户的目标是年底前通过雅思考试", Category.GOAL),
        ("用户打算明年学习 Rust", Category.GOAL),
        ("User plans to migrate the service to Kubernetes", Category.GOAL),
        ("User's goal is to run a marathon", Category.GOAL),
        # preference
        ("用户偏好使用简体中文撰写技术方案", Category.PREFERENCE),
        ("用户喜欢简洁直接的回答", Category.PREFERENCE),
        ("User prefers dark mode in every editor", Category.PREFERENCE),
        ("User likes concise answers", Category.PREFERENCE),
        # how the user wants to be answered, said as an instruction (found over HTTP: "fact")
        ("以后回答用户的时候尽量简短一点，别啰嗦。", Category.PREFERENCE),
        ("Always answer the user in English and keep answers short.", Category.PREFERENCE),
        ("回复用户时用英文。", Category.PREFERENCE),
        ("Reply to the user with bullet points.", Category.PREFERENCE),
        ("Always use metric units.", Category.PREFERENCE),
        ("Python 代码请统一用 4 空格缩进。", Category.PREFERENCE),
        ("以后叫用户老陈就行。", Category.PREFERENCE),
        # project
        ("Poco 项目的后端使用 Django", Category.PROJECT),
        ("团队的代码规范采用 ruff 默认配置", Category.PROJECT),
        ("The Poco repo follows trunk-based development", Category.PROJECT),
        ("The team's naming convention is snake_case", Category.PROJECT),
        # fact
        ("用户是一名后端工程师，住在杭州", Category.FACT),
        ("User lives in Hangzhou and works as a backend engineer", Category.FACT),
    ],
)
def test_each_category_in_both_languages(text, category):
    assert categorize(text) == category


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("项目规范禁止提交生成的文件", Category.CONSTRAINT),  # constraint beats project
        ("用户计划在项目中统一使用 TypeScript", Category.GOAL),  # goal beats preference/project
        ("用户喜欢在 Poco 项目里写单元测试", Category.PREFERENCE),  # preference beats project
        ("User drives a Mustang", Category.FACT),  # whole words only: not "must"
        ("Mercury is the planet closest to the sun", Category.FACT),  # not "plan to"
        ("User studies projection mapping", Category.FACT),  # not "project"
        ("The user answers support tickets in English.", Category.FACT),  # the user's answers
        ("用户负责回答客户的问题。", Category.FACT),
        ("用户最近在读《凤凰项目》这本书。", Category.FACT),  # a title names a book, no project
        # 项目 as the modifier of a person or a thing, with no project named: about the person
        ("项目负责人赵敏下周休假。", Category.FACT),
        ("用户是项目经理。", Category.FACT),
        ("The project manager Dana is on leave next week.", Category.FACT),
        ("北斗项目负责人是陈静。", Category.PROJECT),  # a named project's owner
        ("Dana is the Atlas project manager.", Category.PROJECT),
        ("用户在读《必须知道的 100 个规范》。", Category.FACT),
    ],
)
def test_first_rule_wins_and_words_are_whole(text, category):
    assert categorize(text) == category


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # how to answer, said as an instruction without naming the user (an outside probe
        # found these stored as "fact")
        ("以后回答默认用中文", Category.PREFERENCE),
        ("以后默认用英文回答", Category.PREFERENCE),
        ("Answer in English from now on", Category.PREFERENCE),
        ("Always reply in bullet points", Category.PREFERENCE),
        ("Please respond in Chinese", Category.PREFERENCE),
        # the tools the user works with
        ("用户的主力编辑器是 Vim", Category.PREFERENCE),
        ("User's main editor is Neovim", Category.PREFERENCE),
        # a rule for the assistant, said in the negative
        ("Don't schedule meetings before 10am", Category.CONSTRAINT),
        ("Don’t use emoji in commit messages", Category.CONSTRAINT),
        ("Avoid meetings on Friday afternoons", Category.CONSTRAINT),
        ("别在周末安排会议", Category.CONSTRAINT),
        # an allergy limits what may be suggested: a constraint, like the seeds' rules
        ("用户对花生过敏", Category.CONSTRAINT),
        ("The user is allergic to shellfish", Category.CONSTRAINT),
    ],
)
def test_instructions_tools_and_allergies(text, category):
    assert categorize(text) == category


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("The user answers support tickets in English.", Category.FACT),
        ("用户负责回答客户的问题。", Category.FACT),
        ("别人都叫他老王", Category.FACT),
        ("User doesn't own a car", Category.FACT),  # about the user, no rule for the assistant
        ("Poco 项目默认使用 Django", Category.PROJECT),  # a project's default, not the user's
        ("User writes Go at work", Category.FACT),
    ],
)
def test_what_the_new_rules_leave_alone(text, category):
    assert categorize(text) == category


@pytest.mark.parametrize(
    ("text", "memory_key", "category"),
    [
        ("Answer in English from now on", "preference.answer_language", Category.PREFERENCE),
        ("用户住在杭州", "preference.home_city_for_travel", Category.PREFERENCE),
        ("用户的主力编辑器是 Vim", "preference.editor", Category.PREFERENCE),
        ("用户住在杭州", "profile.home_city", Category.FACT),
        # the key says what the memory is the value of, whatever the wording
        ("Never answer in Chinese", "preference.answer_language", Category.PREFERENCE),
    ],
)
def test_a_preference_key_makes_a_preference(text, memory_key, category):
    assert categorize(text, memory_key=memory_key) == category


@pytest.mark.django_db
def test_an_explicit_add_without_a_category_takes_it_from_key_and_wording(v1, scope):
    def category_of(**fields) -> str:
        answer = v1.post("manage", body(scope, action="add", **fields)).json()
        assert answer["status"] == "added", answer
        return MemoryRow.objects.get(id=answer["memory_id"]).payload["category"]

    assert category_of(text="以后回答默认用中文") == "preference"
    assert (
        category_of(text="Answer in English from now on", memory_key="preference.answer_language")
        == "preference"
    )
    assert category_of(text="Don't schedule meetings before 10am") == "constraint"
    assert category_of(text="用户对花生过敏") == "constraint"
    assert category_of(text="用户住在杭州", memory_key="profile.home_city") == "fact"
    # a category the caller names is kept
    assert category_of(text="用户每周跑三次步", category="goal") == "goal"
