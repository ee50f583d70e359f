"""Calibration of the vector channel's floor (``min_score``) for the configured embedder.

The defect the floor exists for is an unrelated *question* getting answers, so it is
calibrated per question, over a memory:

* **positives** — query/memory pairs that belong together (Chinese, English, mixed and across
  the two languages): a floor keeps the pair when the pair's cosine reaches it (recall);
* **off-topic questions** — things people ask an assistant that no memory of this user is
  about (general knowledge, weather, recipes, trivia; Chinese and English): a floor answers
  one when its *best* cosine over the whole memory set (every positive's memory and every
  unrelated fact: a realistic personal memory of 40+ facts) reaches it.

For every floor we print recall, the share of off-topic questions answered, precision at the
question level (kept positives among kept positives + answered off-topic questions) and, for
reference, the per-pair false-pass rate (a query against another fact of the same user).  The
recommended floor maximises Youden's J at the question level — recall − off-topic answered
(the lowest such floor on a tie) — and the command also prints the lowest floor that answers
no off-topic question at all, with the recall it costs (docs/retrieval.md compares the two).
`python manage.py calibrate_min_score` prints them, and the bundled embedder's default
(``POCO_SEARCH_MIN_SCORE``) is that number.  The original design's 0.45 was calibrated for M3E.
The evaluation measures a floor chosen here, never the other way round; but the two sets are
not disjoint: 11 of the 32 queries below ("code review rules", "Which chat tool does the team
use?", …) and most of their memories are also in `make eval`'s set (eval/dataset.py).
docs/retrieval.md gives the check that this does not move the evaluation.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from memories.recall.languages import written_in

# (query, the memory it should find).  Memories read like stored facts; queries like an agent's.
POSITIVE_PAIRS: tuple[tuple[str, str], ...] = (
    ("Poco 项目的技术方案怎么写", "用户偏好使用简体中文输出技术方案"),
    ("这个项目优先考虑什么", "用户在“Poco”项目中优先考虑易维护性"),
    ("团队用什么沟通工具", "团队沟通用“飞书”"),
    ("需求对接人是谁", "需求对接人是“林清”"),
    ("报告用什么格式", "以后所有报告统一使用 HTML 格式"),
    ("用户喜欢什么编程语言", "用户最喜欢的编程语言是 Python"),
    ("数据库选型", "已确认采用 PostgreSQL 作为主数据库"),
    ("用户住在哪个城市", "用户住在杭州"),
    ("代码风格偏好", "用户偏好简洁的代码风格，函数不超过 50 行"),
    ("周报怎么写", "周报要结论先行，控制在一页以内"),
    ("测试怎么做", "用户要求每个功能都写单元测试"),
    ("前端框架用什么", "前端统一使用 HTMX，不引入 React"),
    ("回答的语气", "用户希望回答直接，不要客套话"),
    ("部署在哪里", "服务部署在阿里云的 Kubernetes 集群上"),
    ("用户的职业", "用户是后端工程师，负责支付系统"),
    ("会议时间安排", "用户每周一上午十点开例会"),
    ("What language should reports use?", "User prefers reports written in English"),
    ("Which database do we use?", "The team decided to use PostgreSQL as the main database"),
    ("What does the user like to drink?", "User likes green tea"),
    ("Where does the user work?", "User works at a fintech startup in Singapore"),
    ("preferred answer style", "User prefers concise answers with bullet points"),
    ("deployment platform", "Services are deployed on Kubernetes"),
    ("code review rules", "Every pull request needs two approvals before merging"),
    ("How should commit messages look?", "Commit messages follow the Conventional Commits format"),
    # mixed and cross-language: the vector channel is the only one that can find these
    ("代码注释用什么语言", "Code comments are written in English"),
    ("Which chat tool does the team use?", "团队沟通统一用“飞书”，不用邮件"),
    ("What is the user allergic to?", "用户对花生过敏"),
    ("用户晚上弹什么乐器", "User plays the piano every evening"),
    ("PR 需要几个人 review", "Every pull request needs two approvals before merging"),
    ("When is the weekly report due?", "周报每周五下午五点前提交"),
    ("用户早上喝什么", "User drinks a flat white every morning"),
    ("Where is the service deployed?", "服务部署在阿里云的 Kubernetes 集群上"),
)
# Facts unrelated to every query above: other things the same user's memory holds.
UNRELATED_FACTS: tuple[str, ...] = (
    "用户养了一只叫豆豆的猫",
    "用户周末喜欢爬山",
    "用户的生日在十月",
    "用户正在学做日本料理",
    "用户最喜欢的电影是《千与千寻》",
    "用户去年去了冰岛旅行",
    "User's favourite football team is Arsenal",
    "User collects vinyl records",
    "User's daughter is learning to swim",
    "User reads science fiction before bed",
)
# Off-topic questions: nothing in the memory set above is about them.
OFF_TOPIC_QUESTIONS: tuple[str, ...] = (
    "太阳系有几颗行星",
    "唐朝是哪一年建立的",
    "高铁票怎么退",
    "怎么去除衣服上的油渍",
    "世界上最高的山是哪座",
    "感冒了吃什么药好",
    "考研英语怎么复习",
    "多肉植物多久浇一次水",
    "黑洞是怎么形成的",
    "今年春节是几月几号",
    "怎么挑选西瓜",
    "长城有多长",
    "个人所得税怎么申报",
    "如何提高睡眠质量",
    "电动车电池能用几年",
    "北极熊吃什么",
    "怎么折纸飞机",
    "围棋的基本规则",
    "给我讲个笑话",
    "附近有什么好吃的火锅店",
    "How tall is the Eiffel Tower?",
    "What causes the northern lights?",
    "How do I change a flat tire?",
    "Who wrote Pride and Prejudice?",
    "How many bones are in the human body?",
    "Explain the rules of cricket",
    "When did the Roman Empire fall?",
    "What is the population of Canada?",
    "How do solar panels work?",
    "Translate good morning into French",
    "What are the symptoms of the flu?",
    "How long should I boil an egg?",
    "Which planet has the most moons?",
    "Tips for a job interview",
    "What is the speed of light?",
    "How do I get rid of ants in the kitchen?",
    "Who painted the Mona Lisa?",
    "best exercises for lower back pain",
    "How do airplanes stay in the air?",
    "Tell me a fun fact about octopuses",
)
FLOORS = tuple(round(0.10 + step / 100, 2) for step in range(41))  # 0.10 … 0.50

# --- floors per pair of languages (the second model) -------------------------------------------
# More English and cross-language pairs, and more English facts, for the meaning channel's floor
# per pair of languages (``memories.recall.languages``): the set above has 8 English and 8
# mixed or cross-language pairs, too few to place a floor on.  None of these shares a question
# with `make eval`'s set (eval/dataset.py).  The first model's floor and the second model's
# overall one stay calibrated on the set above alone.
MORE_PAIRS: tuple[tuple[str, str], ...] = (
    # English
    ("What's the user's job?", "User is a data engineer at a logistics company"),
    ("Where does the user live?", "User lives in Lisbon with two flatmates"),
    ("Which IDE does the user prefer?", "User writes code in IntelliJ IDEA"),
    ("What time is the team sync?", "The team sync is every Wednesday at 3 pm"),
    ("How should bugs be reported?", "Bugs are filed in Jira with steps to reproduce"),
    ("What pet does the user have?", "User has a border collie called Max"),
    ("What does the user do on Sundays?", "User goes cycling every Sunday morning"),
    ("Which cloud do we run on?", "All workloads run on Google Cloud in europe-west4"),
    ("How are secrets stored?", "Secrets live in HashiCorp Vault, never in the repository"),
    ("What is the user's sister's name?", "User's sister is called Hannah"),
    ("Which testing framework do we use?", "Backend tests are written with pytest"),
    ("How long should design reviews take?", "Design reviews are capped at forty-five minutes"),
    # across languages: a Chinese question, an English memory
    ("用户在学什么外语", "User is learning Japanese"),
    ("用户养了什么宠物", "User has a border collie called Max"),
    ("密钥存放在哪里", "Secrets live in HashiCorp Vault, never in the repository"),
    ("用户周日做什么", "User goes cycling every Sunday morning"),
    ("团队同步会是什么时候", "The team sync is every Wednesday at 3 pm"),
    ("后端测试用什么框架", "Backend tests are written with pytest"),
    # across languages: an English question, a Chinese memory
    ("What car does the user drive?", "用户开一辆白色的丰田卡罗拉"),
    ("Which gym does the user go to?", "用户每周二和周四晚上去公司楼下的健身房"),
    ("How should meeting notes be written?", "会议纪要要写清楚结论和负责人"),
    ("What does the user eat for breakfast?", "用户早餐习惯吃包子和豆浆"),
    ("Which monitoring tool do we use?", "监控统一用 Prometheus 和 Grafana"),
    ("When does the user go to bed?", "用户一般晚上十一点半睡觉"),
)
MORE_UNRELATED_FACTS: tuple[str, ...] = (
    "User's favourite film is Spirited Away",
    "User went to Iceland last year",
    "User is learning to cook Japanese food",
    "User's birthday is in October",
    "User runs a half marathon every spring",
    "User's partner works as a nurse",
    "User prefers window seats on trains",
    "User's son plays the violin",
    "User avoids caffeine after 4 pm",
    "User keeps a vegetable garden on the balcony",
    "User volunteers at an animal shelter once a month",
    "User's laptop is a ThinkPad X1 Carbon",
    "用户收藏黑胶唱片",
    "用户睡前喜欢读科幻小说",
    "用户每年春天跑一次半程马拉松",
    "用户的爱人是护士",
    "用户坐火车喜欢靠窗的座位",
    "用户的儿子在学小提琴",
    "用户下午四点以后不喝咖啡",
    "用户在阳台上种了一些蔬菜",
)
PAIR_KINDS = ("zh", "en", "across")


def pair_kind(query: str, memory: str) -> str:
    """``zh`` or ``en`` when the question and the memory are written alike, else ``across``."""
    asked, held = written_in(query), written_in(memory)
    return str(asked) if asked == held else "across"


def memory_facts() -> list[str]:
    """The memory the pairs' calibration asks: every positive pair's memory (the shipped pairs
    and ``MORE_PAIRS``) and every unrelated fact, each once."""
    pairs = [*POSITIVE_PAIRS, *MORE_PAIRS]
    return list(dict.fromkeys([*(m for _, m in pairs), *UNRELATED_FACTS, *MORE_UNRELATED_FACTS]))


def calibrate_pairs(
    *,
    embed: Callable[[list[str]], list[list[float]]],
    embed_memories: Callable[[list[str]], list[list[float]]],
    floors: Sequence[float],
) -> dict[str, Calibration]:
    """The second model's calibration per pair of languages: the positives of each kind (the
    shipped pairs and ``MORE_PAIRS``), and each off-topic question's best cosine over the
    memories (every positive's and every unrelated fact) of that kind for it — a Chinese
    question over the Chinese memories for ``zh``, any question over the memories in the other
    language for ``across``."""
    pairs = [*POSITIVE_PAIRS, *MORE_PAIRS]
    facts = memory_facts()
    fact_vectors = dict(zip(facts, embed_memories(facts), strict=True))
    query_vectors = embed([q for q, _ in pairs])
    off_topic = list(OFF_TOPIC_QUESTIONS)
    off_vectors = embed(off_topic)
    result: dict[str, Calibration] = {}
    for kind in PAIR_KINDS:
        positives = tuple(
            cosine(q, fact_vectors[m])
            for (query, m), q in zip(pairs, query_vectors, strict=True)
            if pair_kind(query, m) == kind
        )
        negatives = tuple(
            cosine(q, fact_vectors[fact])
            for (query, m), q in zip(pairs, query_vectors, strict=True)
            if pair_kind(query, m) == kind
            for fact in UNRELATED_FACTS
            if pair_kind(query, fact) == kind
        )
        best = tuple(
            max(
                cosine(q, fact_vectors[fact]) for fact in facts if pair_kind(question, fact) == kind
            )
            for question, q in zip(off_topic, off_vectors, strict=True)
            if kind == "across" or str(written_in(question)) == kind
        )
        result[kind] = _scored(floors, positives, negatives, best)
    return result


def recommend_pair(calibration: Calibration, *, bound: float) -> float:
    """A pair's floor: the best recall − off-topic answered among the floors answering fewer
    off-topic questions than ``bound`` (the first model's share at its floor, as for the second
    model's overall floor: ``recommend_second``)."""
    allowed = [r for r in calibration.rows if r.off_topic_answered < bound] or [
        calibration.rows[-1]
    ]
    return max(allowed, key=lambda r: (round(r.youden, 6), -r.floor)).floor


@dataclass(frozen=True)
class FloorRow:
    floor: float
    recall: float
    off_topic_answered: float
    precision: float
    false_pass_rate: float  # per pair: a query against another fact of the same user

    @property
    def youden(self) -> float:
        return self.recall - self.off_topic_answered


@dataclass(frozen=True)
class Calibration:
    rows: tuple[FloorRow, ...]
    positives: tuple[float, ...]
    negatives: tuple[float, ...]
    off_topic_best: tuple[float, ...]

    @property
    def recommended(self) -> float:
        return max(self.rows, key=lambda r: (round(r.youden, 6), -r.floor)).floor

    @property
    def silent(self) -> FloorRow | None:
        """The lowest floor that answers none of the off-topic questions (None above 0.50)."""
        return next((r for r in self.rows if r.off_topic_answered == 0), None)

    def row(self, floor: float) -> FloorRow:
        return next(r for r in self.rows if math.isclose(r.floor, floor))


def recommend_second(first: Calibration, second: Calibration) -> float:
    """The second model's floor: the best recall − off-topic answered among the floors that
    answer strictly fewer off-topic questions than the first model does at its own floor.

    The second model adds evidence beside the first (the fused search answers a question when
    either finds something), so its mistakes add to the first's: it may not bring as many as
    the first brings alone. For the bundled pair: USE v3 at 0.29 answers 2 of 40, e5's best J
    (0.86) answers 2 of 40 too, and 0.87 answers 1 (docs/retrieval.md has both rows)."""
    bound = first.row(first.recommended).off_topic_answered
    allowed = [r for r in second.rows if r.off_topic_answered < bound] or [second.rows[-1]]
    return max(allowed, key=lambda r: (round(r.youden, 6), -r.floor)).floor


def recommend_related(second: Calibration, *, floor: float) -> float:
    """The floor of related memories: the best recall − pair false-pass at or under the second
    model's ``floor``.

    A related memory fills an answer that already has evidence, so the question is about this
    user's memory; what it risks is another fact of the same user, not an off-topic question —
    the per-pair measure. For the bundled e5: 0.84 (recall 0.78, pair false-pass 0.20)."""
    allowed = [r for r in second.rows if r.floor <= floor] or [second.rows[0]]
    return max(allowed, key=lambda r: (round(r.recall - r.false_pass_rate, 6), -r.floor)).floor


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


# The second model's cosines crowd near the top of the scale (e5: unrelated texts reach 0.8).
SECOND_FLOORS = tuple(round(0.70 + step / 100, 2) for step in range(26))  # 0.70 … 0.95


def calibrate(
    *,
    embed: Callable[[list[str]], list[list[float]]],
    embed_memories: Callable[[list[str]], list[list[float]]] | None = None,
    floors: Sequence[float] = FLOORS,
) -> Calibration:
    """Score the labelled set with ``embed`` (the configured embedder) at every floor.
    ``embed_memories`` embeds the memories when the model embeds them unlike questions (e5's
    ``passage:``); by default ``embed`` does both."""
    embed_memories = embed_memories or embed
    queries = embed([q for q, _ in POSITIVE_PAIRS])
    relevant = embed_memories([m for _, m in POSITIVE_PAIRS])
    unrelated = embed_memories(list(UNRELATED_FACTS))
    off_topic = embed(list(OFF_TOPIC_QUESTIONS))
    memory_set = [*relevant, *unrelated]
    positives = tuple(cosine(q, m) for q, m in zip(queries, relevant, strict=True))
    negatives = tuple(cosine(q, u) for q in queries for u in unrelated)
    off_topic_best = tuple(max(cosine(q, m) for m in memory_set) for q in off_topic)
    return _scored(floors, positives, negatives, off_topic_best)


def _scored(
    floors: Sequence[float],
    positives: tuple[float, ...],
    negatives: tuple[float, ...],
    off_topic_best: tuple[float, ...],
) -> Calibration:
    rows = []
    for floor in floors:
        kept = sum(s >= floor for s in positives)
        answered = sum(s >= floor for s in off_topic_best)
        rows.append(
            FloorRow(
                floor=floor,
                recall=kept / len(positives),
                off_topic_answered=answered / len(off_topic_best),
                precision=kept / (kept + answered) if kept + answered else 1.0,
                false_pass_rate=sum(s >= floor for s in negatives) / max(len(negatives), 1),
            )
        )
    return Calibration(
        rows=tuple(rows),
        positives=positives,
        negatives=negatives,
        off_topic_best=off_topic_best,
    )
