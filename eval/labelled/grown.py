"""The grown scopes (``eval.dataset.grown_memories``): 30 more projects per scope, and the
questions asked about three of them (``grown_queries``)."""

from __future__ import annotations

from eval.labelled.shape import Query
from eval.labelled.shape import q as _q


# --- grown scopes: 30 more projects each ---------------------------------------------------------
# Mem0's search takes its candidates from the vector search alone — the nearest
# ``max(4 * top_k, 60)`` memories — and only re-ranks them with keywords and entities.  The
# scopes above hold 55 to 74 memories, about that pool: nearly every memory is a candidate, and
# the defect cannot show.  A working user's memory is larger, and much of it is sibling facts of
# other projects.  The grown scopes add 30 projects per scope in the same three sentences as
# the scope's own (goal and deadline, owner, stack).  Their code names, people, purposes and
# stacks share no name, typo target or asked-about topic with any query here (no billing,
# warehouse, order, recommendation, registry or invoicing work; none of the tools, languages or
# people the queries name), so every label stays right and the new memories only compete.
def _listed(text: str, separator: str = " ") -> tuple[str, ...]:
    return tuple(text.split(separator))


GROWN_ZH_NAMES = _listed(
    "朱雀 白虎 青龙 麒麟 泰山 黄山 长江 珠峰 天山 祁连 太行 秦岭 洞庭 鄱阳 "
    "岱宗 Vega Lyra Draco Cygnus Sirius Polaris "
    "Rigel Mira Hydra Pegasus Carina Lynx Corvus "
    "Auriga Fornax"
)
GROWN_ZH_OWNERS = _listed(
    "张伟 李娜 王芳 杨帆 高翔 宋佳 韩冰 冯雪 邓超 曹阳 彭博 曾琳 萧然 董浩 "
    "潘越 袁野 蒋欣 蔡明 叶青 程远 苏晴 丁宁 沈洁 姚岚 汪洋 任杰 贾茹 范伟 "
    "石磊 龚玥"
)
GROWN_ZH_PURPOSES = _listed(
    "员工报销审批流程 工位预订小程序 门禁系统对接 知识库搜索 内部论坛改版 合同电子签 "
    "供应商管理后台 仓储条码识别 车队调度 客户满意度问卷 培训课程平台 固定资产盘点 "
    "工单系统 监控告警收敛 统一参数中心 埋点数据校验 短信通道切换 翻译管理平台 "
    "图片压缩服务 视频转码 地图选址 积分商城 优惠券系统 会员等级体系 考勤打卡 "
    "访客登记 文档多人协作 数据脱敏 接口限流网关 功能开关服务"
)
GROWN_ZH_WHEN = _listed(
    "一月 二月底 三月中旬 四月底 五月初 六月 七月中旬 八月底 九月初 十月 十一月中旬 十二月"
)
GROWN_ZH_STACKS = _listed(
    "Vue, Node.js, Kotlin, Swift, .NET, PHP 和 Laravel, Ruby on Rails, Scala, Flink, "
    "ClickHouse, MongoDB, RabbitMQ, TiDB, Hadoop, Presto, Spring Boot, Nginx, "
    "Cassandra, Elixir, C++",
    ", ",
)
GROWN_EN_NAMES = _listed(
    "Sparrow Heron Osprey Condor Pelican Magpie Finch Wren Lark Raven Ibis Egret Puffin "
    "Plover Tern Gannet Cormorant Albatross Marlin Cobalt Basalt Granite Onyx Jasper Topaz "
    "Garnet Beryl Opal Agate Zircon"
)
GROWN_EN_OWNERS = _listed(
    "Olivia Turner, James Wright, Ava Lopez, Ethan Clark, Mia Walker, Benjamin Hall, "
    "Charlotte Young, Henry Allen, Amelia King, Jack Scott, Harper Green, Daniel Baker, "
    "Evelyn Adams, Samuel Nelson, Abigail Hill, Owen Campbell, Ella Mitchell, Leo Roberts, "
    "Grace Carter, Isaac Phillips, Chloe Evans, Ryan Parker, Zoe Collins, Nathan Stewart, "
    "Lily Morris, Caleb Rogers, Hannah Reed, Dylan Cook, Nora Bell, Adrian Murphy",
    ", ",
)
GROWN_EN_PURPOSES = _listed(
    "expense approval flow, meeting room booking app, badge access integration, "
    "knowledge base search, forum refresh, contract e-signature, vendor portal, "
    "barcode scanning for stock, fleet scheduling, customer satisfaction survey, "
    "training course platform, asset inventory, ticketing system, alert deduplication, "
    "config service, event tracking checks, SMS gateway switch, translation management, "
    "image compression service, video transcoding, store location finder, "
    "loyalty points store, coupon engine, membership tiers, attendance tracking, "
    "visitor sign-in, collaborative editing, data masking tool, API rate limiter, "
    "feature flag service",
    ", ",
)
GROWN_EN_WHEN = _listed(
    "January, end of February, mid April, May, early July, end of August, September, "
    "mid November, December, next quarter, the spring, the autumn",
    ", ",
)
GROWN_EN_STACKS = _listed(
    "Vue and Node.js, Kotlin and Ktor, Swift, .NET and SQL Server, PHP and Laravel, "
    "Ruby on Rails, Scala and Akka, Flink, ClickHouse, MongoDB, RabbitMQ, Elixir, "
    "Spring Boot, Cassandra, Hadoop, Presto, Nginx and Lua, C++",
    ", ",
)


