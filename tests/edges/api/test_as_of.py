"""``as_of`` on /v1's search and context: what was true then, each hit with its validity; a bad
``as_of`` is a 400 naming it, and nothing changes."""

from __future__ import annotations

import pytest

from tests.edges.api.conftest import counts
from tests.memories.conftest import assert_invalid, body
from tests.memories.recall.test_as_of import NEW, OLD, QUERY, store_editors

pytestmark = pytest.mark.django_db

# Every one names a day or instant no one can mean, or has no offset to say whose clock.
BAD_AS_OF = [
    "2026-02-15T10:00:00",  # no offset: whose ten o'clock?
    "2026-02-15 10:00",
    "2026-02-30",  # no calendar has it
    "2026-13-01T00:00:00Z",
    "yesterday",
    "",
    "2026-02-15T10:00:00+25:00",
    "2026-02-15T24:00:00Z",
    "2" * 41,
    20260215,  # not a string
    True,
    None,
]


def search(v1, scope, **fields):
    return v1.post("search", body(scope, query=QUERY, top_k=10, min_score=0.0, **fields))


def contents(response) -> dict[str, dict]:
    assert response.status_code == 200, response.content
    return {item["content"]: item for item in response.json()["items"]}


def test_search_as_of_a_day_returns_what_held_then_with_its_validity(v1, scope, agent):
    ids = store_editors(scope, agent)
    now = contents(search(v1, scope))
    assert NEW in now and OLD not in now
    assert set(now[NEW]["metadata"]) == {"category", "match"}  # without as_of: as before

    then = contents(search(v1, scope, as_of="2026-02-15"))
    assert OLD in then and NEW not in then
    assert then[OLD]["id"] == ids["old"]
    assert then[OLD]["metadata"] == {
        "category": "fact",
        "match": "evidence",
        "valid_from": "2026-01-11T00:00:00+00:00",
        "valid_until": "2026-03-01T09:00:00+08:00",
        "status": "superseded",
    }
    # The day the change came: its end in Beijing is after 09:00, so VS Code is what held.
    assert NEW in contents(search(v1, scope, as_of="2026-03-01"))
    # An instant with its offset: one second before the change, Vim held.
    assert OLD in contents(search(v1, scope, as_of="2026-03-01T00:59:59Z"))
    assert OLD in contents(search(v1, scope, as_of="2026-03-01T08:59:59+08:00"))
    # A future instant is now.
    future = contents(search(v1, scope, as_of="9999-12-30"))
    assert NEW in future and OLD not in future
    assert future[NEW]["metadata"]["status"] == "active"


def test_context_as_of_injects_what_held_then(v1, scope, agent):
    store_editors(scope, agent)
    ask = body(scope, input="帮我配置一下写代码用的编辑器插件", run_kind="interactive")
    now = v1.post("context", ask).json()
    assert NEW in now["text"] and OLD not in now["text"]
    then = v1.post("context", {**ask, "as_of": "2026-02-15T12:00:00+08:00"}).json()
    assert OLD in then["text"] and NEW not in then["text"]
    assert then["injected_count"] >= 1


@pytest.mark.parametrize("as_of", BAD_AS_OF)
def test_a_bad_as_of_is_refused_naming_it(v1, scope, agent, as_of):
    store_editors(scope, agent)
    before = counts()
    assert_invalid(search(v1, scope, as_of=as_of), "as_of")
    ask = body(scope, input="帮我配置一下写代码用的编辑器插件", as_of=as_of)
    assert_invalid(v1.post("context", ask), "as_of")
    assert counts() == before


@pytest.mark.parametrize(
    ("as_of", "holds"),
    [
        ("2026-02-15t10:00:00z", OLD),  # RFC 3339's lower-case letters
        ("2026-02-15T10:00:00.123456789-05:00", OLD),  # nanoseconds: read to the microsecond
        ("0001-01-01T00:00:00+14:00", None),  # before UTC's first instant: before anything
        ("0001-01-01", None),
        ("9999-12-31T23:59:59-14:00", NEW),  # past UTC's last instant: the future, now
        ("9999-12-31", NEW),
    ],
)
def test_every_date_and_date_time_the_schema_allows_is_read(v1, scope, agent, as_of, holds):
    store_editors(scope, agent)
    found = contents(search(v1, scope, as_of=as_of))
    assert {OLD, NEW} & set(found) == ({holds} if holds else set())


def test_the_published_schema_describes_as_of(v1):
    schema = v1.client.get("/v1/schema?format=json").json()
    for name in ("SearchInputRequest", "ContextInputRequest"):
        field = schema["components"]["schemas"][name]["properties"]["as_of"]
        assert [f["format"] for f in field["oneOf"]] == ["date", "date-time"]
        assert "offset" in field["description"]
