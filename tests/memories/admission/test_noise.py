"""Noise removal: traces, logs, commands, code, summaries; paths and URLs cut out."""

from __future__ import annotations

import pytest

from memories.admission import admit, clean_text
from tests.memories.admission.fakes import user

# Noise removal
# --------------------------------------------------------------------------------------------


def test_mixed_text_keeps_the_sentence_and_drops_the_noise():
    text = (
        "以后所有报告统一使用 HTML 格式，不要再用 PDF。\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app/report.py", line 12, in render\n'
        '    raise ValueError("bad template")\n'
        "ValueError: bad template\n"
        "$ pip install -r requirements.txt\n"
        "以后排版参考 https://docs.example.com/style?lang=zh 的“周报模板”。"
    )

    result = admit(source="chat", messages=[user(text)])

    assert result.admitted is True
    assert result.messages == (
        user(
            "以后所有报告统一使用 HTML 格式，不要再用 PDF。\n以后排版参考的“周报模板”。"
        ),  # quotes as typed
    )


NOISE_BLOCKS = [
    pytest.param(
        'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n'
        "    main()\nDuring handling of the above exception, another exception occurred:\n"
        "KeyError: 'x'",
        id="python-traceback",
    ),
    pytest.param('  File "/app/x.py", line 9, in run', id="python-frame-alone"),
    pytest.param(
        'Exception in thread "main" java.lang.NullPointerException: oops\n'
        "\tat com.foo.Bar.baz(Bar.java:12)\n\tat com.foo.Main.main(Main.java:5)\n"
        "Caused by: java.io.IOException: disk\n\t... 3 more",
        id="java-stack",
    ),
    pytest.param(
        "TypeError: Cannot read properties of undefined (reading 'x')\n"
        "    at Object.<anonymous> (/app/index.js:10:5)\n"
        "    at Module._compile (node:internal/modules/cjs/loader:1105:14)",
        id="js-stack",
    ),
    pytest.param(
        "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n"
        "\t/app/main.go:8 +0x1d\nexit status 2",
        id="go-panic",
    ),
    pytest.param("2025-01-02 10:00:00 INFO server started on port 8000", id="log-timestamp-level"),
    pytest.param("2025-01-02T10:00:00.123Z app[42] request done", id="log-iso-timestamp"),
    pytest.param("[ERROR] upstream timed out", id="log-bracket-level"),
    pytest.param("WARN: disk almost full", id="log-level-colon"),
    pytest.param("INFO:root:job finished", id="log-python-default"),
    pytest.param(
        "ERROR 2026-12-03T08:00:00Z [api] request failed: 500 Internal Server Error at /v1/users",
        id="log-level-then-timestamp",
    ),
    pytest.param("$ docker compose up -d", id="dollar-prompt"),
    pytest.param("root@web-01:~# systemctl restart nginx", id="root-prompt"),
    pytest.param("dev@laptop:~/poco$ make test", id="user-prompt"),
    pytest.param(">>> import os\n... print(os.getcwd())", id="python-repl"),
    pytest.param("PS C:\\Users\\dev> Get-ChildItem", id="powershell-prompt"),
    pytest.param("pip install mem0ai==2.2.1", id="pip-install"),
    pytest.param("npm run build", id="npm-run"),
    pytest.param('git commit -m "修复报告排版"', id="git-with-chinese-message"),
    pytest.param("docker build -t poco .", id="docker"),
    pytest.param("kubectl get pods -n memory", id="kubectl"),
    pytest.param("curl -X POST localhost:8000/api/v1/memories", id="curl"),
    pytest.param("cd /srv/poco", id="cd-absolute"),
    pytest.param("sudo apt-get install -y postgresql", id="sudo"),
    pytest.param("```python\nprint('hi')\nvalue = compute(1)\n```", id="fenced-block"),
    pytest.param("~~~\nSELECT 1;\n~~~", id="tilde-fence"),
    pytest.param("    def render(self):\n        return self.template", id="indented-code"),
    pytest.param("\tif (x == null) { return; }", id="tab-indented-code"),
    pytest.param("def foo():\n    return 42", id="python-function"),
    pytest.param("class Report(Base):\n    pass", id="python-class"),
    pytest.param("function render(items) {\n  return items.map(show);\n}", id="js-function"),
    pytest.param(
        "Running 30s test @ http://localhost:8080\n  4 threads and 100 connections\n"
        "  Thread Stats   Avg      Stdev     Max   +/- Stdev\n"
        "    Latency    12.34ms    3.21ms  80.00ms   90.12%\n"
        "    Req/Sec     2.10k   200.00     3.00k    70.00%\n"
        "  250000 requests in 30.00s, 40.00MB read\n"
        "Requests/sec:   8333.33\nTransfer/sec:      1.33MB",
        id="wrk",
    ),
    pytest.param(
        "This is ApacheBench, Version 2.3\nConcurrency Level:      10\n"
        "Requests per second:    950.12 [#/sec] (mean)\n"
        "Percentage of the requests served within a certain time (ms)\n  50%     10\n  99%     40",
        id="apache-bench",
    ),
    pytest.param("SET: 120000.00 ops/s", id="ops-per-second"),
    pytest.param("p50: 12ms\np99: 48ms", id="percentiles"),
    pytest.param(
        "<session_summary>\n用户之前说过要用英文\n</session_summary>", id="session-summary-tag"
    ),
    pytest.param("<system-reminder>记忆工具可用</system-reminder>", id="system-reminder"),
    pytest.param("[Session Summary]\n讨论了部署方案\n", id="bracket-summary"),
    pytest.param("会话摘要：用户讨论了部署\n以及数据库迁移\n", id="cn-summary-colon"),
    pytest.param("以下是之前会话的摘要\n\n用户要求改用英文\n", id="cn-summary-preamble"),
]  # fmt: skip


