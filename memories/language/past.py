"""Words that place what a text says in the past ("去年", "以前", "上个月", "used to", "last year").

One home for the extractor and recall: the extractor reads a fact dated so as history or as a
one-off (``memories.engine.extraction.rules``, ``keys``), recall reads a question so worded as
asking about the past and a memory so worded as a past state (``memories.recall.fusion``).
"""

from __future__ import annotations

import re
from typing import Final

# Dated relative to today in the past ("上周", "上个月", "前几天", "last week", "two days ago").
_DATED_ZH = (
    r"上上?个?(?:周|星期|礼拜)[一二三四五六日天末]?|上上?个?月(?:初|中|底)?|前几天|前两天|前阵子"
)
_DATED_EN = (
    r"\blast (?:week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|"
    r"\b(?:a|one|two|three|four|five|six|a few|a couple of|\d+) (?:days?|weeks?|months?) ago\b"
)
PAST_DATED: Final = re.compile(rf"{_DATED_ZH}|{_DATED_EN}", re.IGNORECASE)

# A past year ("去年", "2023年", "last year", "in 2020"); not "2023年起", from then on.
_YEAR = (
    r"去年|前年|那年|当年|早年|(?:19|20)\d\d\s*年(?![起初]|开始|以来)"
    r"|\blast year\b|\b(?:in|during|back in) (?:19|20)\d\d\b|\byears ago\b"
)
PAST_YEAR: Final = re.compile(_YEAR, re.IGNORECASE)

# Words that say a state held before and no longer ("用户以前住在武汉").
FORMERLY_ZH: Final = r"以前|之前|曾|原来|过去"
_FORMERLY = (
    rf"曾经|从前|以往|早先|当时|那时候?|{FORMERLY_ZH}|"
    r"\b(?:used to|previously|formerly|in the past|back then|before)\b"
)

# Said to have held before, with no date ("用户原来用Vim", "The user used to use Emacs"): the
# narrow words, which never mean anything else (之前 and 过去 also say "before a date" and "over
# there": "搬过去").
FORMERLY: Final = re.compile(
    r"以前|原来|曾经|从前|\b(?:used to|previously|formerly)\b", re.IGNORECASE
)

# Any of them: a time gone by.
PAST_TIME: Final = re.compile(rf"{_YEAR}|{_DATED_ZH}|{_DATED_EN}|{_FORMERLY}", re.IGNORECASE)
