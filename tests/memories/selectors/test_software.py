"""Which tasks ask for a program to install for the user, and which memories say what the user's
machines and tools are (``memories.selectors.software``)."""

from __future__ import annotations

import pytest

from memories.selectors.software import (
    asks_for_a_program,
    asks_for_an_add_on,
    installing,
    tells_a_machine,
)
from tests.memories.recall.test_listing import hit


@pytest.mark.parametrize(
    "task",
    [
        "Recommend a video editing app I can install tonight",
        "推荐个 screenshot 工具，要能装在我的 laptop 上",
        "推荐几个提高 coding 效率的 plugin",
        "Which extensions should I install to get Copilot working?",
        "帮我装个听歌的客户端",
        "What password manager should I use on my phone?",
        "我该装什么杀毒软件",
        "我的 MacBook 用哪个截图软件好",
        "我想找个记账app",
        # The wish's dropped subject is the user.
        "想把看过的书整理成摘录，用什么软件好",
        "需要一个记账软件",
        "有什么好用的截图工具推荐吗",
        "推荐个写代码的工具",
        "推荐几个手机游戏",
        "我的插件装不上怎么办",
        "我的手机上该装些什么",
        "What should I install on my new laptop?",
        "What's a good note-taking app for my iPad?",
        "Can you suggest a good email client?",
        "Help me find a PDF editor",
        "Which browser should I use?",
        "Recommend an app to make GIFs",
        # A program by its name, installed for the user.
        "帮我装个 Docker",
        "How do I install Python on Windows?",
        # A device that must work with the user's own.
        "帮我推荐一副无线耳机",
        "帮我挑个机械键盘",
        "Which laptop should I buy next?",
        "Recommend a charger for my phone",
    ],
)
def test_a_program_to_install_for_the_user(task):
    assert asks_for_a_program(task)


@pytest.mark.parametrize(
    "text",
    [
        # Software in general: nobody's program.
        "What is the best Linux distro?",
        "VS Code 和 Vim 哪个好",
        "how does a compiler work",
        "App Store 的审核规则是什么",
        "Who uses WhatsApp the most?",
        # The user's habit, asked about: the attribute's, or the channels'.
        "我用什么编辑器",
        "What editor do I use?",
        "Which browser do I use?",
        "Which app do I log my workouts in?",
        "我用什么软件记账",
        "修图软件",
        # Someone else's.
        "What app should my sister use to edit her travel videos?",
        "推荐个 app 给我妈用",
        # Writing one is no installing one.
        "帮我写一个记账 app",
        "Build me a Chrome extension",
        "The board approved the mobile app project, and I want you to lead the backend.",
        # The words' other senses.
        "Install the new shelves in the living room",
        "帮我在卧室再装一个书架",
        "帮我在卧室装个 LED 灯",
        "帮我装修一下客厅",
        "他假装没看见",
        "这个工具人又加班了",
        "帮我买个工具箱",
        "推荐几本软件工程的书",
        "推荐几个机器学习的应用场景",
        "How do I change a file extension?",
        "I need a deadline extension",
        "I'm so happy today",
        "What tools should I bring for hiking?",
        "I'd suggest checking the storage adapter's temp-dir handling first",
        "Recommend a good power tool set",
        "帮我翻译一下这段话，app 里要用",
        "帮我下载 PDF 文件",
        "我的手机号是多少",
        # Other errands.
        "推荐几部科幻电影",
        "帮我订明天中午的外卖",
    ],
)
def test_no_program_is_read_into_another_question(text):
    assert not asks_for_a_program(text)


@pytest.mark.parametrize(
    ("task", "add_on"),
    [
        ("推荐几个提高 coding 效率的 plugin", True),
        ("Which extensions should I install to get Copilot working?", True),
        ("推荐几个 VS Code 的主题", True),
        ("Recommend a video editing app I can install tonight", False),
        ("帮我装个听歌的客户端", False),
    ],
)
def test_a_plugin_or_an_extension_is_an_add_on(task, add_on):
    assert asks_for_an_add_on(task) is add_on


