"""The indirect kind (``eval.dataset``): advice that one stored memory should shape."""

from __future__ import annotations

from eval.labelled.shape import q as _q

# --- indirect: advice a memory should shape ------------------------------------------------------
# Agents rarely ask for a memory in its words: they ask for advice, a recommendation or a
# decision, and one stored preference or fact should shape it ("下午连开三场评审" needs the bad
# back, "pick a place for Friday's pizza night" needs the coeliac disease).  Every question of
# this kind shares no content word or name with the memory it needs (``tests/eval`` checks it),
# so only meaning connects them.  The memories are ordinary stable facts, stored beside the rest
# of the scope; a few questions need a memory the scope already held.  Written before any run
# and kept whatever they score.
INDIRECT_MEMORIES = {
    "zh": {
        "i_back": "用户腰椎间盘突出，久坐超过一小时就会疼。",
        "i_lactose": "用户乳糖不耐受，喝牛奶会拉肚子。",
        "i_spicy": "用户胃不好，一点辣都不能吃。",
        "i_licence": "用户没有驾照，出行都靠地铁和打车。",
        "i_phone": "用户的手机是华为 Mate 60，家里不用苹果设备。",
        "i_sleep": "用户晚上十一点前必须睡觉，不然第二天没精神。",
        "i_boss": "用户的直属领导只看数字，不喜欢长篇大论。",
        "i_veggie": "同事小周是素食者，不吃任何肉。",
        "i_formal": "给客户写邮件时语气要正式，称呼用“您”。",
        "i_pickup": "用户每周三下午要接孩子放学，不能安排会议。",
        "i_notes": "用户的笔记都记在 Obsidian 里，用 Markdown 写。",
        "i_heights": "用户恐高，不坐缆车也不走玻璃栈道。",
        "i_alcohol": "用户滴酒不沾，聚会只喝饮料。",
    },
    "en": {
        "i_gluten": "User has coeliac disease and must avoid wheat.",
        "i_migraine": "Bright screens and flickering lights give the user migraines.",
        "i_keyboard": "User types on a split ergonomic keyboard because of wrist pain.",
        "i_linux": "User's home machine runs Arch Linux; no Windows or macOS.",
        "i_motion": "User gets motion sick unless sitting forward-facing near the front.",
        "i_designer": "Priya, our designer, is deaf and prefers written chat over calls.",
        "i_manager": "User's manager wants bad news raised early and in person.",
        "i_deepwork": "User does deep work before lunch and keeps mornings free of meetings.",
        "i_hotel": "User only stays in hotels that have a gym.",
        "i_shellfish": "User is allergic to shellfish.",
        "i_formal": "Messages sent on the user's behalf must sound formal, with no emojis.",
    },
    "mixed": {
        "i_caffeine": "用户对咖啡因敏感，两点以后不碰咖啡和奶茶。",
        "i_halal": "用户是穆斯林，不吃猪肉也不喝酒。",
        "i_asthma": "用户有轻度哮喘，不能在花粉多的地方久待。",
        "i_headphones": "用户的耳机是 Sony WH-1000XM5，只支持蓝牙连接。",
        "i_leader": "用户的 leader 是 Kevin，只回 Slack 消息，不看邮件。",
        "i_intern": "实习生小林刚毕业，需要手把手带，任务要拆得很细。",
        "i_diet": "用户在减脂，晚饭只吃沙拉和鸡胸肉。",
        "i_pickup": "用户每天五点半要去幼儿园接女儿。",
        "i_pudong": "用户住在浦东，离虹桥机场很远。",
        "i_code_first": "回复用户时先给 code，再给解释，不要长篇铺垫。",
        "i_braces": "用户最近做了牙齿矫正，硬的和黏的东西都不能吃。",
        "i_linear": "团队的任务都在 Linear 里追踪，不用 Jira。",
    },
    "zh2": {
        "i_diabetes": "用户有二型糖尿病，要控制甜食和精米白面。",
        "i_wheelchair": "用户的父亲坐轮椅，出门需要无障碍设施。",
        "i_laptop": "用户的电脑是联想 ThinkPad，公司不允许装私人软件。",
        "i_ipad": "用户用 iPad 和 Apple Pencil 做读书笔记。",
        "i_finance": "财务部的刘姐只收纸质报销单，不认电子版。",
        "i_manager": "部门经理张总喜欢先听风险，再听进展。",
        "i_cold": "用户冬天手脚冰凉，空调要开到二十六度以上。",
        "i_raw": "用户肠胃弱，生冷的东西一口都不能碰。",
        "i_brief": "给用户做总结时只要三句话以内。",
        "i_school": "用户的儿子今年上一年级，下午三点半放学要去接。",
        "i_mango": "用户对芒果过敏。",
        "i_owl": "用户是夜猫子，上午十点前效率很低。",
    },
}

