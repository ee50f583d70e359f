"""Credentials are refused whole and never echoed."""

from __future__ import annotations

import pytest

from memories.admission import admit, find_credential
from tests.memories.admission.fakes import OPENAI_PROJECT_KEY, assistant, j, user

# Credentials
# --------------------------------------------------------------------------------------------

CREDENTIAL_CASES = [
    pytest.param(f"用这个 key：{OPENAI_PROJECT_KEY}", "openai_api_key", id="openai-project"),
    pytest.param(j("OPENAI_API_KEY=sk-", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"), "openai_api_key",
                 id="openai-legacy"),
    pytest.param(j("sk-", "ant-", "api03-", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe"),
                 "anthropic_api_key", id="anthropic"),
    pytest.param(j("token ", "ghp_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"), "github_token",
                 id="github-classic"),
    pytest.param(j("github", "_pat_", "11ABCDEFG0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789"),
                 "github_token", id="github-fine-grained"),
    pytest.param(j("glpat", "-", "Xy12Ab34Cd56Ef78Gh90"), "gitlab_token", id="gitlab"),
    pytest.param(j("AKIA", "Z7Q4R2T8W3Y6U1P5"), "aws_access_key", id="aws-access-key-id"),
    pytest.param(j("aws_secret_access_key = ", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "q8Zr3Tv6Kp"),
                 "aws_secret_access_key", id="aws-secret-access-key"),
    pytest.param(j("AIza", "SyD4f7Gh1Jk3Lm5Np7Qr9St1Vw3Xz5Bc7De9"), "google_api_key",
                 id="google"),
    pytest.param(j("xoxb", "-1234567890-0987654321-", "AbCdEfGhIjKlMnOpQrStUvWx"),
                 "slack_token", id="slack"),
    pytest.param(j("sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc"), "stripe_secret_key",
                 id="stripe-secret"),
    pytest.param(j("rk", "_live_", "51HxYz2AbCdEfGhIjKlMnOpQr"), "stripe_secret_key",
                 id="stripe-restricted"),
    pytest.param(j("Authorization: Bearer ", "d8Kf2Lp9Qx4Vn7Rt1Ws6Yb3Zc5"), "bearer_token",
                 id="bearer-header"),
    pytest.param(
        j(
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
            ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0",
            ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        ),
        "jwt",
        id="jwt",
    ),
    pytest.param(j("-----BEGIN ", "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END ",
                    "RSA PRIVATE KEY-----"), "private_key", id="rsa-private-key"),
    pytest.param(j("-----BEGIN ", "OPENSSH PRIVATE KEY-----"), "private_key",
                 id="openssh-private-key"),
    pytest.param(j("password", "=hunter2"), "password_assignment", id="password-equals"),
    pytest.param(j("passwd", ": letmein42"), "password_assignment", id="passwd-colon"),
    pytest.param(j("DB_PASSWORD", "=s3cr3t!"), "password_assignment", id="env-password"),
    pytest.param(j("my password ", "is hunter2"), "password_assignment", id="password-is"),
    pytest.param(j("token", "=ab12cd34ef56gh78"), "secret_assignment", id="token-equals"),
    pytest.param(j("secret", "=my-super-secret-value"), "secret_assignment", id="secret-equals"),
    pytest.param(j('{"password": ', '"hunter2"}'), "secret_keyword_assignment", id="json"),
    pytest.param(j("服务器密码", "是abc12345"), "password_statement", id="cn-mima-shi"),
    pytest.param(j("密码", "：Abc@2024"), "password_statement", id="cn-mima-colon"),
    pytest.param(j("口令", "为 zxcv7788"), "password_statement", id="cn-kouling-wei"),
    pytest.param(j("密码", "是“芝麻开门”"), "password_statement", id="cn-quoted-chinese"),
    pytest.param(j("账号 admin ", "密码 admin123"), "password_statement", id="cn-no-verb"),
    pytest.param(j("密钥", "是 8f3k2j4h5g6d"), "secret_statement", id="cn-miyao-shi"),
    pytest.param(j("ＰＡＳＳＷＯＲＤ", "＝ａｂｃ１２３"), "password_assignment",
                 id="full-width"),
    # Found by probing from outside: passwords of letters only, a noun between the keyword and
    # "is", no separator, the keyword spaced out or in Traditional Chinese, other languages.
    pytest.param(j("my password ", "is correcthorsebatterystaple"), "password_assignment",
                 id="password-is-letters"),
    pytest.param(j("my password ", "is correcthorsebatterystaple, please remember"),
                 "password_assignment", id="password-is-letters-clause"),
    pytest.param(j("The password for the router ", "is bluebird"), "password_assignment",
                 id="password-for-the-router-is"),
    pytest.param(j("the admin pw for staging ", "is letmein2024"), "password_assignment",
                 id="pw-for-staging-is"),
    pytest.param(j("passwd ", "letmein2024"), "password_statement", id="passwd-no-verb"),
    pytest.param(j("我的密碼", "：Hunter2!xyz"), "password_statement", id="traditional-mima"),
    pytest.param(j("密码", "hunter22"), "password_statement", id="cn-no-separator"),
    pytest.param(j("密 码", "是 hunter22"), "password_statement", id="cn-spaced-keyword"),
    pytest.param(j("密　码", "：ｈｕｎｔｅｒ２"), "password_statement", id="cn-full-width-spaced"),
    pytest.param(j("HF token ", "hf_", "AbCdEfGhIjKlMnOpQrStUvWxYz12345678"),
                 "huggingface_token", id="huggingface"),
    pytest.param(j("npm token ", "npm_", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"), "npm_token",
                 id="npm-access-token"),
    pytest.param(j("Telegram bot token ", "123456789:", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"),
                 "telegram_bot_token", id="telegram-bot"),
    pytest.param(j("пароль", ": hunter22"), "password_statement", id="russian"),
    pytest.param(j("Passwort ", "ist hunter22"), "password_statement", id="german"),
    pytest.param(j("パスワードは", " hunter22 です"), "password_statement", id="japanese"),
    pytest.param(j("OTP ", "是 492817"), "password_statement", id="otp"),
    pytest.param(j("PIN码", "是 8391"), "password_statement", id="pin"),
    # Found by a third probe over HTTP: vendor shapes detect-secrets does not know, a product
    # key, an Ethereum private key named by its wallet, a login given as user/password.
    pytest.param(j("OAuth client secret for the Google login: ", "GOCSPX-",
                   "z_TddJ8HyS5SUkCnD8zRA9a9SkpX"), "google_oauth_client_secret",
                 id="google-oauth-client-secret"),
    pytest.param(j("OpenRouter key ", "sk-or-", "v1-", "6f6967e7893f57fd14c1604d115cea32",
                   "5a65e19cbae530282bd36cb9d21f6be6"), "openrouter_api_key", id="openrouter"),
    pytest.param(j("Windows 11 Pro product key: ", "VK7JG-NPHTM-", "C97JM-9MPGT-3V66T"),
                 "product_key", id="windows-product-key"),
    pytest.param(j("Office 2021 序列号 ", "NMMKJ-6RK4F-", "KMJVX-8D9MJ-6MWKP", "，重装系统时用"),
                 "product_key", id="office-product-key-zh"),
    pytest.param(j("MetaMask account 2: ", "3581569969e58b081006f7e3dfc967a6",
                   "4cb14028d512c9791e558e08baa7196b"), "ethereum_private_key",
                 id="metamask-account"),
    pytest.param(j("my Ledger wallet key 0x", "3581569969e58b081006f7e3dfc967a6",
                   "4cb14028d512c9791e558e08baa7196b"), "ethereum_private_key",
                 id="wallet-key-0x"),
    pytest.param(j("router login admin/", "hunter2xyz"), "login_password", id="login-slash"),
    pytest.param(j("User's NAS is a Synology DS920+ in the study; admin login admin / ",
                   "Vx7#pLm2Qz."), "login_password", id="login-spaced-slash"),
    pytest.param(j("VPN 登录用 chenli / ", "Hk7$wQ2z，以后连内网都用这个"), "login_password",
                 id="login-zh"),
    pytest.param(j("postgres://app:", "S3cret@db.internal:5432/poco"),
                 "connection_string_password", id="postgres"),
    pytest.param(j("mysql://root:", "rootpw@localhost/shop"), "connection_string_password",
                 id="mysql"),
    pytest.param(j("redis://:", "p4ssw0rd@cache:6379/0"), "connection_string_password",
                 id="redis-no-user"),
    pytest.param(j("mongodb+srv://user:", "pa55word@cluster0.example.net/db"),
                 "connection_string_password", id="mongodb-srv"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "kind"), CREDENTIAL_CASES)
def test_find_credential_names_the_kind(text, kind):
    assert find_credential(text) == kind


@pytest.mark.parametrize(("text", "kind"), CREDENTIAL_CASES)
def test_credential_refuses_the_batch_without_echoing_it(text, kind):
    result = admit(source="chat", messages=[user("用户偏好简体中文回答"), assistant(text)])

    assert result.admitted is False
    assert result.reason == "credential"
    assert result.messages == ()
    assert result.detail == f"message 1 (assistant) contains a credential ({kind})"


def test_credential_inside_a_code_block_still_refuses_the_batch():
    text = f"部署步骤如下\n```bash\nexport OPENAI_API_KEY={OPENAI_PROJECT_KEY}\n```\n完成"

    result = admit(source="chat", messages=[user(text)])

    assert (result.admitted, result.reason) == (False, "credential")


def test_credential_deep_inside_a_long_line_is_found():
    sendgrid_key = j(
        "SG.", "aB3dE6gH9jK2mN5pQ8sT1v", ".", "wX4zA7cD0fG3iJ6lM9oP2rS5uV8xY1bE4hK7nQ0tW3z"
    )
    text = "用户偏好简洁回答" * 125 + sendgrid_key + "，其余照旧" * 400

    assert find_credential(text) == "sendgrid_api_key"


def test_credential_in_any_message_refuses_every_message():
    result = admit(
        source="task_completed",
        messages=[user("以后周报统一用 HTML"), assistant(f"已配置 {OPENAI_PROJECT_KEY}")],
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
        # A question mark ends a question, not a password ("Passwort auf?").
        "Wo bewahrst du dein WLAN-Passwort auf?",
        "Weißt du, wo das Passwort ist?",
        # A path, two ways to sign in, a placeholder: no login given.
        "the login page is /admin",
        "the login page is /admin2 on the staging host",
        "login with admin/SSO",
        "login: user/password",
        "Sign in with Google / GitHub on the docs site",
        "Our login flow supports TOTP/WebAuthn2.",
        # Hashes of 64 hex digits are no wallet keys, even beside a wallet's word.
        "The artifact's SHA-256 is "
        "3581569969e58b081006f7e3dfc967a64cb14028d512c9791e558e08baa7196b",
        "My wallet's last transaction hash is "
        "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
        "account service build 3581569969e58b081006f7e3dfc967a64cb14028d512c9791e558e08baa7196b",
        # Five groups of five that are no product key: a placeholder, a SKU of words and digits.
        "Windows product keys look like XXXXX-XXXXX-XXXXX-XXXXX-XXXXX",
        "SKU ABCDE-12345-FGHIJ-67890-KLMNO is out of stock",
        "Windows 11 Pro 23H2 build 22631.2861 is installed",
        "sk-or-v1 is OpenRouter's key prefix",
    ],
)
def test_harmless_mentions_are_not_credentials(text):
    assert find_credential(text) is None
    assert admit(source="chat", messages=[user(text)]).reason != "credential"
