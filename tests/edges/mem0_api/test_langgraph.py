"""A LangGraph agent wired to Mem0 the way Mem0's LangGraph guide wires it (a ``MemoryClient``
called from the graph's nodes), pointed at /mem0: docs/mem0-compat.md shows the same graph.
The reply node stands in for the model call, so the test needs no LLM."""

from __future__ import annotations

from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph


class Turn(TypedDict, total=False):
    user_id: str
    message: str
    recalled: list[str]
    reply: str


def memory_graph(client: Any) -> Any:
    def recall(turn: Turn) -> Turn:
        hits = client.search(turn["message"], filters={"user_id": turn["user_id"]}, top_k=3)
        return {"recalled": [hit["memory"] for hit in hits["results"]]}

    def respond(turn: Turn) -> Turn:  # a real agent calls its model with the recalled facts
        return {"reply": " / ".join(turn["recalled"]) or "(nothing remembered yet)"}

    def remember(turn: Turn) -> Turn:
        client.add(turn["message"], user_id=turn["user_id"], infer=False)
        return {}

    graph = StateGraph(Turn)
    graph.add_node("recall", recall)
    graph.add_node("respond", respond)
    graph.add_node("remember", remember)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "respond")
    graph.add_edge("respond", "remember")
    graph.add_edge("remember", END)
    return graph.compile()


def test_a_langgraph_agent_remembers_through_the_door(client):
    agent = memory_graph(client)

    first = agent.invoke({"user_id": "alice", "message": "I drink green tea every morning."})
    assert first["reply"] == "(nothing remembered yet)"

    second = agent.invoke({"user_id": "alice", "message": "What do I drink every morning?"})
    assert "I drink green tea every morning." in second["recalled"]

    other = agent.invoke({"user_id": "bob", "message": "What do I drink every morning?"})
    assert other["recalled"] == []  # one user never sees another's memory
    alice = [m["memory"] for m in client.get_all(filters={"user_id": "alice"})["results"]]
    bob = [m["memory"] for m in client.get_all(filters={"user_id": "bob"})["results"]]
    assert "I drink green tea every morning." in alice
    assert "I drink green tea every morning." not in bob
