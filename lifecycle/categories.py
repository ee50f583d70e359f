"""A fact's category from its wording (deterministic; the LLM does not return one)."""

from __future__ import annotations

import re

from memories.types import Category

RULES: tuple[tuple[Category, re.Pattern[str]], ...] = (
    (
        Category.CONSTRAINT,
        re.compile(r"不要|禁止|不得|不能|必须|务必|严禁|\bnever\b|\bmust\b|\bdo not\b", re.I),
    ),
    (Category.GOAL, re.compile(r"目标|计划|希望在|打算|\bgoal\b|\bplan(s|ning)? to\b", re.I)),
    (
        Category.PREFERENCE,
        re.compile(
            r"偏好|喜欢|习惯|倾向|优先|统一使用|都用|\bprefer|\blikes?\b|\bfavou?rite"
            # How the user wants to be answered, said as an instruction to the assistant.
            r"|(?:回答|回复|答复)(?:用户|我)|啰嗦|尽量简[短洁]|统一用|请用|叫(?:用户|我)"
            r"|\balways\s+use\b"
            r"|\b(?:answer|reply\s+to|respond\s+to|write\s+to)\s+the\s+user\b"
            r"|\bkeep\s+(?:the\s+)?(?:answers|replies|responses)\s+(?:short|brief|concise)\b",
            re.I,
        ),
    ),
    (
        Category.PROJECT,
        re.compile(r"项目|仓库|架构|技术栈|约定|规范|\bproject\b|\brepo\b|\bconvention", re.I),
    ),
)


def categorize(text: str) -> Category:
    for category, pattern in RULES:
        if pattern.search(text):
            return category
    return Category.FACT
