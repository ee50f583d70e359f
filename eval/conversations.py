"""The conversation set of `make eval` (docs/retrieval.md, "Conversations").

Six multi-session dialogues of two people each — three in Chinese, two in English, one between
bilingual colleagues who mix both — of five sessions and fifty turns, a few weeks apart.
Each turn is stored as one memory, as an agent that keeps a whole dialogue would store it: the
session's date and the speaker before the words ("2026-03-07 林晓：…"), and the session's date as
the memory's ``created_at``.  After the last session, twenty questions per dialogue ask about
earlier sessions:

* ``fact`` — something one person said (a name, a number, a place);
* ``date`` — when something was said or will happen (the answer is in the turn's date or words);
* ``speaker`` — who said or suggested it;
* ``changed`` — something said in one session and changed in a later one; the evidence is the
  turn that says how it is now.

Every question names its evidence turns by a piece of their text (``Question.evidence``), which
must match exactly one turn of its dialogue (``tests/eval`` checks it); the score is whether the
evidence is among the first five or ten answers (hit@5, hit@10) and which share of the evidence
turns the first ten hold (recall@10).  Written before any run and kept whatever they score.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

QUESTION_KINDS = ("fact", "date", "speaker", "changed")


@dataclass(frozen=True)
class Turn:
    key: str  # "s2t7": session 2, turn 7
    text: str  # as stored: "<date> <speaker>：<words>"
    created_at: datetime


@dataclass(frozen=True)
class Question:
    kind: str
    text: str
    evidence: tuple[str, ...]  # pieces of the evidence turns' text, one turn each


@dataclass(frozen=True)
class Conversation:
    name: str
    sessions: tuple[tuple[str, tuple[str, ...]], ...]  # (ISO date, lines "speaker：words")
    questions: tuple[Question, ...]

    def turns(self) -> list[Turn]:
        made = []
        for s, (day, lines) in enumerate(self.sessions, start=1):
            start = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
            for t, line in enumerate(lines, start=1):
                made.append(Turn(f"s{s}t{t}", f"{day} {line}", start + timedelta(minutes=t)))
        return made

    def evidence(self, question: Question) -> tuple[str, ...]:
        """The keys of the question's evidence turns (each piece must match one turn)."""
        turns = self.turns()
        keys = []
        for piece in question.evidence:
            found = [t.key for t in turns if piece in t.text]
            if len(found) != 1:
                raise ValueError(f"{self.name}: {piece!r} matches {found}")
            keys.append(found[0])
        return tuple(keys)


def _q(kind: str, text: str, *evidence: str) -> Question:
    return Question(kind=kind, text=text, evidence=evidence)


