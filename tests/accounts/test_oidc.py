"""OpenID Connect sign-in against a real provider (oidc-provider-mock), through Django's client.

The browser walk (login, scope, logout, an expired session on an HTMX request) is in
tests/e2e/test_oidc.py; here are the rules around it.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.models import OidcIdentity
from memories.scope import scope_for_user, scope_of
from tests.edges.console.conftest import add_memory
from tests.oidc_provider import CLIENT_ID, Provider, oidc_configured

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/memories/?q=x"}


def sign_in(client: Client, provider: Provider, sub: str, next_url: str = ""):
    """The code flow: our redirect to the provider, the provider's consent (the mock's form
    posts the subject), its redirect back to our callback."""
    query = f"?next={next_url}" if next_url else ""
    start = client.get(reverse("oidc_authentication_init") + query)
    assert start.status_code == 302
    assert start["Location"].startswith(f"{provider.issuer}/oauth2/authorize?")
    consent = httpx.post(start["Location"], data={"sub": sub})
    assert consent.status_code == 302, consent.text
    back = urlsplit(consent.headers["location"])
    assert back.path == reverse("oidc_authentication_callback")
    return client.get(f"{back.path}?{back.query}")


def test_login_takes_the_scope_from_the_configured_claims(oidc_on):
    oidc_on.set_user("sub-alice", {"tenant": "acme", "preferred_username": "alice"})
    client = Client()
    response = sign_in(client, oidc_on, "sub-alice")
    assert response.status_code == 302
    assert response["Location"] == reverse("console:overview")
    identity = OidcIdentity.objects.get(subject="sub-alice")
    assert identity.issuer == oidc_on.issuer
    # The username is ours, never the IdP's: no local account can be taken over by a claim.
    assert identity.user.get_username().startswith("oidc-")
    assert scope_for_user(identity.user) == scope_of(tenant_id="acme", user_id="alice")
    assert client.get(reverse("console:overview")).status_code == 200


def test_signing_in_again_is_the_same_user_and_follows_the_claims(oidc_on):
    oidc_on.set_user("sub-carol", {"tenant": "acme", "preferred_username": "carol"})
    sign_in(Client(), oidc_on, "sub-carol")
    oidc_on.set_user("sub-carol", {"tenant": "acme", "preferred_username": "carol2"})
    sign_in(Client(), oidc_on, "sub-carol")
    identity = OidcIdentity.objects.get(subject="sub-carol")
    assert get_user_model().objects.filter(oidc_identity__subject="sub-carol").count() == 1
    assert scope_for_user(identity.user).user_id == "carol2"


def test_next_page_is_kept_through_the_provider(oidc_on):
    oidc_on.set_user("sub-dan", {"tenant": "acme", "preferred_username": "dan"})
    response = sign_in(Client(), oidc_on, "sub-dan", next_url="/memories/")
    assert response["Location"] == "/memories/"


def test_login_without_the_scope_claims_is_refused_with_a_clear_page(oidc_on):
    oidc_on.set_user("sub-nameless", {"email": "x@example.com"})
    client = Client()
    response = sign_in(client, oidc_on, "sub-nameless")
    assert response["Location"] == reverse("oidc_refused")
    page = client.get(response["Location"])
    assert page.status_code == 403
    assert "缺少确定记忆空间所需的信息" in page.content.decode()
    assert not OidcIdentity.objects.filter(subject="sub-nameless").exists()
    assert client.get(reverse("console:overview")).status_code == 302  # not signed in


def test_an_unusable_claim_value_is_refused(oidc_on):
    oidc_on.set_user("sub-odd", {"tenant": "acme corp", "preferred_username": "odd"})
    client = Client()
    response = sign_in(client, oidc_on, "sub-odd")
    assert response["Location"] == reverse("oidc_refused")
    assert not OidcIdentity.objects.filter(subject="sub-odd").exists()


def test_two_subjects_never_share_a_scope(oidc_on):
    oidc_on.set_user("sub-first", {"tenant": "acme", "preferred_username": "erin"})
    oidc_on.set_user("sub-second", {"tenant": "acme", "preferred_username": "erin"})
    assert sign_in(Client(), oidc_on, "sub-first")["Location"] == reverse("console:overview")
    client = Client()
    response = sign_in(client, oidc_on, "sub-second")
    assert response["Location"] == reverse("oidc_refused")
    assert "已属于另一个账号" in client.get(response["Location"]).content.decode()
    assert list(OidcIdentity.objects.values_list("subject", flat=True)) == ["sub-first"]


def test_a_local_accounts_memory_cannot_be_claimed(oidc_on, settings, django_user_model):
    django_user_model.objects.create_user(username="frank", password="frank-pass-1")
    oidc_on.set_user(
        "sub-frank", {"tenant": settings.CONSOLE_TENANT_ID, "preferred_username": "frank"}
    )
    response = sign_in(Client(), oidc_on, "sub-frank")
    assert response["Location"] == reverse("oidc_refused")


def test_user_api_and_console_act_in_the_claimed_scope(oidc_on, django_user_model):
    # A local "gina" in the default tenant and the IdP's gina in tenant acme are two memories.
    local = django_user_model.objects.create_user(username="gina", password="gina-pass-1")
    add_memory(scope_for_user(local), "本地账号的记忆：我喜欢喝乌龙茶")
    add_memory(scope_of(tenant_id="acme", user_id="gina"), "平台账号的记忆：我在杭州工作")
    oidc_on.set_user("sub-gina", {"tenant": "acme", "preferred_username": "gina"})
    client = Client()
    sign_in(client, oidc_on, "sub-gina")
    listed = client.get("/api/v1/user-customer-settings/memories/vector")
    assert listed.status_code == 200
    texts = [item["content"] for item in listed.json()["items"]]
    assert texts == ["平台账号的记忆：我在杭州工作"]
    page = client.get(reverse("console:memories")).content.decode()
    assert "我在杭州工作" in page
    assert "乌龙茶" not in page


def test_logout_ends_the_session_here_and_at_the_provider(oidc_on):
    oidc_on.set_user("sub-hana", {"tenant": "acme", "preferred_username": "hana"})
    client = Client()
    sign_in(client, oidc_on, "sub-hana")
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == (
        f"{oidc_on.issuer}/oauth2/end_session"
    )
    params = parse_qs(target.query)
    # back on the login page, which says the user signed out
    assert params["post_logout_redirect_uri"] == [
        "http://testserver/accounts/login/?reason=signed_out"
    ]
    assert params["client_id"] == [CLIENT_ID]
    assert params["id_token_hint"][0].count(".") == 2  # the ID token we were given
    assert client.get(reverse("console:overview")).status_code == 302


def test_local_logout_stays_local(oidc_on, django_user_model):
    user = django_user_model.objects.create_user(username="ivan", password="ivan-pass-1")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("logout"))
    assert response["Location"] == reverse("login") + "?reason=signed_out"


def test_login_page_offers_the_platform_button_only_when_configured(provider):
    assert "通过平台账号登录" not in Client().get(reverse("login")).content.decode()
    assert Client().get(reverse("oidc_authentication_init")).status_code == 404
    with oidc_configured(provider):
        page = Client().get(reverse("login") + "?next=/memories/").content.decode()
    assert "通过平台账号登录" in page
    assert 'href="/accounts/oidc/authenticate/?next=/memories/"' in page


def test_an_unreachable_provider_is_a_clear_page(provider, unused_port):
    with oidc_configured(Provider(issuer=f"http://127.0.0.1:{unused_port}")):
        client = Client()
        response = client.get(reverse("oidc_authentication_init"))
        assert response["Location"] == reverse("oidc_refused")
        page = client.get(response["Location"]).content.decode()
    assert "暂时无法连接平台的身份服务" in page


def test_htmx_request_after_the_id_token_aged_moves_the_whole_page(oidc_on):
    """SessionRefresh re-checks at the provider; htmx must navigate, not swap its page in."""
    oidc_on.set_user("sub-jo", {"tenant": "acme", "preferred_username": "jo"})
    client = Client()
    sign_in(client, oidc_on, "sub-jo")
    session = client.session
    session["oidc_id_token_expiration"] = 0
    session.save()
    response = client.get(reverse("console:memories"), **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(f"{oidc_on.issuer}/oauth2/authorize?")
    assert "prompt=none" in response["HX-Redirect"]
    assert client.session["oidc_login_next"] == "/memories/?q=x"
    # A plain page load is redirected by the library as usual; the JSON API is left alone.
    assert client.get(reverse("console:overview"))["Location"].startswith(oidc_on.issuer)
    assert client.get("/api/v1/user-customer-settings/memories/vector").status_code == 200


def test_silent_recheck_without_a_provider_session_goes_to_login(oidc_on):
    client = Client()
    response = client.get(reverse("oidc_authentication_callback") + "?error=login_required")
    assert response["Location"] == reverse("login")


def test_refused_platform_logins_do_not_lock_out_the_address(oidc_on, settings):
    """Lockout counts password guesses; a refusal by claims is the provider's business."""
    oidc_on.set_user("sub-nobody", {"email": "nobody@example.com"})
    oidc_on.set_user("sub-kai", {"tenant": "acme", "preferred_username": "kai"})
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        refused = sign_in(Client(), oidc_on, "sub-nobody")
        assert refused["Location"] == reverse("oidc_refused")
    assert sign_in(Client(), oidc_on, "sub-kai")["Location"] == reverse("console:overview")


def test_an_identity_deleted_by_staff_is_made_again_for_the_same_account(oidc_on):
    oidc_on.set_user("sub-lin", {"tenant": "acme", "preferred_username": "lin"})
    sign_in(Client(), oidc_on, "sub-lin")
    identity = OidcIdentity.objects.get(subject="sub-lin")
    user_pk = identity.user.pk
    identity.delete()
    assert sign_in(Client(), oidc_on, "sub-lin")["Location"] == reverse("console:overview")
    again = OidcIdentity.objects.get(subject="sub-lin")
    assert again.user.pk == user_pk
    assert not again.user.has_usable_password()
