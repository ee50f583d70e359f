"""Which language a text is written in, as far as the meaning channel's floors care.

The second model's cosines sit at different heights for different pairs of languages: a
Chinese question and a Chinese memory that belong together score ~0.91 (median), an English
pair ~0.86, a question and a memory in different languages ~0.82, and an off-topic question's
best cosine over a memory sits lower in the same order (docs/retrieval.md, "Floors per pair of
languages").  One floor for every pair drops the lower-scoring pairs, so the meaning channel
has a floor per pair: the question's language and the memory's, Chinese (any Han character:
a mixed text like "PR 需要几个人 review" reads as Chinese to e5) or not.
"""

from __future__ import annotations

import re
from enum import StrEnum

# CJK unified ideographs and their extension A, and the compatibility block.
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


class Written(StrEnum):
    ZH = "zh"  # holds Han characters (Chinese, or Chinese mixed with English)
    EN = "en"  # holds none


def written_in(text: str) -> Written:
    return Written.ZH if _HAN.search(text) else Written.EN