@pytest.mark.parametrize("noise", NOISE_BLOCKS)
def test_noise_blocks_are_dropped_between_sentences(noise):
    text = f"用户偏好简洁回答\n{noise}\n结论放在最前面"

    assert [line for line in clean_text(text).splitlines() if line.strip()] == [
        "用户偏好简洁回答",
        "结论放在最前面",
    ]


def test_markdown_session_summary_runs_until_the_next_heading():
    text = "## Session summary\n- 用户要求英文\n- 数据库用 MySQL\n## 偏好\n用户偏好简体中文"

    assert clean_text(text) == "## 偏好\n用户偏好简体中文"


def test_unclosed_summary_tag_drops_the_rest_of_the_message():
    assert clean_text("用户偏好深色主题\n<session_summary>\n旧内容\n旧内容") == "用户偏好深色主题"


@pytest.mark.parametrize(
    "line",
    [
        "git 提交信息统一用中文",
        "docker 镜像统一用 alpine",
        "make sure every report starts with the conclusion",
        "Latency matters more than throughput for this team",
        "- 列表项\n    - 子项也用中文写",
        "2025-01-02 我们决定以后都用 HTML",
        "# 周报模板",
        "A/B 测试和 TCP/IP 相关的结论写进附录",
        "这次生成 HTML 报告",
        "用户偏好 “林清” 负责审阅",
        # A benchmark tool's labels inside prose (all were dropped as load-test echo).
        "Load testing confirmed that the Atlas API holds 500 requests per second.",
        "The gateway handled 12000 requests in 30 seconds without an error.",
        "We settled on 8 threads and 200 connections for the pool.",
        "Summary: the user wants weekly reports in English.",
        "The latency distribution matters more than the mean.",
    ],
)
def test_natural_language_lines_survive_cleaning(line):
    assert clean_text(line) == line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我在 /home/a/b.py 中发现用户偏好 tab 缩进", "我发现用户偏好 tab 缩进"),
        ("日志保存在 /var/log/poco 目录下", "日志保存在目录下"),
        ("部署路径/opt/poco/releases不要改动", "部署路径不要改动"),
        ("模板在 ~/templates/weekly 下面", "模板在下面"),
        ("配置见 C:\\Users\\dev\\poco\\config.yaml 文件", "配置见文件"),
        ("用户偏好参考 https://docs.example.com/g?x=1 的排版。", "用户偏好参考的排版。"),
        ("see https://example.com/docs for details.", "see for details."),
        ("说明文档在 www.example.com/help。", "说明文档在。"),
        ("用户喜欢（见 https://example.com/a ）简洁的表格", "用户喜欢简洁的表格"),
        ('审阅人 "林清" "王五"，名单见 https://example.com/t', '审阅人 "林清" "王五"，名单见'),
        ('run with `path="/usr/bin/chromium"` first', "run with `path=` first"),
    ],
)  # fmt: skip
def test_paths_and_urls_are_cut_out_of_sentences(text, expected):
    assert clean_text(text) == expected


def test_line_holding_only_a_url_disappears():
    assert clean_text("参考资料：\n- https://example.com/a\n- /opt/poco/docs/") == "参考资料："


def test_blank_lines_are_collapsed():
    assert clean_text("\n\n第一段\n\n\n\n第二段\n\n") == "第一段\n\n第二段"


# Where multi-line noise ends
# --------------------------------------------------------------------------------------------


def test_a_fence_closes_only_on_a_line_of_its_own_marker_as_long_or_longer():
    # "```" inside a four-backtick fence is code; "~~~" does not close a backtick fence.
    text = "用户偏好简洁回答\n````md\n```\n~~~\n用户示例\n````\n结论放在最前面"
    assert clean_text(text) == "用户偏好简洁回答\n结论放在最前面"


def test_a_one_line_fenced_snippet_opens_no_block():
    assert clean_text("```ls -la```\n结论放在最前面") == "结论放在最前面"


def test_a_traceback_ends_with_its_exception_line_or_a_blank_line():
    frames = 'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n'
    assert clean_text(f"{frames}KeyError: 'x'\n用户偏好简洁回答") == "用户偏好简洁回答"
    assert clean_text(f"{frames}\n用户偏好简洁回答") == "用户偏好简洁回答"
    # a sentence right after the frames ends it too, and is kept
    assert clean_text(f"{frames}用户偏好简洁回答") == "用户偏好简洁回答"


def test_a_goroutine_dump_ends_at_the_first_line_of_prose():
    text = "goroutine 7 [running]:\nmain.work()\n\t/app/main.go:8 +0x1d\n用户偏好简洁回答"
    assert clean_text(text) == "用户偏好简洁回答"


def test_a_summary_after_a_marker_runs_to_the_first_blank_line_after_its_text():
    text = "[Session Summary]\n\n讨论了部署方案\n\n用户偏好简洁回答"
    assert clean_text(text) == "用户偏好简洁回答"


def test_a_summary_section_stops_at_a_heading_of_its_level_but_not_at_a_deeper_one():
    text = "## Session summary\n### 细节\n- 数据库用 MySQL\n# 偏好\n用户偏好简体中文"
    assert clean_text(text) == "# 偏好\n用户偏好简体中文"


def test_repl_continuation_dots_are_noise_only_after_a_prompt():
    assert clean_text(">>> x = 1\n... y = 2\n用户偏好简洁回答") == "用户偏好简洁回答"
    assert clean_text("用户偏好简洁回答\n... 然后结论放在最前面") == (
        "用户偏好简洁回答\n... 然后结论放在最前面"
    )
