"""The conversation set's two English dialogues and the one between bilingual colleagues who mix
both (``eval.conversations``)."""

from __future__ import annotations

from eval.dialogue import Conversation
from eval.dialogue import question as _q

APP = Conversation(
    name="en-app",
    sessions=(
        (
            "2026-01-12",
            (
                "Maya: Welcome back, Sam. How was the holiday in Lisbon?",
                "Sam: Great, though I lost my phone on the tram on the second day.",
                "Maya: Oh no. Did you ever get it back?",
                "Sam: No, I bought a Pixel 8 there and restored everything from backup.",
                "Maya: The board approved the mobile app project yesterday, and I want you to "
                "lead the backend.",
                "Sam: Happy to. What's the timeline?",
                "Maya: The beta should reach testers by the end of April.",
                "Sam: Then we need a second backend engineer; I'd like to ask Priscilla from "
                "the data team.",
                "Maya: I'll talk to her manager, Devon, this week.",
                "Sam: Also, I'm proposing Kotlin for the Android client instead of Flutter.",
            ),
        ),
        (
            "2026-01-26",
            (
                "Maya: Devon agreed: Priscilla joins the app project at half time from February.",
                "Sam: Perfect, she knows the payments schema better than anyone.",
                "Maya: The design review with the agency is on Thursday at two.",
                "Sam: I can't make Thursday; my sister is having surgery and I'll be at the "
                "hospital.",
                "Maya: Of course, family first. I'll record the session for you.",
                "Sam: Thanks, it's a knee replacement, so she'll need a few weeks at home.",
                "Maya: I hope the operation goes well. Tell her we're thinking of her.",
                "Maya: On the tech side, did the team settle the Android question?",
                "Sam: We voted for Flutter after all, because the agency's designers already "
                "prototype in it.",
                "Maya: Fine by me, as long as we keep one codebase.",
            ),
        ),
        (
            "2026-02-16",
            (
                "Sam: Quick update: Priscilla found that the old payments API rounds refunds "
                "wrong.",
                "Maya: How bad is it?",
                "Sam: About 3,200 dollars over two years, all in the customers' favour.",
                "Maya: Let's fix it quietly and tell finance; no customer was hurt.",
                "Sam: I've also started running to work; it's 6 kilometres along the canal.",
                "Maya: Nice. I've signed up for a pottery class on Wednesday evenings.",
                "Sam: Pottery! What are you making?",
                "Maya: So far a lopsided bowl, but my teacher Akira says it has character.",
                "Sam: By the way, the beta date looks tight; testing the payment flow will take "
                "longer.",
                "Maya: Let's decide at the next planning meeting, not now.",
            ),
        ),
        (
            "2026-03-09",
            (
                "Maya: After the planning meeting, the beta moves from the end of April to the "
                "20th of May.",
                "Sam: Good call; that gives us three extra weeks for the payment flow.",
                "Maya: And we hired a QA contractor, Tomasz, who starts next Monday.",
                "Sam: Great, I'll pair him with Priscilla on the refund tests.",
                "Sam: Personal news: I'm moving to Rotterdam in June; my partner got a job at "
                "the port authority.",
                "Maya: Wow! Will you keep working for us remotely?",
                "Sam: If you'll have me, yes, and I'd fly back once a month.",
                "Maya: I'd hate to lose you, so yes; I'll clear it with HR.",
                "Maya: My pottery bowl came out of the kiln; it's now our fruit bowl.",
                "Sam: You have to bring it to the office.",
            ),
        ),
        (
            "2026-03-30",
            (
                "Maya: HR approved your remote contract, starting on the 1st of June.",
                "Sam: Thank you, that's a relief.",
                "Sam: Bad news: Tomasz quit after two weeks; he took a full-time job at a bank.",
                "Maya: Ugh. Can Priscilla cover the testing until we find someone?",
                "Sam: She can, if she goes full time on the project.",
                "Maya: I'll ask Devon again; he owes me one.",
                "Sam: My sister is walking without crutches now, by the way.",
                "Maya: So glad to hear it. Give her my best.",
                "Maya: One more thing: the app's name is settled, we're calling it Tally.",
                "Sam: Tally is short and easy to say; I like it.",
            ),
        ),
    ),
    questions=(
        _q("fact", "Where did Sam lose his phone?", "lost my phone on the tram"),
        _q("fact", "What phone did Sam buy to replace it?", "I bought a Pixel 8"),
        _q("fact", "Who is Priscilla's manager?", "talk to her manager, Devon"),
        _q("fact", "What operation did Sam's sister have?", "it's a knee replacement"),
        _q("fact", "How much did the refund rounding bug cost?", "About 3,200 dollars"),
        _q("fact", "What class did Maya sign up for?", "pottery class on Wednesday"),
        _q("fact", "What became of Maya's first bowl?", "it's now our fruit bowl"),
        _q("fact", "Why is Sam moving abroad?", "partner got a job at the port authority"),
        _q("fact", "What is the app going to be called?", "we're calling it Tally"),
        _q("fact", "How far is Sam's run to work?", "6 kilometres along the canal"),
        _q("date", "When did the board approve the mobile app?", "board approved the mobile"),
        _q("date", "When does Sam's remote contract start?", "starting on the 1st of June"),
        _q("date", "When did Sam tell Maya he was moving to Rotterdam?", "moving to Rotterdam"),
        _q("date", "When did Tomasz quit?", "Tomasz quit after two weeks"),
        _q("speaker", "Who suggested bringing Priscilla onto the project?", "I'd like to ask"),
        _q("speaker", "Who said the lopsided bowl has character?", "Akira says it has character"),
        _q("speaker", "Who found the refund rounding error?", "Priscilla found that the old"),
        _q("changed", "Which framework does the Android client use in the end?", "voted for"),
        _q("changed", "When is the beta due now?", "the beta moves from the end of April"),
        _q(
            "changed",
            "Who does the testing now that the contractor is gone?",
            "Can Priscilla cover the testing",
            "She can, if she goes full time",
        ),
    ),
)