INDIRECT_QUERIES = [
    # zh scope: Chinese questions, two in English
    _q("zh", "indirect", "下午连开三场评审，帮我排一下议程", "i_back"),
    _q("zh", "indirect", "早餐帮我配一份，拿铁还是豆浆？", "i_lactose"),
    _q("zh", "indirect", "晚上请客户吃饭，选川菜馆还是火锅？", "i_spicy"),
    _q("zh", "indirect", "周末去千岛湖玩，帮我看看租车方案", "i_licence"),
    _q("zh", "indirect", "帮我推荐一副无线耳机，AirPods 怎么样", "i_phone"),
    _q("zh", "indirect", "帮我订一场周五深夜场的电影", "i_sleep"),
    _q("zh", "indirect", "下周要跟老板过季度进展，材料怎么准备", "i_boss"),
    _q("zh", "indirect", "帮我订个部门聚餐的馆子", "i_veggie"),
    _q("zh", "indirect", "帮我回一下这位甲方的投诉", "i_formal"),
    _q("zh", "indirect", "帮我找个时间跟供应商开个视频沟通", "i_pickup"),
    _q("zh", "indirect", "帮我把今天的讨论要点整理好存起来", "i_notes"),
    _q("zh", "indirect", "国庆去张家界，帮我规划两天的景点", "i_heights"),
    _q("zh", "indirect", "客户晚宴要点酒水吗，帮我看看菜单", "i_alcohol"),
    _q("zh", "indirect", "团建要带零食，帮我列个采购单", "zh_peanut"),
    _q("zh", "indirect", "It's 3 pm and I'm sleepy, order me something to sip", "zh_tea"),
    _q(
        "zh",
        "indirect",
        "I'm away abroad for two weeks next month, what should I arrange at home?",
        "zh_cat",
    ),
    # en scope: English questions, two in Chinese
    _q("en", "indirect", "Pick a place for Friday's pizza night", "i_gluten"),
    _q(
        "en", "indirect", "Which display settings should I choose for my new monitor?", "i_migraine"
    ),
    _q("en", "indirect", "What peripherals should I order for my new desk?", "i_keyboard"),
    _q("en", "indirect", "Recommend a video editing app I can install tonight", "i_linux"),
    _q("en", "indirect", "Get me train tickets for Saturday's trip up to Penang", "i_motion"),
    _q(
        "en",
        "indirect",
        "How should I get feedback on the mockups from the person who drew them?",
        "i_designer",
    ),
    _q(
        "en",
        "indirect",
        "We're going to slip the release date; how do I handle it upward?",
        "i_manager",
    ),
    _q(
        "en",
        "indirect",
        "Find a slot next week for a 90-minute planning session with everyone",
        "i_deepwork",
    ),
    _q("en", "indirect", "Find me somewhere to sleep in Tokyo next month", "i_hotel"),
    _q(
        "en",
        "indirect",
        "Which dishes should we order at the seafood place tonight?",
        "i_shellfish",
    ),
    _q("en", "indirect", "Draft a quick note to the group celebrating our launch", "i_formal"),
    _q("en", "indirect", "I'm stopping at the café before work, what should I get?", "en_coffee"),
    _q(
        "en",
        "indirect",
        "We're thinking of adopting a pet; what would suit our home?",
        "en_allergy",
    ),
    _q("en", "indirect", "Which extensions should I install to get Copilot working?", "en_vim"),
    _q("en", "indirect", "帮我约一个和伦敦办公室的电话", "en_timezone"),
    _q("en", "indirect", "三点的研讨会帮我准备点喝的", "en_tea"),
    # mixed scope: Chinese and English in one question
    _q("mixed", "indirect", "四点的 workshop 帮我订点 drinks", "i_caffeine"),
    _q("mixed", "indirect", "team dinner 帮我选个 restaurant", "i_halal"),
    _q("mixed", "indirect", "春天 team building 想去植物园 picnic，合适吗", "i_asthma"),
    _q("mixed", "indirect", "新手机要不要选有 3.5mm jack 的", "i_headphones"),
    _q("mixed", "indirect", "需要 manager 批个假，怎么 ask 比较好", "i_leader"),
    _q("mixed", "indirect", "这个 feature 要分给 new hire 做，怎么 assign", "i_intern"),
    _q("mixed", "indirect", "今晚 order 外卖，推荐点啥", "i_diet"),
    _q("mixed", "indirect", "帮我把 retro 放到傍晚六点左右", "i_pickup"),
    _q("mixed", "indirect", "下周去北京开会，帮我比一下高铁和 flight", "i_pudong"),
    _q("mixed", "indirect", "这个 bug 怎么修，直接 show me", "i_code_first"),
    _q("mixed", "indirect", "下午茶帮我点点 snacks", "i_braces"),
    _q("mixed", "indirect", "新的 bug report 应该记到哪里", "i_linear"),
    _q("mixed", "indirect", "推荐个 screenshot 工具，要能装在我的 laptop 上", "mx_mac"),
    _q("mixed", "indirect", "hotfix 准备好了，明天 Friday 能 deploy 吗", "mx_release"),
    _q("mixed", "indirect", "推荐几个提高 coding 效率的 plugin", "mx_editor"),
    # zh2 scope
    _q("zh2", "indirect", "帮我挑个生日蛋糕", "i_diabetes"),
    _q("zh2", "indirect", "五一带全家出去玩两天，去哪儿合适", "i_wheelchair"),
    _q("zh2", "indirect", "帮我装个听歌的客户端", "i_laptop"),
    _q("zh2", "indirect", "想把看过的书整理成摘录，用什么软件好", "i_ipad"),
    _q("zh2", "indirect", "出差的发票该怎么交上去", "i_finance"),
    _q("zh2", "indirect", "明天跟领导一对一，开场怎么说", "i_manager"),
    _q("zh2", "indirect", "会议室温度设多少合适", "i_cold"),
    _q("zh2", "indirect", "夏天聚餐想吃日料刺身，帮我订一家", "i_raw"),
    _q("zh2", "indirect", "这份三十页的行业报告帮我讲讲重点", "i_brief"),
    _q("zh2", "indirect", "周二的客户拜访帮我排个时间", "i_school"),
    _q("zh2", "indirect", "部门下午茶帮我订点水果", "i_mango"),
    _q("zh2", "indirect", "帮我把最难的那场评审放在哪天什么时候好", "i_owl"),
    _q("zh2", "indirect", "周末想自驾去郊外住一晚，民宿怎么挑", "z2_dog"),
    _q("zh2", "indirect", "早上开会前帮我带点提神的", "z2_coffee"),
    _q(
        "zh2",
        "indirect",
        "Help me plan a two-day trip for the whole family over the May holiday",
        "i_wheelchair",
    ),
]

# Off-topic questions in the same advisory style: nothing stored should shape them.
INDIRECT_NEGATIVES = {
    "zh": [
        "帮我给侄子出几道三年级的数学题",
        "想学油画，入门该买哪些颜料",
        "帮我想一个读书会的名字",
    ],
    "en": [
        "Suggest a name for my sailboat",
        "Help me write a toast for my brother's wedding",
        "Which chess opening should a beginner learn first?",
    ],
    "mixed": [
        "帮我写一首关于秋天的 haiku",
        "推荐一个学 Spanish 的方法",
        "帮我算一下 mortgage 月供",
    ],
    "zh2": ["想养几盆多肉，怎么浇水", "帮我给邻居家孩子起个英文名", "帮我规划一下学日语的计划"],
}
