"""What a question itself asks for, read before the channels rank anything: the memories it
names by what they are, not by their words. Search (``memory_search``) and the evaluation put
them first in the answer (``fuse(listed=…)``) from this one place.

- a list of a kind ("我手上有哪些项目", "你都记得我什么": ``memories.recall.listing``);
- one of the user's attributes ("What editor do I use?", "我在哪家公司上班":
  ``memories.selectors.attributes``), asked about now: a question about the past ("我去年在哪家
  公司") wants a value the key no longer holds (``fusion.asks_about_past``), unless the attribute
  has no past value ("Which city did I grow up in?");
- what restricts a meal to get for the user ("帮我订明天中午的外卖": ``memories.recall.meals``);
- what holds the user's time, for a time to find ("帮我找个时间跟供应商开个视频沟通":
  ``memories.recall.schedule``);
- what the user's machines and tools are, for a program to install ("Recommend a video editing
  app I can install tonight", "帮我装个听歌的客户端": ``memories.selectors.software``).

The first that applies decides; a question that asks for none of them gets nothing here and is
answered by the channels alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from memories.recall.fusion import asks_about_past
from memories.recall.listing import asked_to_list, listed
from memories.recall.meals import restricting
from memories.recall.schedule import holding_time
from memories.selectors.attributes import asked_attribute, holding
from memories.selectors.software import installing
from memories.types import ChannelHit


def asked_first(
    query: str, nearest: Sequence[ChannelHit], *, pinned: Iterable[str] = ()
) -> list[str]:
    """The memories among ``nearest`` (the meaning channel's rows, the nearest first) that
    ``query`` asks for by what they are, in the order they take the answer's first places;
    ``pinned`` come first in a list of everything remembered (``listing.listed``)."""
    attribute = asked_attribute(query)
    if attribute is not None and not attribute.timeless and asks_about_past(query):
        attribute = None
    return (
        listed(asked_to_list(query), nearest, pinned=pinned)
        or holding(attribute, nearest)
        or restricting(query, nearest)
        or holding_time(query, nearest)
        or installing(query, nearest)
    )
