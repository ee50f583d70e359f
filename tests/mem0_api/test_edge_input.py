"""What /mem0 reads from outside the JSON body's own types: dates (an expiry, filter bounds,
``get_all``'s range), page numbers and query parameters. Each bad value is a 400 in the door's
shape (Mem0's ``detail``, which the client raises as ``ValidationError``, beside /v1's ``error``
naming the field), never a 500, and nothing changes. A wrong Authorization scheme is told the
one this door expects."""

from __future__ import annotations

import pytest

from tests.mem0_api.conftest import TOKEN


# --- the Authorization scheme ---------------------------------------------------------------
@pytest.mark.parametrize("scheme", ["Bearer", "Basic"])
def test_the_wrong_scheme_is_told_the_one_this_door_expects(mem0_host, scheme):
    import httpx

    answer = httpx.get(f"{mem0_host}/v1/ping/", headers={"Authorization": f"{scheme} {TOKEN}"})
    assert answer.status_code == 401
    assert answer.json()["detail"] == "Authorization must be 'Token <token>'"
    assert answer.headers["WWW-Authenticate"] == "Token"
    assert httpx.get(
        f"{mem0_host}/v1/ping/", headers={"Authorization": f"Token {TOKEN}"}
    ).is_success