def grown_projects(
    names: tuple[str, ...],
    owners: tuple[str, ...],
    purposes: tuple[str, ...],
    whens: tuple[str, ...],
    stacks: tuple[str, ...],
    offset: int,
) -> list[tuple[str, str, str, str, str, str]]:
    """30 projects: every list is walked from its own offset, so no two scopes pair them alike."""
    return [
        (
            f"grown{n}",
            names[(n + offset) % len(names)],
            purposes[(n + 3 * offset) % len(purposes)],
            whens[(n + offset) % len(whens)],
            owners[(n + 2 * offset) % len(owners)],
            stacks[(n + offset) % len(stacks)],
        )
        for n in range(30)
    ]


# --- questions about the grown projects -----------------------------------------------------------
# A memory of many projects is asked about one of them: the sibling memories say the same thing
# about another project, so only the name tells them apart.  Three grown projects per scope
# (numbers 0, 10 and 20, fixed before any run) are asked about in every kind but negative, each
# question from one template per kind and attribute, the attribute turning with the project — so
# every question is the same for every system and none was picked by its result.  Asked only on
# the grown scopes (the projects exist nowhere else).
GROWN_ASKED = (0, 10, 20)
# The pinyin a person writes for the Chinese code names asked in English (pypinyin reads 太行
# as "taixing"; people write Taihang).
GROWN_PINYIN = {
    "朱雀": "Zhuque",
    "太行": "Taihang",
    "白虎": "Baihu",
    "秦岭": "Qinling",
    "青龙": "Qinglong",
    "洞庭": "Dongting",
}
ATTRIBUTES = ("owner", "goal", "stack")
_ZH_TEMPLATES = {
    "zh": {
        "owner": "{name}的负责人是谁",
        "goal": "{name}项目什么时候上线",
        "stack": "{name}用的什么技术栈",
    },
    "paraphrase": {
        "owner": "谁在管{name}",
        "goal": "{name}打算哪天交付",
        "stack": "{name}是用什么开发的",
    },
    "mixed": {
        "owner": "{name} 的 owner 是谁",
        "goal": "{name} 的 deadline 是什么时候",
        "stack": "{name} 用了什么 tech stack",
    },
    # A slip in a Latin name; for a Chinese name, a homophone slip in the attribute word.
    "typo": {
        "owner": "{name}的负债人是谁",
        "goal": "{name}什么时候上限",
        "stack": "{name}的计术栈",
    },
    "cross_language": {
        "owner": "Who is in charge of {name}?",
        "goal": "When does {name} launch?",
        "stack": "What tech stack does {name} use?",
    },
}
_EN_TEMPLATES = {
    "en": {
        "owner": "Who leads {name}?",
        "goal": "When is {name} due?",
        "stack": "What does {name} run on?",
    },
    "paraphrase": {
        "owner": "Who is in charge of {name}?",
        "goal": "What's the deadline for {name}?",
        "stack": "Which technologies power {name}?",
    },
    "mixed": {
        "owner": "{name} 的负责人是谁",
        "goal": "{name} 什么时候上线",
        "stack": "{name} 用什么技术栈",
    },
    "typo": {
        "owner": "Who leads {name}?",
        "goal": "When is {name} due?",
        "stack": "What does {name} run on?",
    },
    # Asked in Chinese by the project's purpose (the memories hold it in English).
    "cross_language": {
        "owner": "{purpose}由谁负责",
        "goal": "{purpose}什么时候上线",
        "stack": "{purpose}用的什么技术",
    },
}


