"""What the regression writes and asks, every step's texts in one place: none of it is
personal, none of it may be refused by admission."""

from __future__ import annotations

LIFECYCLE_TEXT = "用户偏好用简体中文撰写技术方案"
LIFECYCLE_UPDATE = "用户偏好用英文撰写技术方案"
LIFECYCLE_SECOND = "User reviews pull requests every morning"
CREDENTIAL_TEXT = "我的 GitHub token 是 ghp_Zr8Kq2Lm4Nx7Vb1Cd9Fg3Hj5Tp6Ws0Ye2Ua4"
NOISE_PROSE = "用户希望周报结论先行"
NOISE_TEXT = (
    f"{NOISE_PROSE}。\nTraceback (most recent call last):\n"
    '  File "/srv/poco/app/main.py", line 3, in <module>\nValueError: boom\n'
    "参考 https://wiki.example.com/report/weekly 和 /etc/poco/report.yaml"
)
NOISE_LEFTOVERS = ("Traceback", "ValueError", "/srv/poco", "https://", "/etc/poco")
INGEST_TASK = [
    {
        "role": "user",
        "content": "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。",
    },
    {"role": "assistant", "content": "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。"},
]
INGEST_ONE_OFF = [
    {"role": "user", "content": "这次帮我把报告发给林清。"},
    {"role": "assistant", "content": "好的，今天下午已经发送。"},
]
INGEST_WAIT_SECONDS = 120
ISOLATION_TEXT = "用户的团队每周四下午做架构评审"
ISOLATION_QUERY = "团队什么时候做架构评审"
PROBE_TEXT = "用户习惯在周一上午安排站会"
ENTITY_TEXT = "用户的团队沟通用“飞书”"
ENTITY_UPDATE = "用户的团队沟通用“钉钉”"
ENTITY_OLD, ENTITY_NEW = "飞书", "钉钉"
SENTENCE_TEXT = "用户说过“以后报告用飞书发”。"
SENTENCE = "以后报告用飞书发"
OLD_TEXT = "用户习惯每周五下午整理周报"
OLD_QUERY = "用户什么时候整理周报"
OLD_UPDATE = "用户习惯每周五上午整理周报"
CONSOLE_A = "用户喜欢在晚上阅读技术博客"
CONSOLE_B = "用户每天早上跑步五公里"
CONSOLE_B_QUERY = "用户每天早上做什么运动"
USER_API = "/api/v1/user-customer-settings/memories"
OUTAGE_QUERY = "技术方案用什么语言"