CAFE = Conversation(
    name="zh-cafe",
    sessions=(
        (
            "2026-03-07",
            (
                "林晓：好久不见！我上个月从字节跳动离职了，准备休息一段时间。",
                "陈默：真的假的？你在那边干了五年吧，怎么突然想走了？",
                "林晓：加班太多了，身体有点吃不消，体检查出来血压偏高。",
                "陈默：那确实该歇歇。我最近在准备四月底的无锡马拉松，每周跑四次。",
                "林晓：厉害，你之前最远跑过多少？",
                "陈默：去年跑过一次半马，成绩是一小时五十二分。",
                "林晓：我打算趁休息去云南待一个月，大理或者丽江。",
                "陈默：去大理吧，洱海边骑车特别舒服，我大学毕业旅行就在那儿。",
                "林晓：好主意，我表姐在大理开民宿，可以住她那儿。",
                "陈默：记得多拍照片，回来给我看看洱海。",
            ),
        ),
        (
            "2026-03-21",
            (
                "林晓：我到大理了，表姐的民宿叫苍山小院，在古城北门附近。",
                "陈默：环境怎么样？住得习惯吗？",
                "林晓：院子里有棵三角梅，每天早上在院子里喝普洱茶。",
                "陈默：羡慕。我这边训练出了点状况，左脚踝扭伤了，医生让我停跑两周。",
                "林晓：啊，那马拉松还能参加吗？",
                "陈默：还不确定，康复师说要看恢复情况，最晚四月十号决定。",
                "林晓：在这边认识了一个做木工的师傅老杨，他教我做了一个小板凳。",
                "陈默：哈哈，你一个程序员跑去学木工。",
                "林晓：说真的，我在考虑以后不写代码了，想开一家咖啡馆。",
                "陈默：这个想法有点大胆，你存款够吗？",
            ),
        ),
        (
            "2026-04-11",
            (
                "陈默：跟你说个坏消息，脚踝没恢复好，无锡马拉松我放弃了，改报了十月的北京马拉松。",
                "林晓：可惜，不过身体要紧，北京那场时间也充裕。",
                "林晓：我已经回杭州了，咖啡馆的事认真算了一下，前期投入大概要四十万。",
                "陈默：四十万不少啊，打算全部自己出吗？",
                "林晓：我自己出二十五万，剩下的找我大学室友周洋合伙。",
                "陈默：周洋是不是那个在阿里做产品的？",
                "林晓：对，他负责运营和营销，我负责选豆和出品。",
                "陈默：店想开在哪里？",
                "林晓：看中了西湖区文三路的一个铺面，四十平米，月租一万二。",
                "陈默：文三路学生多，定价别太高。",
            ),
        ),
        (
            "2026-05-02",
            (
                "林晓：告诉你，文三路那个铺面被别人抢先签了，我们改成了滨江的一个铺面。",
                "陈默：滨江那边上班族多，工作日生意应该不错。",
                '林晓：店名定了，叫"慢半拍"，是周洋想的。',
                "陈默：名字挺有意思。什么时候开业？",
                "林晓：计划六月十八号开业，正在装修。",
                "陈默：我那天一定去捧场。",
                "陈默：对了，我换工作了，下周一去网易做数据分析。",
                "林晓：恭喜！比之前的公司近吗？",
                "陈默：近多了，骑车十五分钟，以后可以每天早上跑步去上班。",
                "林晓：那你的脚踝可得注意。",
            ),
        ),
        (
            "2026-05-30",
            (
                "陈默：北京马拉松的报名抽签结果出来了，我中签了！",
                "林晓：太好了！这次要好好准备，别再受伤。",
                "陈默：我请了一个教练，每周二和周六带我训练。",
                "林晓：咖啡馆开业推迟了，消防验收没过，改到七月一号。",
                "陈默：还好只推迟两周，具体是什么问题？",
                "林晓：后厨的灭火器数量不够，还要加一个应急照明灯。",
                "陈默：开业那天需要我帮忙吗？",
                "林晓：需要！你帮我在门口发传单吧，周洋负责线上团购。",
                "林晓：我血压也降下来了，医生说继续保持清淡饮食就行。",
                "陈默：看来休息这几个月值了。",
            ),
        ),
    ),
    questions=(
        _q("fact", "林晓之前在哪家公司工作？", "从字节跳动离职"),
        _q("fact", "林晓体检查出了什么问题？", "血压偏高"),
        _q("fact", "林晓在大理住在谁开的民宿？", "表姐在大理开民宿", "表姐的民宿叫苍山小院"),
        _q("fact", "老杨教林晓做了什么东西？", "小板凳"),
        _q("fact", "开咖啡馆前期要投入多少钱？", "前期投入大概要四十万"),
        _q("fact", "林晓的咖啡馆叫什么名字？", "慢半拍"),
        _q("fact", "合伙人周洋在店里负责什么？", "他负责运营和营销"),
        _q("fact", "陈默去年半马跑了多长时间？", "一小时五十二分"),
        _q("fact", "咖啡馆的消防验收为什么没通过？", "灭火器数量不够"),
        _q("fact", "陈默的教练哪几天带他训练？", "每周二和周六"),
        _q("date", "林晓是哪天到的大理？", "我到大理了"),
        _q("date", "陈默是什么时候说要去网易上班的？", "去网易做数据分析"),
        _q("date", "陈默哪天说自己脚踝扭伤了？", "左脚踝扭伤了"),
        _q("date", "陈默北京马拉松中签的消息是哪天说的？", "我中签了"),
        _q("speaker", "是谁建议林晓去大理的？", "去大理吧"),
        _q("speaker", "谁提醒过文三路的店定价别太高？", "定价别太高"),
        _q("speaker", "咖啡馆的名字是谁想出来的？", "是周洋想的"),
        _q("changed", "陈默最后报的是哪场马拉松？", "改报了十月的北京马拉松"),
        _q("changed", "咖啡馆最后开在了哪里？", "改成了滨江的一个铺面"),
        _q("changed", "咖啡馆现在定在哪天开业？", "改到七月一号"),
    ),
)

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