@pytest.mark.parametrize(
    "memory",
    [
        "用户的主力电脑是一台装 Arch Linux 的 ThinkPad。",
        "用户用的是华为手机。",
        "用户用的是苹果手机。",
        "用户平时用 iPad 记笔记。",
        "用户的笔记本是公司配的。",
        "公司不允许装私人软件。",
        "用户的工作电脑没有管理员权限。",
        "用户用 Neovim 写代码，配色是 Gruvbox。",
        "用户用VS Code写前端。",
        "The user writes code in VS Code every day.",
        "The user has a MacBook Pro for work and an Android phone.",
        "The user's work laptop runs Windows 11.",
        "The user's phone is a Pixel 8.",
        "The user browses with Firefox.",
        "The user is not allowed to install software on the work laptop.",
        # An operating system alone says what a program must run on.
        "The user runs Fedora at home, nothing else.",
        "用户家里的主机装的是 Ubuntu。",
    ],
)
def test_what_tells_a_machine(memory):
    assert tells_a_machine(memory)


@pytest.mark.parametrize(
    "memory",
    [
        # Someone else's device.
        "The user's sister uses an iPhone.",
        "用户的同事用 Emacs。",
        # A brand as an employer, a phone number, the desk in front of a computer.
        "用户在华为工作。",
        "用户的手机号是 13800000000。",
        "The user's phone number is 555-0100.",
        "用户坐在电脑前太久会腰疼。",
        # The user's accessories: a device to buy may need them, a program does not.
        "用户的耳机是 Sony WH-1000XM5，只支持蓝牙连接。",
        # The words' other senses.
        "The user cleans the windows every Sunday.",
        "The user went on a safari in Kenya.",
        "The user loves the opera.",
        "用户早上喝小米粥。",
        "用户家里不装空调。",
        "用户上周末在客厅装了两个新书架。",
        # Everyday memories.
        "用户喜欢喝美式咖啡，不加糖。",
        "The user listens to jazz while working.",
    ],
)
def test_what_tells_no_machine(memory):
    assert not tells_a_machine(memory)


NEAREST = [
    hit("jazz", "The user listens to jazz while working."),
    hit("editor", "The user writes code in VS Code every day."),
    hit("sister", "The user's sister uses an iPhone."),
    hit("laptop", "用户的主力电脑是一台装 Arch Linux 的 ThinkPad。"),
    hit("shelves", "用户上周末在客厅装了两个新书架。"),
    hit("phone", "用户用的是华为手机。"),
    hit("coffee", "用户喜欢喝美式咖啡，不加糖。"),
]


def test_the_machines_then_the_tools_in_the_meaning_channels_order():
    assert installing("Recommend a video editing app I can install tonight", NEAREST) == [
        "laptop",
        "phone",
        "editor",
    ]
    assert installing("帮我装个听歌的客户端", NEAREST) == ["laptop", "phone", "editor"]


def test_what_forbids_installing_first_when_the_task_installs():
    nearest = [
        hit("ipad", "用户用 iPad 和 Apple Pencil 做读书笔记。"),
        hit("laptop", "用户的电脑是联想 ThinkPad，公司不允许装私人软件。"),
    ]
    assert installing("帮我装个听歌的客户端", nearest) == ["laptop", "ipad"]
    assert installing("想把看过的书整理成摘录，用什么软件好", nearest) == ["ipad", "laptop"]


def test_the_tools_first_for_a_plugin():
    assert installing("推荐几个提高 coding 效率的 plugin", NEAREST) == ["editor", "laptop", "phone"]


@pytest.mark.parametrize(
    "question", ["What is the best Linux distro?", "我用什么编辑器", "帮我在卧室再装一个书架"]
)
def test_no_program_no_evidence(question):
    assert installing(question, NEAREST) == []
