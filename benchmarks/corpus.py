"""Synthetic memories for `make bench`: a deterministic Chinese/English mix (about 7 in 10
Chinese, as our users write), 15–90 characters, naming people, projects, tools and topics from
fixed pools so the entity index grows as a real user's does (a few names linked to thousands
of memories, many to a handful)."""

from __future__ import annotations

import random
from collections.abc import Iterator

PEOPLE = [
    "林清",
    "王磊",
    "张敏",
    "李娜",
    "陈晨",
    "刘洋",
    "杨帆",
    "赵雷",
    "黄蕾",
    "周杰",
    "吴迪",
    "徐静",
    "孙悦",
    "马超",
    "朱琳",
    "胡斌",
    "郭婷",
    "何平",
    "高远",
    "罗兰",
    "郑浩",
    "梁爽",
    "谢飞",
    "宋雨",
    "唐宁",
    "许诺",
    "韩梅",
    "冯源",
    "邓超",
    "曹阳",
]
PEOPLE_EN = [
    "Alice",
    "Bob",
    "Carol",
    "Dave",
    "Erin",
    "Frank",
    "Grace",
    "Heidi",
    "Ivan",
    "Judy",
    "Mallory",
    "Nina",
    "Oscar",
    "Peggy",
]
PROJECTS = [
    "Atlas",
    "Kestrel",
    "Poco",
    "Orion",
    "Nebula",
    "Falcon",
    "Harbor",
    "Maple",
    "Quartz",
    "Zephyr",
    "北极星",
    "青云",
    "星河",
    "磐石",
    "灯塔",
    "飞鱼",
    "海豚",
    "天枢",
    "玄武",
    "朱雀",
]
TOOLS = ["飞书", "钉钉", "企业微信", "Slack", "Notion", "Jira", "Confluence", "GitLab"]
TOPICS = [
    "技术方案",
    "周报",
    "代码评审",
    "集成测试",
    "发布流程",
    "数据库迁移",
    "向量检索",
    "权限设计",
    "监控告警",
    "成本预算",
    "用户调研",
    "前端文档",
    "接口规范",
    "性能优化",
    "灰度发布",
]
TOPICS_EN = [
    "code review",
    "release notes",
    "integration tests",
    "on-call rotation",
    "cost report",
    "API design",
    "database migration",
    "load testing",
    "incident review",
    "onboarding guide",
]
TECH = [
    "PostgreSQL",
    "pgvector",
    "Django",
    "HTMX",
    "Redis",
    "Kafka",
    "Kubernetes",
    "TypeScript",
    "Go",
    "Rust",
    "Python",
]
CITIES = ["北京", "上海", "深圳", "杭州", "成都", "广州", "南京", "武汉"]
WEEKDAYS = ["周一", "周二", "周三", "周四", "周五"]

ZH = (
    "{person}负责“{project}”项目的{topic}，每{weekday}在{tool}上同步进度（第{n}期）。",
    "用户偏好用简体中文写{topic}，结论先行，第{n}版起不再改格式。",
    "“{project}”的后端服务部署在{city}机房，第{n}号集群的数据库使用 {tech}。",
    "用户和{person}约定“{project}”的{topic}评审放在每月{n}号。",
    "用户不希望在{tool}里收到关于{topic}的提醒，第{n}条规则起生效。",
    "{person}是用户的同事，擅长 {tech} 和{topic}，第{n}次合作很顺利。",
    "上次讨论“{project}”时，用户说{topic}要优先考虑易维护性，{person}建议先在{city}试点，"
    "预计第{n}周完成。",
    "用户的目标是在第{n}个迭代把“{project}”迁移到 {tech}。",
)
EN = (
    "User prefers {tech} for {project} services and wants {topic_en} in {tool} (item {n}).",
    "{person_en} leads the {topic_en} work on {project}; sync is every week, issue {n}.",
    "The team decided that {project} must pass {topic_en} before release {n}.",
    "User's goal is to move {project} from {tech} to {tech2} by sprint {n}.",
)
QUERIES = (
    "Atlas 项目的周报谁负责",
    "用户喜欢用什么语言写技术方案",
    "“Kestrel”部署在哪里",
    "林清擅长什么",
    "飞书 提醒",
    "代码评审放在几号",
    "北极星 迁移到什么数据库",
    "which database does Orion use",
    "who leads the code review work",
    "Alice integration tests",
    "灰度发布 试点 城市",
    "用户不想收到什么提醒",
    "Poco 的后端服务部署在哪个机房",
    "release notes in Slack",
    "王磊 负责 哪个 项目",
    "User goal migrate to Rust",
)


def texts(seed: int, count: int, start: int = 0) -> Iterator[str]:
    """``count`` distinct texts (each carries its running number ``n``)."""
    rng = random.Random(seed)
    for n in range(start, start + count):
        template = rng.choice(ZH) if rng.random() < 0.7 else rng.choice(EN)
        yield template.format(
            n=n,
            person=rng.choice(PEOPLE),
            person_en=rng.choice(PEOPLE_EN),
            project=rng.choice(PROJECTS),
            tool=rng.choice(TOOLS),
            topic=rng.choice(TOPICS),
            topic_en=rng.choice(TOPICS_EN),
            tech=rng.choice(TECH),
            tech2=rng.choice(TECH),
            city=rng.choice(CITIES),
            weekday=rng.choice(WEEKDAYS),
        )