HOUSE = Conversation(
    name="zh-house",
    sessions=(
        (
            "2026-06-06",
            (
                "王芳：新房的钥匙拿到了，三室两厅，九十八平米。",
                "赵磊：装修预算我们说好控制在二十五万以内。",
                "王芳：我想把次卧改成书房，给你放那些模型。",
                "赵磊：好啊，那朵朵住主卧旁边的小房间。",
                "王芳：朵朵九月份上小学，学区是育才小学。",
                "赵磊：报名材料要准备户口本和房产证，我下周去办。",
                "王芳：我同事推荐了一家装修公司，叫匠心家装。",
                "赵磊：先约他们出个设计方案，再找一家比比价。",
                "王芳：我喜欢原木风，墙面不要刷得太白。",
                "赵磊：我只要求阳台装个洗衣机柜。",
            ),
        ),
        (
            "2026-06-20",
            (
                "赵磊：匠心家装的报价出来了，二十八万，超预算了。",
                "王芳：另一家木森装饰报了二十三万，但工期要多一个月。",
                "赵磊：我倾向木森，反正我们也不急着搬。",
                "王芳：可朵朵九月开学，离新家近一点接送方便。",
                "赵磊：那就让木森把工期压到八月底，写进合同。",
                "王芳：好，合同里还要写延期一天赔两百块。",
                "王芳：我妈说开学前过来帮我们带朵朵两个月。",
                "赵磊：那她住哪儿？书房放张沙发床吧。",
                "王芳：对了，朵朵最近迷上了画画，想报个美术班。",
                "赵磊：周末报一个就行，别让她太累。",
            ),
        ),
        (
            "2026-07-11",
            (
                "王芳：水电改造做完了，工长说厨房的插座加了四个。",
                "赵磊：我去看了，卫生间的防水做了两遍，闭水试验四十八小时没漏。",
                "王芳：朵朵的美术班报好了，每周六上午在少年宫。",
                "赵磊：美术班的老师是谁？",
                "王芳：姓宋，朵朵说宋老师画的猫特别像。",
                "赵磊：我这周要去西安出差五天，装修你盯一下。",
                "王芳：没问题，地砖下周二进场。",
                "赵磊：地砖选的那款灰色的，别让他们换成米色。",
                "王芳：我爸体检查出来胆结石，下个月要做微创手术。",
                "赵磊：手术定在哪家医院？我到时候请假陪着。",
            ),
        ),
        (
            "2026-08-01",
            (
                "王芳：我爸的手术定在八月十四号，在省人民医院。",
                "赵磊：我已经请好了十四号和十五号两天假。",
                "王芳：地砖铺完了，但是客厅有两块颜色不对，是米色的。",
                "赵磊：我就说吧，让木森免费换掉。",
                "王芳：他们答应换了，不过工期可能要拖到九月十号。",
                "赵磊：那开学第一周朵朵只能从旧房子去学校了。",
                "王芳：我妈说可以早上送朵朵，坐公交四十分钟。",
                "赵磊：延期的赔偿记得按合同算。",
                "王芳：朵朵的美术班老师换了，宋老师去外地了，现在是一个姓许的老师。",
                "赵磊：朵朵喜欢新老师吗？",
            ),
        ),
        (
            "2026-08-22",
            (
                "王芳：我爸手术很顺利，住了三天就出院了。",
                "赵磊：太好了，让他少吃油腻的。",
                "王芳：木森说工期能赶在九月五号完工，只延期五天。",
                "赵磊：那赔偿就是一千块，从尾款里扣。",
                "王芳：书房的沙发床到货了，我妈下周就可以住进来。",
                "赵磊：朵朵的书包和文具我都买好了，还买了一个蓝色的水杯。",
                "王芳：朵朵说许老师教水彩，她比以前更喜欢了。",
                "赵磊：装修最后花了多少？",
                "王芳：算上家电一共二十四万六，没超预算。",
                "赵磊：辛苦了，搬家那天请两个师傅就够了。",
            ),
        ),
    ),
    questions=(
        _q("fact", "新房有多大？", "九十八平米"),
        _q("fact", "朵朵要上哪所小学？", "学区是育才小学"),
        _q("fact", "最后选了哪家装修公司？", "我倾向木森", "让木森把工期压到八月底"),
        _q("fact", "装修合同里延期怎么赔？", "延期一天赔两百块"),
        _q("fact", "卫生间闭水试验做了多久？", "闭水试验四十八小时"),
        _q("fact", "王芳的爸爸查出了什么病？", "胆结石"),
        _q("fact", "朵朵的美术班在哪里上课？", "每周六上午在少年宫"),
        _q("fact", "装修加家电一共花了多少钱？", "二十四万六"),
        _q("fact", "赵磊给朵朵买了什么颜色的水杯？", "蓝色的水杯"),
        _q("fact", "王芳喜欢什么装修风格？", "我喜欢原木风"),
        _q("date", "王芳爸爸的手术是哪天？", "手术定在八月十四号"),
        _q("date", "新房钥匙是哪天拿到的？", "新房的钥匙拿到了"),
        _q("date", "赵磊是什么时候去西安出差的？", "西安出差五天"),
        _q("date", "哪天发现客厅地砖颜色不对？", "两块颜色不对"),
        _q("speaker", "谁坚持地砖要灰色、不要米色？", "地砖选的那款灰色的"),
        _q("speaker", "是谁要求在阳台装洗衣机柜？", "阳台装个洗衣机柜"),
        _q("speaker", "谁提出让王芳的妈妈睡书房的沙发床？", "书房放张沙发床吧"),
        _q("changed", "朵朵的美术老师现在是谁？", "现在是一个姓许的老师"),
        _q("changed", "新房现在预计哪天完工？", "九月五号完工"),
        _q("changed", "开学第一周朵朵从哪里去上学？", "只能从旧房子去学校"),
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

STUDIO = Conversation(
    name="zh-studio",
    sessions=(
        (
            "2026-10-09",
            (
                "何凯：新游戏的立项会定了，做一款种田题材的手游，叫《山海农场》。",
                "孙悦：美术风格定了吗？我想做水墨风。",
                "何凯：制作人老郑想要 Q 版卡通，说水墨风太小众。",
                "孙悦：那我做两版概念图，下周三给他看。",
                "何凯：客户端用 Unity，服务器用 Go。",
                "孙悦：上线时间呢？",
                "何凯：明年五一前要拿到版号，暑假上线。",
                "孙悦：我下周请三天假，去青岛参加表妹的婚礼。",
                "何凯：帮我带点青岛啤酒回来。",
                "孙悦：行，你喜欢原浆还是纯生？",
            ),
        ),
        (
            "2026-10-23",
            (
                "孙悦：老郑看了两版概念图，最后选了水墨风，说更有辨识度。",
                "何凯：厉害，居然把他说服了。",
                "孙悦：主角定成一只会种地的小狐狸，名字叫阿禾。",
                "何凯：我这边招到了一个服务端，叫冯宇，之前在米哈游。",
                "孙悦：他什么时候入职？",
                "何凯：十一月一号入职，先负责交易系统。",
                "孙悦：青岛婚礼很热闹，啤酒给你放工位上了，两箱原浆。",
                "何凯：谢谢！多少钱我转你。",
                "孙悦：不用，算我请你的。",
                "何凯：那周五我请你吃烤肉。",
            ),
        ),
        (
            "2026-11-13",
            (
                "何凯：冯宇说交易系统要防刷，建议加一个风控服务。",
                "孙悦：会不会影响上线时间？",
                "何凯：老郑说可以，但版号申请要提前到明年三月。",
                "孙悦：我最近颈椎疼得厉害，医生让我每天做颈部操。",
                "何凯：你画图的时候把显示器调高一点。",
                "孙悦：已经买了一个显示器支架，还换了人体工学椅。",
                "何凯：阿禾的动作设计做完了吗？",
                "孙悦：做完了二十个动作，跑、跳、浇水、收割都有。",
                "何凯：我报了一个周末的潜水课，在千岛湖。",
                "孙悦：注意安全，记得找正规的教练。",
            ),
        ),
        (
            "2026-12-04",
            (
                "孙悦：阿禾的名字被别的游戏注册了商标，只能改名。",
                "何凯：那改成什么了？",
                '孙悦：大家投票改成了"小满"，节气名字，也符合种田的主题。',
                "何凯：好名字。我的潜水课考完了，拿到了开放水域证书。",
                "孙悦：恭喜！下一步是去海里潜吗？",
                "何凯：打算春节去菲律宾的薄荷岛。",
                "孙悦：我颈椎好多了，做了一个月理疗。",
                "何凯：冯宇的风控服务上线测试了，拦截了百分之三的异常请求。",
                "孙悦：老郑说年终奖按项目进度发，我们进度还行吧？",
                "何凯：按计划走，应该没问题。",
            ),
        ),
        (
            "2026-12-18",
            (
                "何凯：坏消息，老郑要调去北京的新项目，下个月由林姐接任制作人。",
                "孙悦：林姐是做过《云端小镇》的那位吗？",
                "何凯：对，她很重视数据，估计会要求先做小范围测试。",
                "孙悦：那我们要准备一个一月底的封闭测试版本。",
                "何凯：封测人数定在两千人，冯宇负责服务器扩容。",
                "孙悦：春节我爸妈来杭州过年，我就不回老家了。",
                "何凯：薄荷岛的机票订好了，二月十四号出发。",
                "孙悦：情人节出发，你是一个人去吗？",
                "何凯：和我女朋友一起，她也考了潜水证。",
                "孙悦：替我多拍点海龟。",
            ),
        ),
    ),
    questions=(
        _q("fact", "新游戏叫什么名字？", "《山海农场》"),
        _q("fact", "游戏的服务器用什么语言开发？", "服务器用 Go"),
        _q("fact", "孙悦从青岛给何凯带了什么？", "两箱原浆"),
        _q("fact", "冯宇之前在哪家公司？", "之前在米哈游"),
        _q("fact", "冯宇入职后先负责什么？", "先负责交易系统"),
        _q("fact", "孙悦为了颈椎买了什么？", "显示器支架"),
        _q("fact", "何凯的潜水课在哪里上？", "潜水课，在千岛湖"),
        _q("fact", "何凯考到了什么潜水证书？", "开放水域证书"),
        _q("fact", "风控服务测试时拦截了多少异常请求？", "百分之三"),
        _q("fact", "封闭测试定了多少人？", "两千人"),
        _q("date", "冯宇哪天入职？", "十一月一号入职"),
        _q("date", "何凯哪天出发去薄荷岛？", "二月十四号出发"),
        _q("date", "孙悦说颈椎疼是哪天？", "颈椎疼得厉害"),
        _q("date", "老郑要调走的消息是哪天说的？", "老郑要调去北京"),
        _q("speaker", "谁最早提出要做水墨风？", "我想做水墨风"),
        _q("speaker", "是谁建议加风控服务的？", "建议加一个风控服务"),
        _q("speaker", "谁让孙悦把显示器调高？", "把显示器调高一点"),
        _q("changed", "游戏的美术风格最后定了什么？", "最后选了水墨风"),
        _q("changed", "游戏主角现在叫什么名字？", '投票改成了"小满"'),
        _q("changed", "版号现在计划什么时候申请？", "版号申请要提前到明年三月"),
        _q("changed", "现在谁是游戏的制作人？", "由林姐接任制作人"),
    ),
)

CONVERSATIONS = (CAFE, APP, HOUSE, NEIGHBOURS, OFFSITE, STUDIO)
