"""A fact's category from its wording: deterministic, Chinese and English, first rule wins."""

from __future__ import annotations

import pytest

from lifecycle.categories import categorize
from memories.types import Category


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
    ],
)
def test_first_rule_wins_and_words_are_whole(text, category):
    assert categorize(text) == category