def _slip(name: str) -> str:
    """The second and third letters swapped ("Polaris" → "Ploaris")."""
    return name[0] + name[2] + name[1] + name[3:]


def _grown_questions(
    scope: str, key: str, name: str, owner: str, turn: int, zh_purpose: str
) -> list[Query]:
    english = scope == "en"
    templates = _EN_TEMPLATES if english else _ZH_TEMPLATES
    keys = {attribute: f"{key}_{attribute}" for attribute in ATTRIBUTES}
    asked: list[Query] = []
    for step, (kind, forms) in enumerate(templates.items()):
        attribute = ATTRIBUTES[(turn + step) % 3]
        said = name
        if kind == "typo" and (english or name.isascii()):
            said = _slip(name)
            if not english:  # the Latin name slips, the attribute word stays right
                forms = _ZH_TEMPLATES["zh"]
        elif kind == "cross_language" and not english:
            said = GROWN_PINYIN.get(name, name)
        text = forms[attribute].format(name=said, purpose=zh_purpose)
        relevant = [keys[attribute]]
        if kind == "cross_language" and english and attribute != "goal":
            relevant.append(keys["goal"])  # only the goal memory holds the purpose
        asked.append(_q(scope, kind, text, *relevant))
    # A bare name: the code name (any of its memories) or, every third, its owner.
    if turn == 1:
        asked.append(_q(scope, "short_name", owner, keys["owner"]))
    else:
        asked.append(_q(scope, "short_name", name, *keys.values()))
    return asked


def projects_by_scope() -> dict[str, list[tuple[str, str, str, str, str, str]]]:
    """Each scope's 30 grown projects: the Chinese lists walked from another offset per scope."""
    zh = (GROWN_ZH_NAMES, GROWN_ZH_OWNERS, GROWN_ZH_PURPOSES, GROWN_ZH_WHEN, GROWN_ZH_STACKS)
    en = (GROWN_EN_NAMES, GROWN_EN_OWNERS, GROWN_EN_PURPOSES, GROWN_EN_WHEN, GROWN_EN_STACKS)
    return {
        "zh": grown_projects(*zh, offset=0),
        "mixed": grown_projects(*zh, offset=1),
        "zh2": grown_projects(*zh, offset=2),
        "en": grown_projects(*en, offset=0),
    }


def grown_queries() -> list[Query]:
    """The questions about the grown projects (on ``grown_memories`` only)."""
    asked: list[Query] = []
    for scope, grown in projects_by_scope().items():
        for turn, number in enumerate(GROWN_ASKED):
            key, name, _purpose, _when, owner, _stack = grown[number]
            zh_purpose = GROWN_ZH_PURPOSES[number]  # the en scope walks the purposes from 0 too
            asked += _grown_questions(scope, key, name, owner, turn, zh_purpose)
    return asked
