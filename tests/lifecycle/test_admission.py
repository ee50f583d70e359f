"""Deterministic admission layer (seed 000 §4.1, seed 004): pure functions, no database.

Fake credentials are assembled from pieces at run time so that secret scanners and push
protection never see a credential-shaped literal in this file.
"""

from __future__ import annotations

import pytest

from lifecycle.admission import (
    REJECTION_REASONS,
    AdmissionResult,
    Message,
    admit,
    admit_text,
    clean_text,
    find_credential,
    find_sensitive_identifier,
    normalize_quotes,
)


def _j(*parts: str) -> str:
    return "".join(parts)


def _resident_id(first_17: str) -> str:
    """Append the ISO 7064 MOD 11-2 check character."""
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(digit) * weight for digit, weight in zip(first_17, weights, strict=True))
    return first_17 + "10X98765432"[total % 11]


def _with_luhn_digit(payload: str) -> str:
    """Append the Luhn check digit."""
    for check in "0123456789":
        candidate = payload + check
        total = 0
        for position, char in enumerate(reversed(candidate)):
            value = int(char) * (2 if position % 2 else 1)
            total += value - 9 if value > 9 else value
        if total % 10 == 0:
            return candidate
    raise AssertionError("unreachable")


def _user(content: str) -> Message:
    return Message(role="user", content=content)


def _assistant(content: str) -> Message:
    return Message(role="assistant", content=content)


# --------------------------------------------------------------------------------------------
# Sources
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["pre_compact", "session_end", "PRE-COMPACT", " session_end "])
def test_snapshot_sources_are_refused(source):
    result = admit(source=source, messages=[_user("用户偏好简体中文回答")])

    assert result.admitted is False
    assert result.reason == "snapshot_source"
    assert result.messages == ()


def test_session_state_source_is_refused():
    result = admit(source="session_state", messages=[_user("用户偏好简体中文回答")])

    assert (result.admitted, result.reason, result.messages) == (False, "session_state", ())


@pytest.mark.parametrize("source", ["manage_add", "manage_update", "chat", "import"])
def test_ordinary_sources_are_admitted(source):
    result = admit(source=source, messages=[_user("用户偏好简体中文回答")])

    assert result == AdmissionResult(
        admitted=True, messages=(_user("用户偏好简体中文回答"),), reason=None
    )


# --------------------------------------------------------------------------------------------
# Credentials
# --------------------------------------------------------------------------------------------