NEIGHBOURS = Conversation(
    name="en-neighbours",
    sessions=(
        (
            "2026-09-05",
            (
                "Jess: Omar, thanks for watering my plants while I was in Scotland.",
                "Omar: No problem at all. How was Edinburgh?",
                "Jess: Rainy, but the festival was brilliant; we saw eleven shows in six days.",
                "Omar: Eleven! Did you have a favourite?",
                "Jess: A one-woman comedy about a lighthouse keeper; I laughed until I cried.",
                "Omar: Amira and I have started looking for a house; the flat is too small with "
                "the twins.",
                "Jess: Which area are you looking at?",
                "Omar: Somewhere near Clifton, with a garden and at least three bedrooms.",
                "Jess: And what's your budget?",
                "Omar: Up to 450 thousand pounds, and we'd rather not go higher.",
            ),
        ),
        (
            "2026-09-19",
            (
                "Jess: I started the Italian cooking course at the community centre on Tuesdays.",
                "Omar: What did you cook first?",
                "Jess: Fresh tagliatelle with a ragù; the chef, Luca, made us knead the dough for "
                "ten minutes.",
                "Omar: We viewed a semi-detached house on Fern Road yesterday.",
                "Jess: And? Did you like it?",
                "Omar: Lovely garden, but the roof needs replacing, maybe 20 thousand.",
                "Jess: That could be a bargaining point.",
                "Omar: Amira wants to offer 430 thousand and ask them to fix the roof.",
                "Jess: My book club is reading Middlemarch this month; it's enormous.",
                "Omar: Good luck. The twins start nursery on Monday, so my mornings are free.",
            ),
        ),
        (
            "2026-10-10",
            (
                "Omar: The sellers on Fern Road rejected our offer; someone else paid the asking "
                "price.",
                "Jess: Sorry to hear that. Don't give up.",
                "Omar: We found another one on Hazel Close, a bit smaller but no repairs needed.",
                "Jess: Is it still near Clifton?",
                "Omar: Ten minutes further out, but next to a good primary school.",
                "Jess: I've decided to adopt a dog from the shelter, a three-year-old greyhound "
                "called Biscuit.",
                "Omar: A greyhound! They're lazy, you know; lots of sleeping.",
                "Jess: Perfect for a flat. I pick him up next Saturday.",
                "Omar: The twins will want to meet him.",
                "Jess: My book club gave up on Middlemarch and switched to Klara and the Sun.",
            ),
        ),
        (
            "2026-10-31",
            (
                "Omar: Good news: our offer of 440 thousand on Hazel Close was accepted.",
                "Jess: Congratulations! When do you move?",
                "Omar: Completion is planned for the 12th of December, if the solicitors are "
                "quick.",
                "Jess: Biscuit has settled in, but he's scared of the hoover.",
                "Omar: Poor thing. Does he sleep in your bed?",
                "Jess: He has his own bed, but he steals the sofa every night.",
                "Omar: Amira is throwing a Halloween party tonight; you and Biscuit are invited.",
                "Jess: I'll bring my tiramisu from the cooking course.",
                "Omar: Luca would be proud.",
                "Jess: Actually Luca left the course; a new chef, Marta, teaches us now.",
            ),
        ),
        (
            "2026-11-21",
            (
                "Omar: The solicitors found a problem with the boundary, so completion moves to "
                "the 9th of January.",
                "Jess: Annoying, but at least you'll have Christmas in the old flat.",
                "Omar: Amira's parents are flying in from Cairo for Christmas, so it will be "
                "crowded.",
                "Jess: They could stay at mine; I'm going to my brother's in Leeds.",
                "Omar: That's very kind; I'll ask them.",
                "Jess: Biscuit will come with me to Leeds; my brother has a big garden.",
                "Omar: The twins have a cold again; nursery is a germ factory.",
                "Jess: I've finished the cooking course; the final exam was a risotto.",
                "Omar: Did you pass?",
                "Jess: Marta gave me nine out of ten, the rice was a bit firm.",
            ),
        ),
    ),
    questions=(
        _q("fact", "How many shows did Jess see at the festival?", "eleven shows in six days"),
        _q("fact", "What was Jess's favourite show?", "comedy about a lighthouse keeper"),
        _q("fact", "What is Omar and Amira's budget for a house?", "Up to 450 thousand"),
        _q("fact", "What was wrong with the house on Fern Road?", "the roof needs replacing"),
        _q("fact", "What kind of dog did Jess adopt?", "greyhound called Biscuit"),
        _q("fact", "What is Biscuit afraid of?", "scared of the hoover"),
        _q("fact", "Where are Amira's parents coming from?", "flying in from Cairo"),
        _q("fact", "What did Jess cook for the final exam?", "the final exam was a risotto"),
        _q("fact", "What mark did Jess get in the cooking exam?", "nine out of ten"),
        _q("fact", "What was the first dish Jess made on the course?", "Fresh tagliatelle"),
        _q("date", "When did the twins start nursery?", "twins start nursery on Monday"),
        _q("date", "When was the offer on Hazel Close accepted?", "440 thousand on Hazel Close"),
        _q("date", "When was Jess going to pick up her dog?", "I pick him up next Saturday"),
        _q("date", "When was the Fern Road offer turned down?", "rejected our offer"),
        _q("speaker", "Who wanted to offer 430 thousand for Fern Road?", "Amira wants to offer"),
        _q("speaker", "Who offered Amira's parents a place to stay?", "They could stay at mine"),
        _q("speaker", "Who said greyhounds are lazy?", "They're lazy, you know"),
        _q("changed", "When is completion on the new house now?", "completion moves to the 9th"),
        _q("changed", "Who teaches Jess's cooking course now?", "a new chef, Marta"),
        _q("changed", "Which book is the book club reading now?", "switched to Klara and the Sun"),
    ),
)


