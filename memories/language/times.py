"""Words that place what a text says at an hour or on a day of the week ("周三下午", "十点前",
"mornings", "9:30 am").

One home for the extractor and recall: the extractor reads a weekday's afternoon as this week's
(``memories.engine.extraction.rules``), recall reads a memory so worded as holding the user's
time (``memories.recall.schedule``).
"""

from __future__ import annotations

import re
from typing import Final

# A day of the week, 周末 included; 星期 or 礼拜 alone is a week ("两个星期"), not a day.
WEEKDAY_ZH: Final = r"(?:周|星期|礼拜)[一二三四五六日天末]"
# A part of the day.
PART_OF_DAY_ZH: Final = r"[上下中]午|早上|晚上|傍晚|深夜|凌晨"
# An hour: 十点, 两点半, 9点, 十一点前; 一点 only as an hour ("一点辣" is a little).
HOUR_ZH: Final = (
    r"(?:[0-9０-９]{1,2}|[两三四五六七八九十]{1,2}|十[一二])点|一点(?=[半钟前后以之到左整])"
)
# The same in English, whole words (case is the caller's flag).
WEEKDAY_EN: Final = (
    r"\b(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?|"
    r"weekends?)\b"
)
PART_OF_DAY_EN: Final = (
    r"\b(?:mornings?|afternoons?|evenings?|nights?|midnight|noon|lunch(?:time)?|bedtime)\b"
)
HOUR_EN: Final = r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)|\b\d{1,2}:\d{2}\b"
# A whole text that is a day of the week, in either case (a dictionary sense, a keyword form).
WEEKDAY_WORD: Final = re.compile(WEEKDAY_EN, re.IGNORECASE)
