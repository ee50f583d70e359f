"""/mem0 stores and answers a memory as typed: “”「」《》 come back byte for byte."""

from __future__ import annotations

TYPED = "团队的北极星指标叫“周活跃创作者”，用「」标注术语，周报模板见《写作规范》。"


def test_add_and_get_keep_the_typed_quotes(client):
    answer = client.add(TYPED, user_id="alice", infer=False)
    [item] = answer["results"]
    assert item["memory"] == TYPED
    assert client.get(item["id"])["memory"] == TYPED