OFFSITE = Conversation(
    name="mixed-offsite",
    sessions=(
        (
            "2026-02-02",
            (
                "Leo：Anna，下周的 offsite 定在苏州了，周四周五两天。",
                "Anna: Great! Who's organising the agenda?",
                "Leo：HR 的 Cindy 负责议程，我负责订酒店，订了金鸡湖边上的一家。",
                "Anna: Can you book me a room on a quiet floor? I sleep badly.",
                "Leo：没问题，我跟前台说一下，要高层安静的房间。",
                "Anna: Also, I'm vegetarian now, since January.",
                "Leo：记下了，团建晚饭我让餐厅准备素食。",
                "Anna: 我最近在学中文，每周一和周四晚上上课。",
                "Leo：Nice! 你的中文老师是哪里人？",
                'Anna: 她是成都人，所以我学会了说"巴适"。',
            ),
        ),
        (
            "2026-02-23",
            (
                "Leo：offsite 的 feedback 收上来了，大家最喜欢的是周五下午的 hackathon。",
                "Anna: Our team won second place with the meeting-notes bot.",
                "Leo：第一名是运维组做的 log 分析工具，奖品是一台 Switch。",
                "Anna: Lucky them. I'd like to keep building the bot; can we make it a real "
                "project?",
                "Leo：我去问一下 VP Grace，看能不能给两个人一个月时间。",
                "Anna: My parents are visiting Shanghai in April, their first trip to China.",
                "Leo：带他们去外滩和豫园吧，再去一趟杭州。",
                "Anna: They're from Hamburg, so they'll probably love the river view.",
                "Leo：我下个月要去新加坡参加 KubeCon，讲 service mesh 的迁移。",
                "Anna: 加油！Send me the slides when they're ready.",
            ),
        ),
        (
            "2026-03-16",
            (
                "Leo：Grace 批了，meeting-notes bot 立项了，你和小陈两个人，做到四月底。",
                "Anna: Amazing! What's the project called?",
                'Leo：内部代号叫"速记"，是 Grace 起的。',
                "Anna: I'll write the design doc this week and use Whisper for transcription.",
                "Leo：公司不允许把录音发到外部 API，必须用内部部署的模型。",
                "Anna: Then we'll self-host Whisper on the GPU cluster.",
                "Leo：KubeCon 的 talk 讲完了，有一百多人来听，还有人问我要代码。",
                "Anna: 太厉害了！Did they record it?",
                "Leo：录了，视频下个月会放到 YouTube 上。",
                "Anna: My parents booked their flights: they land on the 8th of April.",
            ),
        ),
        (
            "2026-04-06",
            (
                "Anna: 小陈 is sick this week, so the bot demo moves to the 20th.",
                "Leo：没关系，Grace 说只要四月底前给她看就行。",
                "Anna: We switched from Whisper to SenseVoice; it's much better with Chinese.",
                "Leo：SenseVoice 对中英混杂的会议效果怎么样？",
                "Anna: Better than Whisper on our test set: the word error rate dropped from 18% "
                "to 11%.",
                "Leo：我父母这周末也来上海，正好可以一起吃个饭。",
                "Anna: Let's do it! My parents want to try xiaolongbao.",
                "Leo：那去南翔，我请客，周六中午。",
                "Anna: 我中文课换了时间，改成每周三晚上了。",
                "Leo：那周三的 team dinner 你就来不了了。",
            ),
        ),
        (
            "2026-04-27",
            (
                "Anna: The demo went well; Grace wants the bot in every meeting room by July.",
                "Leo：恭喜！需要加人吗？",
                "Anna: Yes, we need a front-end engineer; I'd like 周婷 from the console team.",
                "Leo：周婷下个月休产假，可能不行，我推荐王浩。",
                "Anna: 王浩 is fine. Can you introduce us?",
                "Leo：好，我明天拉个群，把你们俩都拉进来。",
                "Anna: My parents loved Shanghai; my dad still talks about the xiaolongbao.",
                "Leo：我爸妈也很喜欢你爸妈，说下次去汉堡找他们玩。",
                "Anna: 我的中文老师说我进步很快，下个月可以考 HSK 三级了。",
                "Leo：考完我们去吃火锅庆祝。",
            ),
        ),
    ),
    questions=(
        _q("fact", "Where was the offsite held?", "offsite 定在苏州"),
        _q("fact", "What did Anna's team build at the hackathon?", "second place with the"),
        _q("fact", "hackathon 第一名的奖品是什么？", "奖品是一台 Switch"),
        _q("fact", "Leo 在 KubeCon 讲的是什么？", "讲 service mesh 的迁移"),
        _q("fact", "为什么速记不能用外部的语音 API？", "公司不允许把录音发到外部 API"),
        _q("fact", "Which city are Anna's parents from?", "They're from Hamburg"),
        _q("fact", "SenseVoice 把 word error rate 降到了多少？", "dropped from 18%"),
        _q("fact", "Where did they take the parents for xiaolongbao?", "那去南翔"),
        _q("fact", "Anna 下个月要考什么？", "HSK 三级"),
        _q("fact", "Anna 的中文老师是哪里人？", "她是成都人"),
        _q("date", "When do Anna's parents land in Shanghai?", "they land on the 8th of April"),
        _q("date", "Anna 从什么时候开始吃素？", "vegetarian now, since January"),
        _q("date", "bot 项目是哪天立项的？", "meeting-notes bot 立项了"),
        _q("date", "When did Leo say his KubeCon talk was over?", "KubeCon 的 talk 讲完了"),
        _q("speaker", "速记这个代号是谁起的？", "是 Grace 起的"),
        _q("speaker", "Who recommended 王浩 for the front end?", "我推荐王浩"),
        _q("speaker", "Who suggested taking the parents to the Bund?", "带他们去外滩和豫园吧"),
        _q("changed", "Which speech model does the bot use now?", "switched from Whisper"),
        _q("changed", "Anna 现在哪天上中文课？", "改成每周三晚上了"),
        _q("changed", "When is the bot demo now?", "the bot demo moves to the 20th"),
    ),
)
