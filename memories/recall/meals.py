"""A meal or a drink to get for the user: what they cannot eat or drink is its evidence.

"帮我订明天中午的外卖", "Order lunch for me", "团建要带零食，帮我列个采购单", "Which dishes
should we order at the seafood place tonight?" share no word with "The user is allergic to
peanuts", "用户乳糖不耐受" or "用户是穆斯林，不吃猪肉也不喝酒", and e5 puts a task that generic
under its floor over each of them (in the other language always): the agent ordered lunch
without the allergy. An allergy missed there is the costliest thing a memory can fail to recall,
so the task is read here: when it asks to get, choose or plan food or drink for the user
(``asks_for_a_meal``), the memories among the second model's nearest that restrict what may be
eaten or drunk (``restricts_a_meal``) are its evidence, first, in that order — through the door
a list asked for goes through (``memories.recall.listing``, ``fuse(listed=…)``).

**A meal for the user.** The task names a meal, food or a drink (外卖, 午饭, 聚餐, 零食, 蛋糕,
喝的, lunch, dinner, snacks, drinks, a restaurant, dishes…), is the user's (我, 我们, 团建, 部门,
I, me, my, we, us, our) and asks to get, choose or plan it (帮我, 订, 点, 推荐, 选, 准备, "order",
"should we", "for me"…). A question about food in general ("怎么做红烧肉", "how to bake sourdough
bread", "北极熊吃什么", "recommend a good sushi restaurant") is nobody's meal, and one about the
user's habits ("我早上喝什么咖啡", "Where do I usually buy snacks?") asks for no meal: the
channels answer it as before.

**What restricts a meal.** A memory that says what may not be eaten or drunk, or why: an
allergy or an intolerance to a food, a diet (素食, 清真, 减脂, vegetarian, halal, kosher), a
condition that rules food out (糖尿病, 肠胃弱, 牙齿矫正, coeliac, diabetes), 不吃 / 不能吃 / 不喝
/ 不碰 / 滴酒不沾 / can't eat / avoids. An allergy to something that is not eaten (猫, 花粉,
青霉素, cats, pollen, penicillin) restricts no meal. A colleague's diet counts ("同事小周是素食
者"): a team lunch is theirs too.

**Then the user's tastes.** After what restricts the meal, the memories that name food or drink
at all ("用户喜欢喝美式咖啡", "The user drinks a flat white every morning"), in e5's order: what
to get. An allergy before the other restrictions, whatever e5's order, was measured and lost
first places (docs/retrieval.md, "A meal to get").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memories.types import ChannelHit

# Food, a meal or a drink named in a task (酒店 is a hotel, 茶几 a table, 菜鸟 a beginner, 吃惊
# a surprise; "team" is no tea).
_MEAL_ZH = re.compile(
    r"外卖|早餐|早饭|早点|午餐|午饭|晚餐|晚饭|夜宵|宵夜|下午茶|聚餐|饭局|请客|馆子|餐厅|饭店|食堂|"
    r"零食|小吃|点心|甜点|甜品|蛋糕|水果|饮料|饮品|奶茶|咖啡|茶(?!几)|酒(?!店)|菜(?!鸟)|"
    r"吃(?!惊|亏|力|醋|瓜)|喝(?!彩)|餐|饭|食"
)
_MEAL_EN = re.compile(
    r"\b(?:eat|eating|food|meals?|lunch|dinner|breakfast|brunch|supper|snacks?|drinks?|"
    r"restaurants?|caf[eé]s?|coffee|tea|cakes?|desserts?|menu|dish(?:es)?|takeout|takeaway|"
    r"groceries|pizza|sushi|barbecue|bbq|buffet|cater(?:ing)?)\b",
    re.IGNORECASE,
)
# Whose meal: the user's, or a group's the user is in.
_USERS_ZH = re.compile(r"我|咱们|团建|部门|请客")
_USERS_EN = re.compile(r"\b(?:i|i'm|me|my|we|we're|us|our)\b", re.IGNORECASE)
# Asked to get, choose or plan it, not what the user has ("我早上喝什么咖啡", "Where do I usually
# buy snacks?" ask about a habit, which the channels answer).
_REQUEST_ZH = re.compile(
    r"帮我|给我|替我|帮忙|请客|订|点(?=[个些份点一杯餐菜单酒外饮奶咖茶水])|推荐|选|挑|准备|配|买|"
    r"要不要|哪家"
)
_REQUEST_EN = re.compile(
    r"^(?:please\s+)?(?:order|get|book|pick|choose|find|recommend|suggest|plan|bring|buy|grab)\b|"
    r"\bshould (?:i|we)\b|\bhelp (?:me|us)\b|"
    r"\b(?:order|get|book|bring|buy|grab|find|pick|choose) (?:me|us)\b|\bfor (?:me|us)\b",
    re.IGNORECASE,
)
# What may not be eaten or drunk, or why.
_RESTRICTS = re.compile(
    r"过敏|不耐受?|忌口|吃素|素食|清真|穆斯林|减脂|节食|控糖|控制甜食|糖尿病|痛风|肠胃|胃不好|"
    r"牙齿矫正|牙套|滴酒不沾|戒酒|戒糖|不碰|(?:不|不能|没法)(?:吃|喝)|少吃|"
    r"\ballerg|\bintoleran|\bvegetarian|\bvegan\b|\bhalal\b|\bkosher\b|\bgluten|\bcoeliac|"
    r"\bceliac|\bdiabet|\bdoes(?:n't| not) (?:eat|drink)\b|\bdon't (?:eat|drink)\b|"
    r"\bcan(?:'t|not) (?:eat|drink|have)\b|\bmust avoid\b|\bavoids?\b|\bno alcohol\b|"
    r"\bsober\b|\bteetotal",
    re.IGNORECASE,
)
# What one may be allergic to without eating it.
_NOT_EATEN = re.compile(
    r"猫|狗|宠物|花粉|尘螨|螨虫|青霉素|头孢|药|乳胶|紫外线|酒精棉|蜂蜇|"
    r"\b(?:cats?|dogs?|pets?|pollen|dust|mites?|penicillin|antibiotics?|drugs?|latex|"
    r"bee|wasp|stings?|sunlight)\b",
    re.IGNORECASE,
)


def asks_for_a_meal(query: str) -> bool:
    """Whether ``query`` asks to get, choose or plan food or drink for the user (above)."""
    question = " ".join(query.split())
    # Either language for each part: "四点的 workshop 帮我订点 drinks".
    return all(
        chinese.search(question) or english.search(question)
        for chinese, english in (
            (_MEAL_ZH, _MEAL_EN),
            (_USERS_ZH, _USERS_EN),
            (_REQUEST_ZH, _REQUEST_EN),
        )
    )


def restricts_a_meal(text: str) -> bool:
    """Whether the memory ``text`` says what may not be eaten or drunk (above)."""
    return bool(_RESTRICTS.search(text)) and not _NOT_EATEN.search(text)


def tells_a_taste(text: str) -> bool:
    """Whether the memory ``text`` names food or drink at all ("用户喜欢喝美式咖啡", "The user
    drinks a flat white every morning"): what the user eats and drinks, the meal's next
    evidence after what restricts it."""
    return bool(_MEAL_ZH.search(text) or _MEAL_EN.search(text))


def restricting(query: str, nearest: Sequence[ChannelHit]) -> list[str]:
    """The memories among ``nearest`` (the meaning channel's rows, the nearest first) that the
    meal ``query`` asks for needs: what restricts it, then
    the user's tastes in food and drink, each in that order; nothing when it asks for no meal."""
    if not asks_for_a_meal(query):
        return []
    restrictions = [hit.id for hit in nearest if restricts_a_meal(hit.content)]
    tastes = [
        hit.id for hit in nearest if hit.id not in restrictions and tells_a_taste(hit.content)
    ]
    return restrictions + tastes