OPENAI_PROJECT_KEY = _j("sk-", "proj-", "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z")
CREDENTIAL_CASES = [
    pytest.param(f"用这个 key：{OPENAI_PROJECT_KEY}", "openai_api_key", id="openai-project"),
    pytest.param(_j("OPENAI_API_KEY=sk-", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"), "openai_api_key",
                 id="openai-legacy"),
    pytest.param(_j("sk-", "ant-", "api03-", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"),
                 "anthropic_api_key", id="anthropic"),
    pytest.param(_j("token ", "ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"), "github_token",
                 id="github-classic"),
    pytest.param(_j("github", "_pat_", "11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789"),
                 "github_token", id="github-fine-grained"),
    pytest.param(_j("glpat", "-", "Xy12Ab34Cd56Ef78Gh90"), "gitlab_token", id="gitlab"),
    pytest.param(_j("AKIA", "Z7Q4R2T8W3Y6U1P5"), "aws_access_key", id="aws-access-key-id"),
    pytest.param(_j("aws_secret_access_key = ", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "q8Zr3Tv6Kp"),
                 "aws_secret_access_key", id="aws-secret-access-key"),
    pytest.param(_j("AIza", "SyD4f7Gh1Jk3Lm5Np7Qr9St1Vw3Xz5Bc7De9"), "google_api_key",
                 id="google"),
    pytest.param(_j("xoxb", "-1234567890-0987654321-", "AbCdEfGhIjKlMnOpQrStUvWx"),
                 "slack_token", id="slack"),
    pytest.param(_j("sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc"), "stripe_secret_key",
                 id="stripe-secret"),
    pytest.param(_j("rk", "_live_", "51HxYz2AbCdEfGhIjKlMnOpQr"), "stripe_secret_key",
                 id="stripe-restricted"),
    pytest.param(_j("Authorization: Bearer ", "d8Kf2Lp9Qx4Vn7Rt1Ws6Yb3Zc5"), "bearer_token",
                 id="bearer-header"),
    pytest.param(
        _j(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
            ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0",
            ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        ),
        "jwt",
        id="jwt",
    ),
    pytest.param(_j("-----BEGIN ", "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END ",
                    "RSA PRIVATE KEY-----"), "private_key", id="rsa-private-key"),
    pytest.param(_j("-----BEGIN ", "OPENSSH PRIVATE KEY-----"), "private_key",
                 id="openssh-private-key"),
    pytest.param(_j("password", "=hunter2"), "password_assignment", id="password-equals"),
    pytest.param(_j("passwd", ": letmein42"), "password_assignment", id="passwd-colon"),
    pytest.param(_j("DB_PASSWORD", "=s3cr3t!"), "password_assignment", id="env-password"),
    pytest.param(_j("my password ", "is hunter2"), "password_assignment", id="password-is"),
    pytest.param(_j("token", "=ab12cd34ef56gh78"), "secret_assignment", id="token-equals"),
    pytest.param(_j("secret", "=my-super-secret-value"), "secret_assignment", id="secret-equals"),
    pytest.param(_j('{"password": ', '"hunter2"}'), "secret_keyword_assignment", id="json"),
    pytest.param(_j("服务器密码", "是abc12345"), "password_statement", id="cn-mima-shi"),
    pytest.param(_j("密码", "：Abc@2024"), "password_statement", id="cn-mima-colon"),
    pytest.param(_j("口令", "为 zxcv7788"), "password_statement", id="cn-kouling-wei"),
    pytest.param(_j("密码", "是“芝麻开门”"), "password_statement", id="cn-quoted-chinese"),
    pytest.param(_j("账号 admin ", "密码 admin123"), "password_statement", id="cn-no-verb"),
    pytest.param(_j("密钥", "是 8f3k2j4h5g6d"), "secret_statement", id="cn-miyao-shi"),
    pytest.param(_j("ＰＡＳＳＷＯＲＤ", "＝ａｂｃ１２３"), "password_assignment",
                 id="full-width"),
    pytest.param(_j("postgres://app:", "S3cret@db.internal:5432/poco"),
                 "connection_string_password", id="postgres"),
    pytest.param(_j("mysql://root:", "rootpw@localhost/shop"), "connection_string_password",
                 id="mysql"),
    pytest.param(_j("redis://:", "p4ssw0rd@cache:6379/0"), "connection_string_password",
                 id="redis-no-user"),
    pytest.param(_j("mongodb+srv://user:", "pa55word@cluster0.example.net/db"),
                 "connection_string_password", id="mongodb-srv"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kind"), CREDENTIAL_CASES)
def test_find_credential_names_the_kind(text, kind):
    assert find_credential(text) == kind


@pytest.mark.parametrize(("text", "kind"), CREDENTIAL_CASES)
def test_credential_refuses_the_batch_without_echoing_it(text, kind):
    result = admit(source="chat", messages=[_user("用户偏好简体中文回答"), _assistant(text)])

    assert result.admitted is False
    assert result.reason == "credential"
    assert result.messages == ()
    assert result.detail == f"message 1 (assistant) contains a credential ({kind})"


def test_credential_inside_a_code_block_still_refuses_the_batch():
    text = f"部署步骤如下\n```bash\nexport OPENAI_API_KEY={OPENAI_PROJECT_KEY}\n```\n完成"

    result = admit(source="chat", messages=[_user(text)])

    assert (result.admitted, result.reason) == (False, "credential")


def test_credential_deep_inside_a_long_line_is_found():
    sendgrid_key = _j(
        "SG.", "aB3dE6gH9jK2mN5pQ8sT1v", ".", "wX4zA7cD0fG3iJ6lM9oP2rS5uV8xY1bE4hK7nQ0tW3z"
    )
    text = "用户偏好简洁回答" * 125 + sendgrid_key + "，其余照旧" * 400

    assert find_credential(text) == "sendgrid_api_key"


def test_credential_in_any_message_refuses_every_message():
    result = admit(
        source="task_completed",
        messages=[_user("以后周报统一用 HTML"), _assistant(f"已配置 {OPENAI_PROJECT_KEY}")],
    )

    assert result.messages == ()
    assert result.reason == "credential"


@pytest.mark.parametrize(
    "text",
    [
        "用户希望密码策略文档写清楚",
        "I prefer password managers",
        "密码至少 12 位，需要包含大小写字母",
        "密码是否需要定期更换？",
        "密码为8位以上",
        "密码是 SHA256 加密后存储的",
        "the password is required",
        "password: string",
        "password: ******",
        "max_tokens=4096",
        "token 是按字符计费的",
        "token 的上限是 8192",
        "Bearer tokens expire after an hour",
        "the secret sauce is butter",
        "api_key: your-api-key-here",
        "token: ${GITHUB_TOKEN}",
        "Authorization: Bearer <token>",
        "postgres://app:${PG_PASSWORD}@db/poco",
        "提交 a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 修复了报告排版",
        "请求 id 123e4567-e89b-12d3-a456-426614174000 已处理",
        "scikit-learn 和 sk-learn 风格的命名都可以",
    ],
)
def test_harmless_mentions_are_not_credentials(text):
    assert find_credential(text) is None
    assert admit(source="chat", messages=[_user(text)]).reason != "credential"


# --------------------------------------------------------------------------------------------
# Personal identifiers
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "resident_id",
    [_resident_id("11010519491231002"), _resident_id("44030420000229123")],
    ids=["check-char-X", "leap-day-numeric-check"],
)
def test_valid_resident_id_is_detected(resident_id):
    assert find_sensitive_identifier(f"身份证号 {resident_id}，请记录") == "cn_resident_id"


def test_resident_id_with_wrong_checksum_is_not_an_id():
    valid = _resident_id("11010519491231002")
    wrong = valid[:17] + ("1" if valid[17] != "1" else "2")

    assert find_sensitive_identifier(f"编号 {wrong}") is None


@pytest.mark.parametrize(
    "first_17",
    ["11010519901301123", "11010518501231002", "11010529991231002"],
    ids=["month-13", "born-before-1900", "born-in-the-future"],
)
def test_resident_id_with_implausible_birth_date_is_not_an_id(first_17):
    assert find_sensitive_identifier(_resident_id(first_17)) is None


@pytest.mark.parametrize(
    "text",
    [
        "13812345678",
        "手机13812345678，晚上联系",
        "+86 138 1234 5678",
        "+86-13812345678",
        "(+86) 13912345678",
        "0086 15012345678",
        "138-1234-5678",
    ],
)
def test_mainland_mobile_numbers_are_detected(text):
    assert find_sensitive_identifier(text) == "cn_mobile"


@pytest.mark.parametrize(
    "text",
    ["913812345678", "138123456789", "12812345678", "1381234567", "版本 v13812345678"],
    ids=["digit-before", "digit-after", "second-digit-2", "ten-digits", "letter-before"],
)
def test_numbers_that_only_contain_a_mobile_shape_are_not_mobiles(text):
    assert find_sensitive_identifier(text) is None


@pytest.mark.parametrize(
    "card",
    [
        _with_luhn_digit("622202123456789012"),
        "4111 1111 1111 1111",
        "5500-0000-0000-0004",
        "6222 0212 3456 7890 128",
    ],
    ids=["unionpay-19", "visa-grouped", "mastercard-dashed", "unionpay-grouped-19"],
)
def test_luhn_valid_bank_cards_are_detected(card):
    assert find_sensitive_identifier(f"卡号 {card}") == "bank_card"


@pytest.mark.parametrize(
    "number",
    ["4111 1111 1111 1112", "6222021234567890124", _with_luhn_digit("173568960000")],
    ids=["visa-wrong-check", "unionpay-wrong-check", "ms-timestamp-luhn-valid"],
)
def test_numbers_failing_the_card_checks_are_not_bank_cards(number):
    assert find_sensitive_identifier(number) is None


def test_identifier_refuses_the_batch_without_echoing_it():
    result = admit(source="chat", messages=[_user("我的手机是 13812345678，报告发这里")])

    assert (result.admitted, result.reason, result.messages) == (
        False,
        "sensitive_identifier",
        (),
    )
    assert result.detail == "message 0 (user) contains a personal identifier (cn_mobile)"


def test_full_width_digits_are_checked_like_ascii_digits():
    assert find_sensitive_identifier("电话１３８１２３４５６７８") == "cn_mobile"


# --------------------------------------------------------------------------------------------
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

    result = admit(source="chat", messages=[_user(text)])

    assert result.admitted is True
    assert result.messages == (
        _user('以后所有报告统一使用 HTML 格式，不要再用 PDF。\n以后排版参考的"周报模板"。'),
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


# --------------------------------------------------------------------------------------------
# Roles and emptiness
# --------------------------------------------------------------------------------------------


def test_task_completed_with_user_and_assistant_is_admitted_in_order():
    result = admit(
        source="task_completed",
        messages=[_user("以后所有报告统一使用 HTML"), _assistant("已按 HTML 生成周报")],
    )

    assert result.admitted is True
    assert result.reason is None
    assert result.messages == (
        _user("以后所有报告统一使用 HTML"),
        _assistant("已按 HTML 生成周报"),
    )


@pytest.mark.parametrize(
    "messages",
    [
        [_user("以后所有报告统一使用 HTML")],
        [_assistant("已按 HTML 生成周报")],
        [_user("以后所有报告统一使用 HTML"), _assistant("$ npm run build")],
        [Message(role="system", content="你是助手"), _assistant("已按 HTML 生成周报")],
    ],
    ids=["only-user", "only-assistant", "assistant-only-noise", "system-is-not-user"],
)
def test_task_completed_without_both_meaningful_roles_is_missing_role(messages):
    result = admit(source="task_completed", messages=messages)

    assert (result.admitted, result.reason, result.messages) == (False, "missing_role", ())


def test_task_completed_roles_are_matched_case_insensitively():
    result = admit(
        source="task_completed",
        messages=[Message(role="User", content="偏好中文"), Message("Assistant", "好的，已记录")],
    )

    assert result.admitted is True


@pytest.mark.parametrize("source", ["chat", "task_completed", "manage_add"])
def test_batch_with_only_noise_is_empty_after_cleaning(source):
    noise = "```\nprint(1)\n```\n2025-01-02 10:00:00 ERROR boom\nhttps://example.com/x"

    result = admit(source=source, messages=[_user(noise), _assistant("$ ls -la")])

    assert (result.admitted, result.reason, result.messages) == (
        False,
        "empty_after_cleaning",
        (),
    )


@pytest.mark.parametrize("content", ["好", "1", "。。。", "   "])
def test_fewer_than_two_letters_is_not_meaningful(content):
    assert admit(source="chat", messages=[_user(content)]).reason == "empty_after_cleaning"


def test_two_letters_are_meaningful():
    assert admit(source="chat", messages=[_user("OK")]).admitted is True


def test_meaningless_messages_are_left_out_of_an_admitted_batch():
    result = admit(source="chat", messages=[_user("用户偏好简洁回答"), _assistant("$ ls -la")])

    assert result.messages == (_user("用户偏好简洁回答"),)


@pytest.mark.parametrize(
    "text",
    [
        "这次生成 HTML 报告",
        "今天下午 3 点临时把报告发给某某",
        "用户长期偏好通过邮件接收周报",
        "以后所有报告统一使用 HTML",
    ],
)
def test_admission_never_judges_whether_a_fact_is_worth_remembering(text):
    result = admit(source="chat", messages=[_user(text)])

    assert result.admitted is True
    assert result.messages == (_user(text),)


# --------------------------------------------------------------------------------------------
# Quotes
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("用户习惯让“林清”审阅", '用户习惯让"林清"审阅'),
        ("沟通统一用「飞书」", '沟通统一用"飞书"'),
        ("标题叫『周报』", '标题叫"周报"'),
    ],
)
def test_normalize_quotes_turns_chinese_quotes_into_ascii(text, expected):
    assert normalize_quotes(text) == expected


def test_normalize_quotes_keeps_apostrophes():
    assert normalize_quotes("don’t use PDF") == "don’t use PDF"


def test_admitted_messages_carry_ascii_quotes():
    result = admit(source="chat", messages=[_user("审阅人是“林清”，沟通用“飞书”")])

    assert result.messages == (_user('审阅人是"林清"，沟通用"飞书"'),)


# --------------------------------------------------------------------------------------------
# Explicit facts and result shape
# --------------------------------------------------------------------------------------------


def test_admit_text_wraps_one_fact_as_a_user_message():
    result = admit_text(source="manage_add", text="用户偏好“结论先行”的周报")

    assert result == AdmissionResult(
        admitted=True, messages=(_user('用户偏好"结论先行"的周报'),), reason=None
    )


def test_admit_text_applies_the_same_cleaning():
    result = admit_text(source="manage_update", text="周报模板见 https://wiki.example.com/w 页面")

    assert result.messages == (_user("周报模板见页面"),)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (f"用户的 key 是 {OPENAI_PROJECT_KEY}", "credential"),
        ("用户手机号 13812345678", "sensitive_identifier"),
        ("$ rm -rf /tmp/x", "empty_after_cleaning"),
    ],
)
def test_admit_text_refuses_like_admit(text, reason):
    result = admit_text(source="manage_add", text=text)

    assert (result.admitted, result.reason, result.messages) == (False, reason, ())


@pytest.mark.parametrize(
    ("source", "messages"),
    [
        ("pre_compact", [_user("偏好中文")]),
        ("session_state", [_user("偏好中文")]),
        ("chat", [_user(f"key {OPENAI_PROJECT_KEY}")]),
        ("chat", [_user("身份证 " + _resident_id("11010519491231002"))]),
        ("task_completed", [_user("偏好中文")]),
        ("chat", [_user("$ ls")]),
    ],
)
def test_every_refusal_is_a_known_reason_not_an_exception(source, messages):
    result = admit(source=source, messages=messages)

    assert result.reason in REJECTION_REASONS
    assert result.admitted is False
    assert result.messages == ()
    assert result.detail


def test_rejection_reasons_are_the_published_set():
    assert REJECTION_REASONS == (
        "snapshot_source",
        "session_state",
        "credential",
        "sensitive_identifier",
        "missing_role",
        "empty_after_cleaning",
    )
