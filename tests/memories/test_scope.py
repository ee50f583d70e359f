"""Every door builds its scope in ``memories.scope``: a bad tenant or user id is refused with
the same ``ScopeError`` and the same words, whichever door it came through."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from accounts.oidc import LoginRefused, scope_from_claims
from memories.scope import (
    scope_for_caller,
    scope_for_staff_entry,
    scope_for_user,
    scope_from_key,
    scope_of,
)
from memories.types import MemoryScope, ScopeError

BAD_USER = "ali ce"
REFUSAL = "user_id must be 1-64 characters of A-Z a-z 0-9 _ . @ + -"


class ServesAcme:
    def __init__(self) -> None:
        self.checked: list[str] = []

    def check_tenant(self, tenant_id: str) -> None:
        self.checked.append(tenant_id)
        if tenant_id != "acme":
            raise PermissionError(tenant_id)


def test_every_constructor_refuses_a_bad_user_with_the_same_words(settings, django_user_model):
    settings.CONSOLE_TENANT_ID = "acme"
    person = django_user_model(username=BAD_USER)
    for build in (
        lambda: scope_of(tenant_id="acme", user_id=BAD_USER),
        lambda: scope_for_caller(ServesAcme(), tenant_id="acme", user_id=BAD_USER),
        lambda: scope_from_key(f"acme:{BAD_USER}"),
        lambda: scope_for_staff_entry(f"acme:{BAD_USER}"),
        lambda: scope_for_staff_entry(BAD_USER),
        lambda: scope_for_user(person),
    ):
        with pytest.raises(ScopeError) as refused:
            build()
        assert str(refused.value) == REFUSAL


def test_a_caller_is_refused_another_tenant_before_the_ids_are_read():
    caller = ServesAcme()
    with pytest.raises(PermissionError):
        scope_for_caller(caller, tenant_id="other", user_id=BAD_USER)
    assert scope_for_caller(caller, tenant_id="acme", user_id="alice") == MemoryScope(
        tenant_id="acme", user_id="alice"
    )
    assert caller.checked == ["other", "acme"]


def test_a_staff_entry_without_a_tenant_is_the_console_tenants_user(settings):
    settings.CONSOLE_TENANT_ID = "acme"
    assert scope_for_staff_entry(" alice ") == MemoryScope(tenant_id="acme", user_id="alice")
    assert scope_for_staff_entry("beta:bob") == MemoryScope(tenant_id="beta", user_id="bob")


def test_the_sign_in_refuses_claims_with_the_same_words(settings):
    settings.OIDC_TENANT_CLAIM, settings.OIDC_USER_CLAIM = "tenant", "sub"
    with pytest.raises(LoginRefused) as refused:
        scope_from_claims({"tenant": "acme", "sub": BAD_USER})
    assert REFUSAL in str(refused.value)


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["mcp_stdio", "memory_export"])
def test_commands_refuse_a_bad_user_with_the_same_words(command):
    with pytest.raises(CommandError, match=REFUSAL.replace("+", r"\+").replace(".", r"\.")):
        call_command(command, "--tenant", "acme", "--user", BAD_USER)
