"""The labelled retrieval set of `make eval` (docs/retrieval.md).

Four scopes of a few dozen memories each — a Chinese user, an English user, a user who mixes
both, and a second Chinese user whose topics overlap the first (so scope isolation is measured
too): projects, preferences, verified conclusions (longer memories, ``CONCLUSIONS``) and
everyday filler.  The same scopes grown by 30 projects each (``grown_memories``) are also asked
about three of those projects (``grown_queries``).  Every query names its kind and the memories
that answer it (any of them is a hit); negatives name none and must answer nothing.

Kinds: ``zh``, ``en``, ``mixed`` (Chinese and English in one query), ``paraphrase`` (other words,
same meaning), ``short_name`` (a bare code name or person), ``typo`` (a misspelt word or
name), ``cross_language`` (asked in the other language), ``indirect`` (asks for advice that one
stored memory should shape, sharing no word or name with it), ``negative`` (nothing relevant
stored; some in the same advisory style).

Memories are referred to by a short key; ``memories`` holds ``scope -> key -> text``.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = (
    "zh",
    "en",
    "mixed",
    "paraphrase",
    "short_name",
    "typo",
    "cross_language",
    "indirect",
    "negative",
)


@dataclass(frozen=True)
class Query:
    scope: str
    kind: str
    text: str
    relevant: tuple[str, ...]


# --- projects: (key, code name, zh purpose, en purpose, deadline zh, deadline en, owner zh,
#     owner en, stack) ---------------------------------------------------------------------------
ZH_PROJECTS = [
    ("qingniao", "青鸟", "计费系统重写", "三月底", "王磊", "Go 和 PostgreSQL"),
    ("beidou", "北斗", "数据仓库迁移", "六月中旬", "陈静", "Spark 和 Hive"),
    ("atlas", "Atlas", "移动端改版", "年底", "刘洋", "Flutter"),
    ("kunlun", "昆仑", "客服机器人", "九月", "赵敏", "Python 和 Django"),
    ("orion", "Orion", "日志平台升级", "下个季度", "孙涛", "Elasticsearch"),
    ("xuanwu", "玄武", "风控规则引擎", "十月底", "周婷", "Java 和 Drools"),
]
EN_PROJECTS = [
    ("kestrel", "Kestrel", "billing rewrite", "the end of March", "Maya Chen", "Go and PostgreSQL"),
    ("nimbus", "Nimbus", "cloud cost dashboard", "mid June", "Liam Patel", "React and BigQuery"),
    ("harbor", "Harbor", "container registry migration", "Q3", "Sofia Rossi", "Kubernetes"),
    ("falcon", "Falcon", "search relevance project", "October", "Noah Kim", "Elasticsearch"),
    ("juniper", "Juniper", "onboarding redesign", "next sprint", "Emma Brown", "Next.js"),
    ("quartz", "Quartz", "payments reconciliation", "year end", "Lucas Silva", "Rust and Kafka"),
]
MIXED_PROJECTS = [
    ("phoenix", "Phoenix", "订单服务拆分", "五月", "黄勇", "Go 和 gRPC"),
    ("aurora", "Aurora", "推荐系统重构", "八月", "林清", "PyTorch 和 Redis"),
    ("zephyr", "Zephyr", "内部 SSO 接入", "两周后", "郭峰", "Keycloak"),
    ("titan", "Titan", "GPU 集群调度", "年底前", "马丽", "Kubernetes 和 Volcano"),
    ("lotus", "Lotus", "财务报表自动化", "七月", "何平", "Airflow 和 dbt"),
]
ZH2_PROJECTS = [
    ("tianshu", "天枢", "供应链预测", "四月", "吴迪", "Python 和 LightGBM"),
    ("atlas2", "Atlas", "门店巡检小程序", "十一月", "郑爽", "微信小程序"),
    ("hongyan", "鸿雁", "消息推送平台", "二月", "钱坤", "Kafka 和 Go"),
]

ZH_PREFERENCES = {
    "zh_lang": "用户偏好使用简体中文输出技术方案，结论先行。",
    "zh_html": "以后所有报告统一使用 HTML 格式。",
    "zh_python": "用户最喜欢的编程语言是 Python。",
    "zh_city": "用户住在杭州，通勤骑自行车。",
    "zh_style": "用户偏好简洁的代码风格，函数不超过 50 行。",
    "zh_weekly": "周报要结论先行，控制在一页以内。",
    "zh_tests": "用户要求每个功能都写单元测试。",
    "zh_htmx": "前端统一使用 HTMX，不引入 React。",
    "zh_tone": "用户希望回答直接，不要客套话。",
    "zh_deploy": "服务部署在阿里云的 Kubernetes 集群上。",
    "zh_job": "用户是后端工程师，负责支付系统。",
    "zh_meeting": "用户每周一上午十点开例会。",
    "zh_cat": "用户养了一只叫豆豆的猫。",
    "zh_hiking": "用户周末喜欢爬山。",
    "zh_peanut": "用户对花生过敏。",
    "zh_guitar": "用户正在学习弹吉他。",
    "zh_feishu": "团队沟通统一用“飞书”，不用邮件。",
    "zh_review": "代码合并前至少需要两位同事评审通过。",
    "zh_tea": "用户下午习惯喝一杯乌龙茶。",
    "zh_diagram": "架构图统一用 PlantUML 画，方便放进版本库。",
}
EN_PREFERENCES = {
    "en_bullets": "User prefers concise answers with bullet points.",
    "en_reports": "User prefers reports written in English.",
    "en_tea": "User likes green tea in the afternoon.",
    "en_work": "User works at a fintech startup in Singapore.",
    "en_commits": "Commit messages follow the Conventional Commits format.",
    "en_approvals": "Every pull request needs two approvals before merging.",
    "en_k8s": "Services are deployed on Kubernetes in eu-west-1.",
    "en_arsenal": "User's favourite football team is Arsenal.",
    "en_piano": "User plays the piano every evening.",
    "en_allergy": "User is allergic to cats.",
    "en_daughter": "User's daughter is learning to swim.",
    "en_vim": "User edits code in Neovim with a dark theme.",
    "en_standup": "The daily standup is at 9:30 and lasts fifteen minutes.",
    "en_typescript": "New frontend code must be written in TypeScript with strict mode.",
    "en_docs": "Design docs start with a one-paragraph summary of the decision.",
    "en_oncall": "User is on call every fourth week.",
    "en_coffee": "User drinks a flat white every morning.",
    "en_timezone": "User's working hours are in the Singapore time zone.",
}
MIXED_PREFERENCES = {
    "mx_lang": "技术文档用中文写，但代码注释统一用 English。",
    "mx_pr": "PR 描述里必须附上测试截图。",
    "mx_ci": "CI 用 GitHub Actions，main 分支保护开启。",
    "mx_editor": "用户习惯用 VS Code 写代码，字体是 JetBrains Mono。",
    "mx_db": "新服务默认用 PostgreSQL，缓存用 Redis。",
    "mx_slack": "跨国团队沟通用 Slack，国内团队用飞书。",
    "mx_api": "对外 API 一律用 REST + JSON，不用 GraphQL。",
    "mx_log": "日志统一输出 JSON 格式，接入 Loki。",
    "mx_run": "用户每天早上跑步 5 公里。",
    "mx_book": "用户最近在读《Designing Data-Intensive Applications》。",
    "mx_mac": "用户的工作电脑是 MacBook Pro，用 zsh。",
    "mx_release": "每周四下午发版，周五不上线。",
}
ZH2_PREFERENCES = {
    "z2_lang": "用户要求所有回复都用简体中文。",
    "z2_excel": "数据报表用 Excel 交付，附上数据透视表。",
    "z2_dog": "用户家里有一只金毛犬，叫旺财。",
    "z2_swim": "用户每周三晚上去游泳。",
    "z2_dingtalk": "公司内部沟通用钉钉。",
    "z2_meeting": "周会在每周五下午三点。",
    "z2_coffee": "用户不喝咖啡，只喝白开水。",
    "z2_ppt": "汇报材料用 PPT，不超过十页。",
    "z2_java": "用户主要用 Java 写后端服务。",
    "z2_shanghai": "用户在上海工作。",
}

# Verified conclusions and project context (seed: "已验证结论", "项目长期背景"): longer memories of
# two or three clauses, where the question asks for one detail among several.
CONCLUSIONS = {
    "zh": {
        "c_pool": "青鸟压测复盘的结论：瓶颈在数据库连接池，把 PgBouncer 改成事务模式后 p99 延迟从 "
        "800 毫秒降到 120 毫秒，以后压测前先检查连接池配置。",
        "c_leak": "排查线上内存泄漏已验证有效的做法：先用 py-spy 抓火焰图，再对比两次 tracemalloc "
        "快照，不要一上来就重启服务。",
        "c_fx": "和财务对账发现汇率只保留两位小数会产生差额，已确认统一用 Decimal 保留六位小数，"
        "四舍五入只在展示层做。",
        "c_doc": "前端文档要包含“使用场景、操作步骤、常见问题”三部分，截图放在对应步骤下面。",
        "c_alert": "上次故障复盘的结论：磁盘告警阈值设得太松，使用率超过 85% 就要告警，值班同学"
        "十分钟内必须响应。",
        "c_api": "和刘洋约定：移动端接口有变更要提前两天在项目群里通知，并同步更新 Apifox 上的"
        "接口文档。",
        "c_sql": "慢查询优化的经验：先看 EXPLAIN ANALYZE 的实际行数，给 orders 表的 user_id 和 "
        "created_at 建联合索引后，列表页从 3 秒降到 200 毫秒。",
        "c_cache": "缓存击穿的解决办法：热点 key 用互斥锁重建，过期时间加随机抖动，已在大促期间"
        "验证有效。",
    },
    "en": {
        "e_flaky": "Flaky integration tests were traced to a shared Redis instance; giving each CI "
        "job its own database number fixed them.",
        "e_migr": "Lesson from the March outage: run schema migrations before deploying the new "
        "code, and never drop a column in the same release that stops using it.",
        "e_pricing": "Customer interviews showed that annual plans convert better when the "
        "monthly price is shown next to the yearly total.",
        "e_timeout": "The Adyen payment gateway times out after 30 seconds, so webhook handlers "
        "must answer within 10 seconds and do the work in a background job.",
        "e_profiling": "Profiling showed most request time went to JSON serialisation; switching "
        "to orjson halved the p95 latency.",
        "e_hiring": "Backend interviews use a take-home task capped at three hours, followed by "
        "a pairing session on the candidate's own code.",
        "e_sla": "The analytics API promises 99.9% availability; anything below that triggers "
        "service credits for enterprise customers.",
        "e_dash": "Dashboards for the ops team must load in under two seconds, so heavy charts "
        "are pre-aggregated every hour.",
    },
    "mixed": {
        "m_oom": "线上 Pod 频繁 OOMKilled 的原因是 JVM 没有读到容器内存限制，加上 "
        "-XX:MaxRAMPercentage=75 后稳定了。",
        "m_gray": "灰度发布的经验：先放 5% 流量观察 30 分钟，错误率不超过 0.1% 再全量，回滚脚本"
        "要提前演练。",
        "m_kafka": "Kafka 消费积压的根因是单分区热点，按 user_id 哈希重新分区后积压消失。",
        "m_review": "Code review 的共识：单个 PR 不超过 400 行 diff，超过就拆分，reviewer 24 小时"
        "内给反馈。",
        "m_sentry": "前端报错接入 Sentry，source map 只在 CI 上传，不放到线上服务器。",
    },
    "zh2": {
        "z_forecast": "供应链预测的验证结论：加入节假日特征后，周销量预测的 MAPE 从 18% 降到 11%。",
        "z_store": "门店巡检照片统一压缩到 500KB 以内再上传，否则弱网下会超时。",
        "z_push": "消息推送的经验：晚上十点到早上八点不发营销推送，否则投诉率翻倍。",
        "z_report": "给区域经理的周报只放三个指标：销售额、客单价、复购率，别的放附录。",
    },
}


def _zh_project_memories(key: str, name: str, purpose: str, when: str, owner: str, stack: str):
    quoted = f"“{name}”"
    return {
        f"{key}_goal": f"项目{quoted}是{purpose}，计划{when}上线，上线前要完成压测和灰度发布。",
        f"{key}_owner": f"{quoted}的负责人是{owner}，需求变更要先和他确认，再同步给测试和运维。",
        f"{key}_stack": f"{quoted}的技术栈是{stack}，部署在公司内部的容器平台上。",
    }


def _en_project_memories(key: str, name: str, purpose: str, when: str, owner: str, stack: str):
    return {
        f"{key}_goal": f"Project {name} is the {purpose}, due {when}; load tests and a staged "
        "rollout must finish first.",
        f"{key}_owner": f"{owner} leads {name}; scope changes go through them before QA and ops "
        "hear about it.",
        f"{key}_stack": f"{name} runs on {stack}, deployed on the internal container platform.",
    }


def memories() -> dict[str, dict[str, str]]:
    scopes: dict[str, dict[str, str]] = {"zh": {}, "en": {}, "mixed": {}, "zh2": {}}
    for scope, projects in (("zh", ZH_PROJECTS), ("mixed", MIXED_PROJECTS), ("zh2", ZH2_PROJECTS)):
        for project in projects:
            scopes[scope].update(_zh_project_memories(*project))
    for project in EN_PROJECTS:
        scopes["en"].update(_en_project_memories(*project))
    scopes["zh"].update(ZH_PREFERENCES)
    scopes["en"].update(EN_PREFERENCES)
    scopes["mixed"].update(MIXED_PREFERENCES)
    scopes["zh2"].update(ZH2_PREFERENCES)
    for scope, conclusions in CONCLUSIONS.items():
        scopes[scope].update(conclusions)
    for scope, facts in INDIRECT_MEMORIES.items():
        scopes[scope].update(facts)
    for scope, facts in CROSS_MEMORIES.items():
        scopes[scope].update(facts)
    # Everyday facts make each scope a realistic size and give negatives something to miss.
    for scope, facts in FILLER.items():
        for n, text in enumerate(facts):
            scopes[scope][f"{scope}_filler_{n}"] = text
    return scopes


FILLER = {
    "zh": [
        f"第{n}次迭代的回顾会记录放在“{team}”空间。"
        for n, team in enumerate(["研发周报", "项目复盘", "技术分享"] * 12, start=1)
    ],
    "en": [
        f"Sprint {n} retro notes live in the {space} space."
        for n, space in enumerate(["Engineering", "Retros", "Team Notes"] * 12, start=1)
    ],
    "mixed": [
        f"Sprint {n} 的回顾记录放在 Confluence 的“{space}”页面。"
        for n, space in enumerate(["复盘", "Retro", "周会纪要"] * 12, start=1)
    ],
    "zh2": [
        f"第{n}季度的门店数据由“{team}”整理。"
        for n, team in enumerate(["运营组", "数据组", "财务组"] * 12, start=1)
    ],
}


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


def _grown(
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


def grown_memories() -> dict[str, dict[str, str]]:
    """``memories()`` with 30 more projects in every scope (90 memories each)."""
    scopes = memories()
    zh = (GROWN_ZH_NAMES, GROWN_ZH_OWNERS, GROWN_ZH_PURPOSES, GROWN_ZH_WHEN, GROWN_ZH_STACKS)
    for offset, scope in enumerate(("zh", "mixed", "zh2")):
        for project in _grown(*zh, offset=offset):
            scopes[scope].update(_zh_project_memories(*project))
    en = (GROWN_EN_NAMES, GROWN_EN_OWNERS, GROWN_EN_PURPOSES, GROWN_EN_WHEN, GROWN_EN_STACKS)
    for project in _grown(*en, offset=0):
        scopes["en"].update(_en_project_memories(*project))
    return scopes


def _q(scope: str, kind: str, text: str, *relevant: str) -> Query:
    return Query(scope=scope, kind=kind, text=text, relevant=tuple(relevant))


def _project_keys(key: str) -> tuple[str, str, str]:
    return (f"{key}_goal", f"{key}_owner", f"{key}_stack")


QUERIES: list[Query] = [
    # --- zh scope ---------------------------------------------------------------------------------
    _q("zh", "zh", "青鸟项目什么时候上线", "qingniao_goal"),
    _q("zh", "zh", "北斗的负责人是谁", "beidou_owner"),
    _q("zh", "zh", "昆仑用什么技术栈", "kunlun_stack"),
    _q("zh", "zh", "玄武项目是做什么的", "xuanwu_goal"),
    _q("zh", "zh", "周报有什么要求", "zh_weekly"),
    _q("zh", "zh", "团队用什么沟通", "zh_feishu"),
    _q("zh", "zh", "用户对什么过敏", "zh_peanut"),
    _q("zh", "zh", "架构图用什么工具画", "zh_diagram"),
    _q("zh", "zh", "代码合并前需要什么", "zh_review"),
    _q("zh", "zh", "用户在学什么乐器", "zh_guitar"),
    _q("zh", "paraphrase", "技术方案用什么语言写", "zh_lang"),
    _q("zh", "paraphrase", "报告该交成什么格式的文件", "zh_html"),
    _q("zh", "paraphrase", "用户平时爱写哪种编程语言", "zh_python"),
    _q("zh", "paraphrase", "前端框架用什么", "zh_htmx"),
    _q("zh", "paraphrase", "回答的语气要怎样", "zh_tone"),
    _q("zh", "paraphrase", "服务跑在哪个云上", "zh_deploy"),
    _q("zh", "paraphrase", "用户做什么工作", "zh_job"),
    _q("zh", "paraphrase", "用户家里的宠物", "zh_cat"),
    _q("zh", "paraphrase", "重写收费系统的那个项目", "qingniao_goal"),
    _q("zh", "paraphrase", "谁在管数仓搬迁", "beidou_owner", "beidou_goal"),
    _q("zh", "short_name", "青鸟", *_project_keys("qingniao")),
    _q("zh", "short_name", "Atlas", *_project_keys("atlas")),
    _q("zh", "short_name", "王磊", "qingniao_owner"),
    _q("zh", "short_name", "Orion", *_project_keys("orion")),
    _q("zh", "short_name", "赵敏", "kunlun_owner"),
    _q("zh", "short_name", "飞书", "zh_feishu"),
    _q("zh", "typo", "青鸟的负债人是谁", "qingniao_owner"),
    _q("zh", "typo", "Atlsa 什么时候上线", "atlas_goal"),
    _q("zh", "typo", "Oiron 用的什么技术", "orion_stack"),
    _q("zh", "typo", "周报有什么耀求", "zh_weekly"),
    _q("zh", "typo", "前端统一用 HTMXX 吗", "zh_htmx"),
    _q("zh", "mixed", "Atlas 项目的 deadline 是什么时候", "atlas_goal"),
    _q("zh", "mixed", "Orion 的 owner 是谁", "orion_owner"),
    _q("zh", "mixed", "服务部署在哪个 cloud 上", "zh_deploy"),
    _q("zh", "mixed", "PlantUML 是用来做什么的", "zh_diagram"),
    _q("zh", "cross_language", "Who owns the Qingniao billing rewrite?", "qingniao_owner"),
    _q("zh", "cross_language", "What is the user allergic to?", "zh_peanut"),
    _q("zh", "cross_language", "Which chat tool does the team use?", "zh_feishu"),
    _q("zh", "cross_language", "What instrument is the user learning?", "zh_guitar"),
    _q("zh", "cross_language", "When does Atlas launch?", "atlas_goal"),
    # --- en scope ---------------------------------------------------------------------------------
    _q("en", "en", "When is Kestrel due?", "kestrel_goal"),
    _q("en", "en", "Who leads Nimbus?", "nimbus_owner"),
    _q("en", "en", "What does Harbor run on?", "harbor_stack"),
    _q("en", "en", "What is the Falcon project about?", "falcon_goal"),
    _q("en", "en", "How should commit messages look?", "en_commits"),
    _q("en", "en", "How many approvals does a pull request need?", "en_approvals"),
    _q("en", "en", "What time is the daily standup?", "en_standup"),
    _q("en", "en", "Which editor does the user use?", "en_vim"),
    _q("en", "en", "How often is the user on call?", "en_oncall"),
    _q("en", "en", "What does the user drink in the morning?", "en_coffee"),
    _q("en", "paraphrase", "preferred answer style", "en_bullets"),
    _q("en", "paraphrase", "What language should reports use?", "en_reports"),
    _q("en", "paraphrase", "Where does the user work?", "en_work"),
    _q("en", "paraphrase", "deployment platform", "en_k8s"),
    _q("en", "paraphrase", "code review rules", "en_approvals"),
    _q("en", "paraphrase", "Which team does the user support?", "en_arsenal"),
    _q("en", "paraphrase", "the user's kid and sports", "en_daughter"),
    _q("en", "paraphrase", "how design documents should begin", "en_docs"),
    _q("en", "paraphrase", "the project that redoes invoicing", "kestrel_goal"),
    _q("en", "paraphrase", "who is in charge of the registry move", "harbor_owner", "harbor_goal"),
    _q("en", "short_name", "Kestrel", *_project_keys("kestrel")),
    _q("en", "short_name", "Quartz", *_project_keys("quartz")),
    _q("en", "short_name", "Maya Chen", "kestrel_owner"),
    _q("en", "short_name", "Juniper", *_project_keys("juniper")),
    _q("en", "short_name", "Noah Kim", "falcon_owner"),
    _q("en", "short_name", "Arsenal", "en_arsenal"),
    _q("en", "typo", "When is Kestral due?", "kestrel_goal"),
    _q("en", "typo", "Who leads Nimbsu?", "nimbus_owner"),
    _q("en", "typo", "commit mesage format", "en_commits"),
    _q("en", "typo", "what does the usr drink in the afternon", "en_tea"),
    _q("en", "typo", "Typescript strict mdoe", "en_typescript"),
    _q("en", "mixed", "Kestrel 什么时候交付", "kestrel_goal"),
    _q("en", "mixed", "Nimbus 的负责人", "nimbus_owner"),
    _q("en", "mixed", "pull request 需要几个 approval", "en_approvals"),
    _q("en", "mixed", "standup 几点开始", "en_standup"),
    _q("en", "cross_language", "用户喜欢哪支足球队", "en_arsenal"),
    _q("en", "cross_language", "用户对什么过敏", "en_allergy"),
    _q("en", "cross_language", "用户晚上弹什么乐器", "en_piano"),
    _q("en", "cross_language", "提交信息要遵循什么格式", "en_commits"),
    _q("en", "cross_language", "服务部署在哪里", "en_k8s"),
    # --- mixed scope ------------------------------------------------------------------------------
    _q("mixed", "mixed", "Phoenix 项目什么时候上线", "phoenix_goal"),
    _q("mixed", "mixed", "Aurora 用了哪些技术", "aurora_stack"),
    _q("mixed", "mixed", "代码注释用什么语言", "mx_lang"),
    _q("mixed", "mixed", "PR 描述要附什么", "mx_pr"),
    _q("mixed", "mixed", "CI 用的是什么", "mx_ci"),
    _q("mixed", "mixed", "对外 API 用 GraphQL 吗", "mx_api"),
    _q("mixed", "mixed", "日志接入哪个系统", "mx_log"),
    _q("mixed", "zh", "推荐系统重构由谁负责", "aurora_owner", "aurora_goal"),
    _q("mixed", "zh", "每周什么时候发版", "mx_release"),
    _q("mixed", "zh", "用户每天早上做什么运动", "mx_run"),
    _q("mixed", "paraphrase", "缓存选型", "mx_db"),
    _q("mixed", "paraphrase", "用户最近在看什么书", "mx_book"),
    _q("mixed", "paraphrase", "用户平时用哪个编辑器", "mx_editor"),
    _q("mixed", "paraphrase", "和海外同事怎么沟通", "mx_slack"),
    _q("mixed", "paraphrase", "拆分订单服务的项目", "phoenix_goal"),
    _q("mixed", "short_name", "Zephyr", *_project_keys("zephyr")),
    _q("mixed", "short_name", "Titan", *_project_keys("titan")),
    _q("mixed", "short_name", "林清", "aurora_owner"),
    _q("mixed", "short_name", "Lotus", *_project_keys("lotus")),
    _q("mixed", "short_name", "Slack", "mx_slack"),
    _q("mixed", "typo", "Pheonix 的技术栈", "phoenix_stack"),
    _q("mixed", "typo", "Zephir 什么时候接入", "zephyr_goal"),
    _q("mixed", "typo", "GitHub Acitons 怎么配置", "mx_ci"),
    _q("mixed", "typo", "日志同意输出什么格式", "mx_log"),
    _q(
        "mixed",
        "cross_language",
        "Who is responsible for the recommendation rebuild?",
        "aurora_owner",
        "aurora_goal",
    ),
    _q("mixed", "cross_language", "Which database should new services use?", "mx_db"),
    _q("mixed", "cross_language", "When are releases shipped?", "mx_release"),
    _q("mixed", "cross_language", "What laptop does the user have?", "mx_mac"),
    # --- zh2 scope --------------------------------------------------------------------------------
    _q("zh2", "zh", "天枢项目什么时候上线", "tianshu_goal"),
    _q("zh2", "zh", "鸿雁的技术栈", "hongyan_stack"),
    _q("zh2", "zh", "周会在什么时候", "z2_meeting"),
    _q("zh2", "zh", "公司内部用什么沟通", "z2_dingtalk"),
    _q("zh2", "zh", "汇报材料有什么要求", "z2_ppt"),
    _q("zh2", "paraphrase", "用户养了什么狗", "z2_dog"),
    _q("zh2", "paraphrase", "用户平时喝什么", "z2_coffee"),
    _q("zh2", "paraphrase", "报表交付格式", "z2_excel"),
    _q("zh2", "paraphrase", "用户在哪座城市上班", "z2_shanghai"),
    _q("zh2", "paraphrase", "回复用什么语言", "z2_lang"),
    _q("zh2", "short_name", "Atlas", *_project_keys("atlas2")),
    _q("zh2", "short_name", "钱坤", "hongyan_owner"),
    _q("zh2", "short_name", "天枢", *_project_keys("tianshu")),
    _q("zh2", "short_name", "旺财", "z2_dog"),
    _q("zh2", "typo", "鸿雁的负责任是谁", "hongyan_owner"),
    _q("zh2", "typo", "Atals 小程序什么时候上线", "atlas2_goal"),
    _q("zh2", "typo", "用户每周三晚上去游勇", "z2_swim"),
    _q("zh2", "mixed", "Atlas 的 owner 是谁", "atlas2_owner"),
    _q("zh2", "mixed", "天枢用了 LightGBM 吗", "tianshu_stack"),
    _q("zh2", "mixed", "后端服务用 Java 还是 Go", "z2_java"),
    _q("zh2", "cross_language", "What does the user drink?", "z2_coffee"),
    _q("zh2", "cross_language", "Where does the user work?", "z2_shanghai"),
    _q("zh2", "cross_language", "When is the weekly meeting?", "z2_meeting"),
]

# --- verified conclusions: one detail of a longer memory ------------------------------------------
QUERIES += [
    _q("zh", "zh", "压测的瓶颈最后查出来是什么", "c_pool"),
    _q("zh", "short_name", "PgBouncer", "c_pool"),
    _q("zh", "zh", "线上内存泄漏怎么排查", "c_leak"),
    _q("zh", "short_name", "tracemalloc", "c_leak"),
    _q("zh", "zh", "汇率保留几位小数", "c_fx"),
    _q("zh", "paraphrase", "对不上账是什么原因", "c_fx"),
    _q("zh", "zh", "前端文档要包含哪几部分", "c_doc"),
    _q("zh", "zh", "磁盘使用率超过多少要告警", "c_alert"),
    _q("zh", "cross_language", "What disk usage should trigger an alert?", "c_alert"),
    _q("zh", "short_name", "Apifox", "c_api"),
    _q("zh", "zh", "移动端接口变更要提前几天通知", "c_api"),
    _q("zh", "zh", "列表页慢是怎么优化的", "c_sql"),
    _q("zh", "mixed", "EXPLAIN ANALYZE 主要看什么", "c_sql"),
    _q("zh", "paraphrase", "大促时缓存被打穿怎么办", "c_cache"),
    _q("en", "en", "What caused the flaky integration tests?", "e_flaky"),
    _q("en", "short_name", "Redis", "e_flaky"),
    _q("en", "en", "When should a column be dropped?", "e_migr"),
    _q("en", "paraphrase", "what went wrong in the March incident", "e_migr"),
    _q("en", "en", "How should annual plan prices be displayed?", "e_pricing"),
    _q("en", "cross_language", "年付方案的价格怎么展示转化更好", "e_pricing"),
    _q("en", "short_name", "Adyen", "e_timeout"),
    _q("en", "en", "How fast must webhook handlers respond?", "e_timeout"),
    _q("en", "en", "What halved the p95 latency?", "e_profiling"),
    _q("en", "short_name", "orjson", "e_profiling"),
    _q("en", "en", "How long is the take-home task for backend interviews?", "e_hiring"),
    _q("en", "paraphrase", "how we assess engineering candidates", "e_hiring"),
    _q("en", "en", "What availability does the analytics API promise?", "e_sla"),
    _q("en", "mixed", "analytics API 的可用性承诺是多少", "e_sla"),
    _q("en", "cross_language", "运维看板要求多久加载完", "e_dash"),
    _q("mixed", "mixed", "Pod 为什么老是 OOMKilled", "m_oom"),
    _q("mixed", "short_name", "OOMKilled", "m_oom"),
    _q("mixed", "zh", "灰度发布先放多少流量", "m_gray"),
    _q("mixed", "cross_language", "How much traffic goes to a canary release first?", "m_gray"),
    _q("mixed", "mixed", "Kafka 消费积压怎么解决的", "m_kafka"),
    _q("mixed", "paraphrase", "消息队列堆积的原因", "m_kafka"),
    _q("mixed", "mixed", "PR 最多多少行", "m_review"),
    _q("mixed", "cross_language", "How big may a pull request be?", "m_review"),
    _q("mixed", "short_name", "Sentry", "m_sentry"),
    _q("mixed", "mixed", "source map 放在哪里", "m_sentry"),
    _q("zh2", "zh", "加了什么特征让预测更准", "z_forecast"),
    _q("zh2", "short_name", "MAPE", "z_forecast"),
    _q("zh2", "zh", "巡检照片要压缩到多大", "z_store"),
    _q("zh2", "paraphrase", "为什么门店上传图片老失败", "z_store"),
    _q("zh2", "zh", "什么时间段不能发营销推送", "z_push"),
    _q("zh2", "cross_language", "When must marketing pushes not be sent?", "z_push"),
    _q("zh2", "zh", "区域经理的周报放哪几个指标", "z_report"),
    _q("zh2", "paraphrase", "给区域负责人汇报看哪些数", "z_report"),
]


# --- indirect: advice a memory should shape ------------------------------------------------------
# Agents rarely ask for a memory in its words: they ask for advice, a recommendation or a
# decision, and one stored preference or fact should shape it ("下午连开三场评审" needs the bad
# back, "pick a place for Friday's pizza night" needs the coeliac disease).  Every question of
# this kind shares no content word or name with the memory it needs (``tests/eval`` checks it),
# so only meaning connects them.  The memories are ordinary stable facts, stored beside the rest
# of the scope; a few questions need a memory the scope already held.  Written before any run
# and kept whatever they score.
INDIRECT_MEMORIES = {
    "zh": {
        "i_back": "用户腰椎间盘突出，久坐超过一小时就会疼。",
        "i_lactose": "用户乳糖不耐受，喝牛奶会拉肚子。",
        "i_spicy": "用户胃不好，一点辣都不能吃。",
        "i_licence": "用户没有驾照，出行都靠地铁和打车。",
        "i_phone": "用户的手机是华为 Mate 60，家里不用苹果设备。",
        "i_sleep": "用户晚上十一点前必须睡觉，不然第二天没精神。",
        "i_boss": "用户的直属领导只看数字，不喜欢长篇大论。",
        "i_veggie": "同事小周是素食者，不吃任何肉。",
        "i_formal": "给客户写邮件时语气要正式，称呼用“您”。",
        "i_pickup": "用户每周三下午要接孩子放学，不能安排会议。",
        "i_notes": "用户的笔记都记在 Obsidian 里，用 Markdown 写。",
        "i_heights": "用户恐高，不坐缆车也不走玻璃栈道。",
        "i_alcohol": "用户滴酒不沾，聚会只喝饮料。",
    },
    "en": {
        "i_gluten": "User has coeliac disease and must avoid wheat.",
        "i_migraine": "Bright screens and flickering lights give the user migraines.",
        "i_keyboard": "User types on a split ergonomic keyboard because of wrist pain.",
        "i_linux": "User's home machine runs Arch Linux; no Windows or macOS.",
        "i_motion": "User gets motion sick unless sitting forward-facing near the front.",
        "i_designer": "Priya, our designer, is deaf and prefers written chat over calls.",
        "i_manager": "User's manager wants bad news raised early and in person.",
        "i_deepwork": "User does deep work before lunch and keeps mornings free of meetings.",
        "i_hotel": "User only stays in hotels that have a gym.",
        "i_shellfish": "User is allergic to shellfish.",
        "i_formal": "Messages sent on the user's behalf must sound formal, with no emojis.",
    },
    "mixed": {
        "i_caffeine": "用户对咖啡因敏感，两点以后不碰咖啡和奶茶。",
        "i_halal": "用户是穆斯林，不吃猪肉也不喝酒。",
        "i_asthma": "用户有轻度哮喘，不能在花粉多的地方久待。",
        "i_headphones": "用户的耳机是 Sony WH-1000XM5，只支持蓝牙连接。",
        "i_leader": "用户的 leader 是 Kevin，只回 Slack 消息，不看邮件。",
        "i_intern": "实习生小林刚毕业，需要手把手带，任务要拆得很细。",
        "i_diet": "用户在减脂，晚饭只吃沙拉和鸡胸肉。",
        "i_pickup": "用户每天五点半要去幼儿园接女儿。",
        "i_pudong": "用户住在浦东，离虹桥机场很远。",
        "i_code_first": "回复用户时先给 code，再给解释，不要长篇铺垫。",
        "i_braces": "用户最近做了牙齿矫正，硬的和黏的东西都不能吃。",
        "i_linear": "团队的任务都在 Linear 里追踪，不用 Jira。",
    },
    "zh2": {
        "i_diabetes": "用户有二型糖尿病，要控制甜食和精米白面。",
        "i_wheelchair": "用户的父亲坐轮椅，出门需要无障碍设施。",
        "i_laptop": "用户的电脑是联想 ThinkPad，公司不允许装私人软件。",
        "i_ipad": "用户用 iPad 和 Apple Pencil 做读书笔记。",
        "i_finance": "财务部的刘姐只收纸质报销单，不认电子版。",
        "i_manager": "部门经理张总喜欢先听风险，再听进展。",
        "i_cold": "用户冬天手脚冰凉，空调要开到二十六度以上。",
        "i_raw": "用户肠胃弱，生冷的东西一口都不能碰。",
        "i_brief": "给用户做总结时只要三句话以内。",
        "i_school": "用户的儿子今年上一年级，下午三点半放学要去接。",
        "i_mango": "用户对芒果过敏。",
        "i_owl": "用户是夜猫子，上午十点前效率很低。",
    },
}

QUERIES += [
    # zh scope: Chinese questions, two in English
    _q("zh", "indirect", "下午连开三场评审，帮我排一下议程", "i_back"),
    _q("zh", "indirect", "早餐帮我配一份，拿铁还是豆浆？", "i_lactose"),
    _q("zh", "indirect", "晚上请客户吃饭，选川菜馆还是火锅？", "i_spicy"),
    _q("zh", "indirect", "周末去千岛湖玩，帮我看看租车方案", "i_licence"),
    _q("zh", "indirect", "帮我推荐一副无线耳机，AirPods 怎么样", "i_phone"),
    _q("zh", "indirect", "帮我订一场周五深夜场的电影", "i_sleep"),
    _q("zh", "indirect", "下周要跟老板过季度进展，材料怎么准备", "i_boss"),
    _q("zh", "indirect", "帮我订个部门聚餐的馆子", "i_veggie"),
    _q("zh", "indirect", "帮我回一下这位甲方的投诉", "i_formal"),
    _q("zh", "indirect", "帮我找个时间跟供应商开个视频沟通", "i_pickup"),
    _q("zh", "indirect", "帮我把今天的讨论要点整理好存起来", "i_notes"),
    _q("zh", "indirect", "国庆去张家界，帮我规划两天的景点", "i_heights"),
    _q("zh", "indirect", "客户晚宴要点酒水吗，帮我看看菜单", "i_alcohol"),
    _q("zh", "indirect", "团建要带零食，帮我列个采购单", "zh_peanut"),
    _q("zh", "indirect", "It's 3 pm and I'm sleepy, order me something to sip", "zh_tea"),
    _q(
        "zh",
        "indirect",
        "I'm away abroad for two weeks next month, what should I arrange at home?",
        "zh_cat",
    ),
    # en scope: English questions, two in Chinese
    _q("en", "indirect", "Pick a place for Friday's pizza night", "i_gluten"),
    _q(
        "en", "indirect", "Which display settings should I choose for my new monitor?", "i_migraine"
    ),
    _q("en", "indirect", "What peripherals should I order for my new desk?", "i_keyboard"),
    _q("en", "indirect", "Recommend a video editing app I can install tonight", "i_linux"),
    _q("en", "indirect", "Get me train tickets for Saturday's trip up to Penang", "i_motion"),
    _q(
        "en",
        "indirect",
        "How should I get feedback on the mockups from the person who drew them?",
        "i_designer",
    ),
    _q(
        "en",
        "indirect",
        "We're going to slip the release date; how do I handle it upward?",
        "i_manager",
    ),
    _q(
        "en",
        "indirect",
        "Find a slot next week for a 90-minute planning session with everyone",
        "i_deepwork",
    ),
    _q("en", "indirect", "Find me somewhere to sleep in Tokyo next month", "i_hotel"),
    _q(
        "en",
        "indirect",
        "Which dishes should we order at the seafood place tonight?",
        "i_shellfish",
    ),
    _q("en", "indirect", "Draft a quick note to the group celebrating our launch", "i_formal"),
    _q("en", "indirect", "I'm stopping at the café before work, what should I get?", "en_coffee"),
    _q(
        "en",
        "indirect",
        "We're thinking of adopting a pet; what would suit our home?",
        "en_allergy",
    ),
    _q("en", "indirect", "Which extensions should I install to get Copilot working?", "en_vim"),
    _q("en", "indirect", "帮我约一个和伦敦办公室的电话", "en_timezone"),
    _q("en", "indirect", "三点的研讨会帮我准备点喝的", "en_tea"),
    # mixed scope: Chinese and English in one question
    _q("mixed", "indirect", "四点的 workshop 帮我订点 drinks", "i_caffeine"),
    _q("mixed", "indirect", "team dinner 帮我选个 restaurant", "i_halal"),
    _q("mixed", "indirect", "春天 team building 想去植物园 picnic，合适吗", "i_asthma"),
    _q("mixed", "indirect", "新手机要不要选有 3.5mm jack 的", "i_headphones"),
    _q("mixed", "indirect", "需要 manager 批个假，怎么 ask 比较好", "i_leader"),
    _q("mixed", "indirect", "这个 feature 要分给 new hire 做，怎么 assign", "i_intern"),
    _q("mixed", "indirect", "今晚 order 外卖，推荐点啥", "i_diet"),
    _q("mixed", "indirect", "帮我把 retro 放到傍晚六点左右", "i_pickup"),
    _q("mixed", "indirect", "下周去北京开会，帮我比一下高铁和 flight", "i_pudong"),
    _q("mixed", "indirect", "这个 bug 怎么修，直接 show me", "i_code_first"),
    _q("mixed", "indirect", "下午茶帮我点点 snacks", "i_braces"),
    _q("mixed", "indirect", "新的 bug report 应该记到哪里", "i_linear"),
    _q("mixed", "indirect", "推荐个 screenshot 工具，要能装在我的 laptop 上", "mx_mac"),
    _q("mixed", "indirect", "hotfix 准备好了，明天 Friday 能 deploy 吗", "mx_release"),
    _q("mixed", "indirect", "推荐几个提高 coding 效率的 plugin", "mx_editor"),
    # zh2 scope
    _q("zh2", "indirect", "帮我挑个生日蛋糕", "i_diabetes"),
    _q("zh2", "indirect", "五一带全家出去玩两天，去哪儿合适", "i_wheelchair"),
    _q("zh2", "indirect", "帮我装个听歌的客户端", "i_laptop"),
    _q("zh2", "indirect", "想把看过的书整理成摘录，用什么软件好", "i_ipad"),
    _q("zh2", "indirect", "出差的发票该怎么交上去", "i_finance"),
    _q("zh2", "indirect", "明天跟领导一对一，开场怎么说", "i_manager"),
    _q("zh2", "indirect", "会议室温度设多少合适", "i_cold"),
    _q("zh2", "indirect", "夏天聚餐想吃日料刺身，帮我订一家", "i_raw"),
    _q("zh2", "indirect", "这份三十页的行业报告帮我讲讲重点", "i_brief"),
    _q("zh2", "indirect", "周二的客户拜访帮我排个时间", "i_school"),
    _q("zh2", "indirect", "部门下午茶帮我订点水果", "i_mango"),
    _q("zh2", "indirect", "帮我把最难的那场评审放在哪天什么时候好", "i_owl"),
    _q("zh2", "indirect", "周末想自驾去郊外住一晚，民宿怎么挑", "z2_dog"),
    _q("zh2", "indirect", "早上开会前帮我带点提神的", "z2_coffee"),
    _q(
        "zh2",
        "indirect",
        "Help me plan a two-day trip for the whole family over the May holiday",
        "i_wheelchair",
    ),
]

# Off-topic questions in the same advisory style: nothing stored should shape them.
INDIRECT_NEGATIVES = {
    "zh": [
        "帮我给侄子出几道三年级的数学题",
        "想学油画，入门该买哪些颜料",
        "帮我想一个读书会的名字",
    ],
    "en": [
        "Suggest a name for my sailboat",
        "Help me write a toast for my brother's wedding",
        "Which chess opening should a beginner learn first?",
    ],
    "mixed": [
        "帮我写一首关于秋天的 haiku",
        "推荐一个学 Spanish 的方法",
        "帮我算一下 mortgage 月供",
    ],
    "zh2": ["想养几盆多肉，怎么浇水", "帮我给邻居家孩子起个英文名", "帮我规划一下学日语的计划"],
}

NEGATIVES = {
    "zh": [
        "量子计算的最新进展",
        "股票行情怎么样",
        "推荐几部科幻电影",
        "明天北京会下雨吗",
        "怎么做红烧肉",
        "马拉松训练计划",
    ],
    "en": [
        "how to bake sourdough bread",
        "What's the capital of Peru?",
        "best hiking trails in Colorado",
        "quantum computing breakthroughs",
        "how do vaccines work",
        "recommend a science fiction novel",
    ],
    "mixed": [
        "量子计算的最新进展",
        "recommend a good sushi restaurant",
        "怎么做红烧肉",
        "what's the weather in Tokyo",
        "世界杯冠军是谁",
    ],
    "zh2": [
        "股票行情怎么样",
        "推荐几部科幻电影",
        "how to bake sourdough bread",
        "怎么学习量子力学",
        "火星上有水吗",
    ],
}

# --- everyday facts asked in the other language ---------------------------------------------------
# The ordinary questions a user asks in one language about what they said in the other ("我在学什么
# 语言" for "The user is learning Spanish"; "how should I write weekly reports" for the 周报
# memory), with the memories they need; the cross-language questions above are mostly about
# projects and their names.  Written before their first run and kept whatever they scored.
CROSS_MEMORIES = {
    "zh": {
        "x_daughter": "用户的女儿在读小学三年级。",
        "x_car": "用户开一辆蓝色的比亚迪汉。",
        "x_dentist": "用户每半年去看一次牙医，洗牙。",
    },
    "en": {
        "x_spanish": "The user is learning Spanish.",
        "x_weekly": "Prefers concise English summaries for weekly reports.",
        "x_gym": "User goes to the gym on Tuesday and Thursday mornings.",
        "x_car": "User drives a white Tesla Model 3.",
        "x_sister": "User's sister lives in Melbourne.",
        "x_birthday": "User's birthday is on 14 July.",
        "x_seat": "User prefers an aisle seat on long flights.",
    },
    "mixed": {
        "x_standup": "每天的 standup 在 9:15，用 Zoom 开。",
    },
    "zh2": {},
}

CROSS_QUERIES = [
    # Chinese questions, English memories
    _q("en", "cross_language", "我在学什么语言", "x_spanish"),
    _q("en", "cross_language", "周报应该怎么写", "x_weekly"),
    _q("en", "cross_language", "我每周哪几天去健身房", "x_gym"),
    _q("en", "cross_language", "我开的是什么车", "x_car"),
    _q("en", "cross_language", "我姐姐住在哪个城市", "x_sister"),
    _q("en", "cross_language", "我的生日是哪天", "x_birthday"),
    _q("en", "cross_language", "坐长途飞机我喜欢什么座位", "x_seat"),
    _q("en", "cross_language", "我早上喝什么咖啡", "en_coffee"),
    _q("en", "cross_language", "我多久值一次班", "en_oncall"),
    _q("en", "cross_language", "我女儿在学什么", "en_daughter"),
    _q("en", "cross_language", "我用什么编辑器写代码", "en_vim"),
    _q("en", "cross_language", "设计文档开头要写什么", "en_docs"),
    # English questions, Chinese memories
    _q("zh", "cross_language", "how should I write weekly reports", "zh_weekly"),
    _q("zh", "cross_language", "weekly report format", "zh_weekly"),
    _q("zh", "cross_language", "What's my cat called?", "zh_cat"),
    _q("zh", "cross_language", "What do I like doing at weekends?", "zh_hiking"),
    _q("zh", "cross_language", "How do I get to work?", "zh_city"),
    _q("zh", "cross_language", "What grade is my daughter in?", "x_daughter"),
    _q("zh", "cross_language", "What car do I drive?", "x_car"),
    _q("zh", "cross_language", "How often do I see the dentist?", "x_dentist"),
    _q("zh", "cross_language", "How long may a function be?", "zh_style"),
    _q("zh", "cross_language", "Does every feature need unit tests?", "zh_tests"),
    _q("zh2", "cross_language", "what language do I write backend code in", "z2_java"),
    _q("zh2", "cross_language", "What is my dog's name?", "z2_dog"),
    _q("zh2", "cross_language", "Which evening do I go swimming?", "z2_swim"),
    _q("zh2", "cross_language", "How many slides may a presentation have?", "z2_ppt"),
    # mixed memories asked in one language
    _q("mixed", "cross_language", "How far do I run every morning?", "mx_run"),
    _q("mixed", "cross_language", "每天站会几点开", "x_standup"),
    _q("mixed", "cross_language", "我最近在读什么书", "mx_book"),
    _q("mixed", "cross_language", "Which language are code comments written in?", "mx_lang"),
]

# Off-topic questions in the other language than the scope's memories: they must stay unanswered.
CROSS_NEGATIVES = {
    "zh": ["How many moons does Jupiter have?", "Who painted the Mona Lisa?"],
    "en": ["埃及金字塔是怎么建的", "北极熊吃什么"],
    "mixed": ["光合作用是怎么回事", "Who wrote Pride and Prejudice?"],
    "zh2": ["What is the speed of light?", "How do volcanoes form?"],
}

QUERIES += CROSS_QUERIES
QUERIES += [
    _q(scope, "negative", text)
    for negatives in (NEGATIVES, INDIRECT_NEGATIVES, CROSS_NEGATIVES)
    for scope, texts in negatives.items()
    for text in texts
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


def grown_queries() -> list[Query]:
    """The questions about the grown projects (on ``grown_memories`` only)."""
    zh = (GROWN_ZH_NAMES, GROWN_ZH_OWNERS, GROWN_ZH_PURPOSES, GROWN_ZH_WHEN, GROWN_ZH_STACKS)
    en = (GROWN_EN_NAMES, GROWN_EN_OWNERS, GROWN_EN_PURPOSES, GROWN_EN_WHEN, GROWN_EN_STACKS)
    projects = {
        "zh": _grown(*zh, offset=0),
        "mixed": _grown(*zh, offset=1),
        "zh2": _grown(*zh, offset=2),
        "en": _grown(*en, offset=0),
    }
    asked: list[Query] = []
    for scope, grown in projects.items():
        for turn, number in enumerate(GROWN_ASKED):
            key, name, _purpose, _when, owner, _stack = grown[number]
            zh_purpose = GROWN_ZH_PURPOSES[number]  # the en scope walks the purposes from 0 too
            asked += _grown_questions(scope, key, name, owner, turn, zh_purpose)
    return asked
