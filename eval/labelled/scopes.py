"""The four scopes' memories (``eval.dataset``): projects in three sentences each, preferences,
verified conclusions and everyday filler."""

from __future__ import annotations

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


def zh_project_memories(key: str, name: str, purpose: str, when: str, owner: str, stack: str):
    quoted = f"“{name}”"
    return {
        f"{key}_goal": f"项目{quoted}是{purpose}，计划{when}上线，上线前要完成压测和灰度发布。",
        f"{key}_owner": f"{quoted}的负责人是{owner}，需求变更要先和他确认，再同步给测试和运维。",
        f"{key}_stack": f"{quoted}的技术栈是{stack}，部署在公司内部的容器平台上。",
    }


def en_project_memories(key: str, name: str, purpose: str, when: str, owner: str, stack: str):
    return {
        f"{key}_goal": f"Project {name} is the {purpose}, due {when}; load tests and a staged "
        "rollout must finish first.",
        f"{key}_owner": f"{owner} leads {name}; scope changes go through them before QA and ops "
        "hear about it.",
        f"{key}_stack": f"{name} runs on {stack}, deployed on the internal container platform.",
    }


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
