"""A program to install for the user: the user's machines and tools are its evidence.

"Recommend a video editing app I can install tonight", "推荐个 screenshot 工具，要能装在我的 laptop
上", "帮我装个听歌的客户端", "Which extensions should I install to get Copilot working?" share no
word with "用户的主力电脑是一台装 Arch Linux 的 ThinkPad" or "The user writes code in VS Code every
day", and e5 put each of them under its floor: in a scope of twelve everyday memories the search
answered these tasks with nothing at all, and "What password manager should I use on my phone?"
with "The user's sister uses an iPhone" — an agent would pick a program for the wrong machine.
What runs where is what such an answer cannot do without, so the task is read here: when it asks
to recommend, choose or install software, an app, a tool, a plugin, an extension or a client for
the user (``asks_for_a_program``), the memories among the second model's nearest that say what
the user's machines and tools are (``tells_a_machine``) are its evidence, first — through the
door a list asked for goes through (``memories.recall.listing``, ``fuse(listed=…)``).

**A program for the user.** The task names a program (软件, 应用, app, 客户端, 插件, 扩展, 工具,
浏览器, 输入法, 播放器, 编辑器, software, plugin, extension, add-on, browser, password manager,
"email client", "text editor", a phone or PC game…) and asks for one: as a request to the
assistant (推荐, 帮我装 / 找 / 选, 来个, "recommend", "suggest", "install", "help me find"…), or
as the user's own choice, with the user in it (我该装什么, 我的 Mac 用哪个好, "should I use", "do I
need", "the best … for my iPad"; a Chinese wish's dropped subject is the user: "想把看过的书整理成
摘录，用什么软件好"). Installing on the user's machine says it too ("装在我的 laptop 上", "What
should I install on my new laptop?"), and so does installing a program by its name ("帮我装个
Docker", "How do I install Python?"). A device bought or chosen that must work with the user's
own counts as well (耳机, 充电器, 扩展坞, 键盘, 手机壳, 智能手表, headphones, a charger, a dock, a
stylus, "Which laptop should I buy?"): "帮我推荐一副无线耳机，AirPods 怎么样" needs the phone they
pair with. Peripherals in general ("What peripherals should I order for my new desk?") and a
device's settings ("…for my new monitor?") are left to the channels: a constraint of the user's
body, not a machine, answers them.

Software in general is nobody's program ("What is the best Linux distro?", "VS Code 和 Vim 哪个
好", "how does a compiler work"), someone else's is not the user's ("What app should my sister
use?"), and a question about the user's habit ("我用什么编辑器", "Which app do I log my workouts
in?", "我用什么软件记账") asks for none: ``memories.selectors.attributes`` or the channels answer
it. Writing a program is no program to install ("帮我写一个记账 app", "Build me a Chrome
extension"), and the words' other senses are none: 装修, 假装, "帮我在卧室再装一个书架", "install
the new shelves", 装个 LED 灯, 工具人, 工具箱, 软件工程, 应用场景, "file extension", "a deadline
extension", "What tools should I bring for hiking?", "app" inside "happy" or "WhatsApp".

**What tells a machine.** A memory that names the user's computer, operating system, phone or
tablet (Arch Linux, Ubuntu, Windows, macOS, MacBook, ThinkPad, iPad, iPhone, Android, 鸿蒙,
华为手机, "用户的手机是…", "the user's work laptop"…), their editor (``keys.EDITORS``: VS Code,
Neovim, JetBrains…) or browser (Chrome, Firefox, Safari…), or what they may not install
("公司不允许装私人软件", "no admin rights on the work laptop"). A brand that is an employer
("用户在华为工作"), a phone number ("用户的手机号"), the user's accessories ("用户的耳机是 Sony
WH-1000XM5") and someone else's device ("The user's sister uses an iPhone":
``keys.about_someone_else``) tell none.

**In what order.** The machines, then the tools, each in e5's order; the tools first when the
task names what runs inside one (a plugin, an extension, an add-on, an editor or a browser:
``asks_for_an_add_on``), and, when the task installs (装, 安装, 下载, install, download), what
forbids installing before everything else: "帮我装个听歌的客户端" cannot be done on a laptop where
"公司不允许装私人软件".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memories.engine.extraction import keys
from memories.types import ChannelHit


def _word(words: str) -> str:
    """``words`` as a whole Latin word, also beside Chinese ("推荐个app", "用VS Code写"), where
    ``\\b`` does not part them (a Han character is a word character)."""
    return rf"(?<![A-Za-z0-9_])(?:{words})(?![A-Za-z0-9_])"


# A program named in a task (应用场景 is a use case, 软件工程 a discipline, 工具人 a person,
# 扩展名 a file's suffix, 驱动力 a motive).
_PROGRAM_ZH = (
    r"软件(?!工程|开发|测试|架构|设计|公司|行业|专业|产业|外包|质量|项目)|"
    r"应用(?!场景|题|层|于|到|在|领域|案例|范围|数学|文|价值)|客户端|插件|"
    r"扩展(?!性|名|坞|到|成|为|开|阅读|业务|功能|能力|卡|槽|屏|内存|存储)|工具(?!人|箱|书)|"
    r"浏览器|输入法|播放器|阅读器|管理器|编辑器|模拟器|启动器|驱动程序|"
    r"(?:手机|电脑|PC|单机|Steam|主机|平板|iPad)游戏"
)
_PROGRAM_EN = _word(
    r"apps?(?! (?:project|development|developer|idea|launch|store|review|team|release|backend))|"
    r"applications?(?! (?:form|letter|deadline|process|fee|status|essay))|"
    r"software(?! (?:engineer|engineering|developer|architecture|design|company|industry|"
    r"project))|plug-?ins?|add-?ons?|"
    r"(?<!file )(?<!deadline )(?<!hair )(?<!lash )(?<!phone )(?<!visa )(?<!loan )"
    r"extensions?(?! (?:cord|lead|ladder|request|number|of))|browsers?|(?-i:IDEs?)|"
    r"(?:text|code|markdown|video|photo|image|pdf|audio|hex|latex) editors?|"
    r"(?:email|e-mail|mail|git|ssh|ftp|sftp|torrent|music|chat|desktop|mobile|vpn|rss|podcast|"
    r"database|sql|irc|matrix|im|api|http) clients?|"
    r"(?<!power )(?<!hand )(?<!garden )tools?(?! ?(?:kit|box|belt|shed|set))|utilit(?:y|ies)|"
    r"launchers?|password managers?|(?-i:VPN)s?|anti-?virus|"
    r"(?:graphics|gpu|printer|nvidia|amd|wifi|wi-fi|audio|bluetooth|device) drivers?|"
    r"terminal (?:emulator|app)s?|(?:mobile|phone|pc|computer|steam|ipad) games?"
)
_PROGRAM = re.compile(f"{_PROGRAM_ZH}|{_PROGRAM_EN}", re.IGNORECASE)
# A device bought or chosen that must work with the user's own.
_DEVICE_ZH = (
    r"耳机|充电器|充电头|充电宝|数据线|转接头|扩展坞|拓展坞|键盘|鼠标|显示器|手机壳|保护壳|钢化膜|"
    r"手写笔|触控笔|智能手表|手环|"
    r"(?:买|换|入手|挑|选)(?:个|台|部|款|一台|一部|一个|一款|新的?)*(?:手机|电脑|笔记本|平板)"
)
_DEVICE_EN = _word(
    r"headphones|earphones|earbuds|headset|chargers?|charging cables?|usb[- ]?c cables?|"
    r"(?:power|usb[- ]?c?|hdmi|travel|display|video) adapters?|dongles?|docking station|"
    r"(?:usb[- ]?c|thunderbolt|laptop) (?:dock|hub)|"
    r"keyboards?|mouse|(?:external|second|portable|4k) monitor|phone case|screen protector|"
    r"stylus|smart ?watch|fitness tracker|"
    r"(?:buy|get|choose|pick|upgrade to|switch to) (?:a |an |my )?(?:new |next )?"
    r"(?:phone|laptop|computer|tablet|pc|desktop)|"
    r"(?:which|what) (?:phone|laptop|computer|tablet) should i"
)
_DEVICE = re.compile(f"{_DEVICE_ZH}|{_DEVICE_EN}", re.IGNORECASE)
# The user's machine, where a program is installed.
_MACHINE_ZH = r"电脑|笔记本|台式机|手机|平板|Mac|iPad|iPhone|安卓|laptop|Linux|Windows"
_MACHINE_EN = (
    r"laptop|computer|pc|desktop|mac|macbook|phone|iphone|android|tablet|ipad|machine|linux|"
    r"windows|chromebook"
)
# Installing on it: "装在我的 laptop 上", "MacBook 上该装些什么", "install on my new laptop".
_ON_THE_MACHINE = re.compile(
    rf"(?:装|安装|下载)(?:在|到)[^，,。？?]{{0,8}}(?:{_MACHINE_ZH})|"
    rf"(?:{_MACHINE_ZH})(?:上|里)[^，,。？?]{{0,6}}(?:安装|下载|装(?!修|饰|潢|扮))|"
    rf"\b(?:install|download|set up)\b[^.?!]{{0,40}}\bon (?:my|this) "
    rf"(?:[\w-]+ )?(?:{_MACHINE_EN})\b",
    re.IGNORECASE,
)
# Installing a program by its name: "帮我装个 Docker", "How do I install Python?" (a capital,
# not "install the new shelves"; a lamp, a shelf or a file is no program: "装个 LED 灯",
# "帮我下载 PDF 文件").
_INSTALLS_A_NAME = re.compile(
    r"(?<![假服包西换改组盛伪])(?:安装|装|下载)(?:个|一个|一下|上|好)?\s*[A-Za-z]"
    r"(?![\w.+-]*\s?(?:[灯架柜门窗锁扇]|文件|文档|附件|报告|论文|图片|照片|视频|表格))|"
    r"(?i:\binstall(?:ing)?\s+(?:the |a |an )?)(?-i:[A-Z])"
)
# Any installing at all (its other senses are no program, and need a program named).
_INSTALLS = re.compile(
    r"安装|(?<![假服包西换改组盛伪])装(?!修|饰|潢|扮|作|傻|蒜|病|死|睡|逼|束|甲|车|货|箱|满|进|样)|"
    r"下载|\b(?:install(?:s|ing|ed)?|download|set up|setting up)\b",
    re.IGNORECASE,
)
# Asked of the assistant, for the user (推荐 here; "帮我" only with a verb of getting one: "帮我翻译
# 一下，app 里要用" asks for a translation).
_REQUEST_ZH = re.compile(
    r"推荐|(?:帮|给|替)我(?:找|选|挑|装|安装|下载|推荐|配|弄|换|买)|来(?:个|几个|一个|一款)|"
    r"求(?:个|一个|几个|推荐)"
)
_REQUEST_EN = re.compile(
    r"\b(?:recommend|suggest)\b|^(?:please\s+)?(?:install|set up|find|pick|choose|get me)\b|"
    r"\b(?:can|could|would) you (?:please )?(?:install|set up|find|pick|choose)\b|"
    r"\bhelp me (?:find|pick|choose|install|set up|get|buy)\b|\bfor me\b",
    re.IGNORECASE,
)
# The user's own choice, asked ("我该装什么", "should I use"): with the user in it.
_CHOICE_ZH = re.compile(
    r"(?:该|应该|得|最好|可以|能)(?:装|安装|下载|用|选|换|买)|(?:想|要|需要)(?:找|装|安装|下载|换|买)|(?:想要|需要)(?:一?个|一款|几个)|"
    r"(?:装|安装|下载|用|选|买)(?:哪|什么|啥)[^，,。？?]{0,8}(?:好|合适|比较|推荐)|"
    r"哪(?:个|款|些|种|副|台|部)[^，,。？?]{0,6}(?:好用|好|合适|值得)|有(?:什么|啥|哪些)(?:好用|推荐)"
)
_CHOICE_EN = re.compile(
    r"\bshould i\b|\bdo i need\b|\bcan i (?:use|install|get|download)\b|"
    r"\bi (?:need|want|'m looking for|am looking for)\b(?! you)|\b(?:best|good|decent)\b|"
    r"\bworth (?:installing|getting|buying)\b",
    re.IGNORECASE,
)
# The user, named or, in Chinese, the dropped subject of a wish ("想把看过的书整理成摘录，用什么
# 软件好").
_USER = re.compile(r"我(?!们)|^(?:想|打算|准备|需要)|\b(?:i|i'm|i've|me|my|mine)\b", re.IGNORECASE)
# Writing one, not installing one: "帮我写一个记账 app", "Build me a Chrome extension".
_MAKES = re.compile(
    r"(?:^|帮我|给我|替我|我(?:要|想)|请)(?:写|开发|做|设计|实现|编写)(?:一?个|一款|几个)?"
    rf"[^，,。？?的]{{0,10}}(?:{_PROGRAM_ZH})|"
    r"(?:^|\bhelp me |\bme to |\b(?:can|could|would) you |\bplease )"
    r"(?:write|build|develop|create|design|code|implement)(?: me)? (?:an? |the |my )?"
    rf"(?:[\w-]+ ){{0,2}}{_PROGRAM_EN}",
    re.IGNORECASE,
)
# Tools carried are no program: "What tools should I bring for hiking?".
_CARRIED = re.compile(
    r"\b(?:bring|pack|carry|take)\b[^.?!]{0,20}\btools?\b|"
    r"\btools?\b[^.?!]{0,20}\b(?:bring|pack|carry)\b",
    re.IGNORECASE,
)

# A brand said of a device ("华为手机", "a Dell laptop"), not an employer ("用户在华为工作").
_BRAND = (
    r"(?:华为|小米|荣耀|OPPO|vivo|三星|一加|苹果|联想|戴尔|惠普|华硕|宏碁|索尼|谷歌|魅族|"
    r"Dell|Lenovo|HP|Asus|Acer|Samsung|Huawei|Xiaomi|Honor|OnePlus|Apple|Google|Sony)"
)


def _device(*, names: str, chinese: str, english: str, models: str = "") -> re.Pattern[str]:
    """What names the user's device of one kind: its models or operating systems by name
    (``names``), a brand said of it ("华为手机", "a Dell laptop"; a brand alone may be an
    employer: "用户在华为工作"), or its common word, owned or used ("用户的手机是…", "the user's
    work laptop"; not a phone number or the desk in front of it)."""
    return re.compile(
        _word(names)
        + rf"|{_BRAND}\s?(?:的)?(?:{chinese}{models}|(?i:{english}))"
        + r"|(?:用户|我)(?:的|用的是|用|有|买了|换了|在用|新买的)(?:一台|一部|一个)?"
        + rf"(?:新|旧|老)?的?(?:主力|常用|工作|公司|私人|个人|办公)?(?:{chinese})"
        + r"(?!号|前|旁|桌|里的文件)"
        + rf"|\b(?:the user's|user's|my) (?:[\w-]+ ){{0,2}}(?:{english})\b"
        + r"(?! number| call| bill| plan)"
        + rf"|\b(?:uses|has|owns|bought|got) an? (?:[\w-]+ ){{0,2}}(?:{english})\b",
        re.IGNORECASE,
    )


# The user's machines, each kind apart (a question may ask for one: "我用的什么电脑"), by the
# device, not its operating system: "用户做 iOS 开发" says nothing of the user's phone.
COMPUTER = _device(
    names=r"(?-i:Mac)|macbook(?: air| pro)?|imac|mac (?:mini|studio|pro)|thinkpad|chromebook|"
    r"surface (?:pro|laptop|go|book)|matebook|steam deck",
    chinese="电脑|笔记本|台式机",
    english="laptops?|notebooks?|desktops?|computers?|pc",
)
PHONE = _device(
    names=r"iphone(?: ?\d+)?|pixel ?\d|galaxy (?:s\d+|note|z)|"
    r"(?:安卓|鸿蒙|android) ?(?:手机|phone)",
    chinese="手机",
    english="phones?",
    models=r"|Mate\s?\d|P\d|nova",
)
TABLET = _device(
    names=r"matepad|ipad(?: air| pro| mini)?|galaxy tab",
    chinese="平板",
    english="tablets?",
)
# An operating system: what runs on the user's machine, for a program to install.
_SYSTEM = re.compile(
    _word(
        r"linux|ubuntu|debian|fedora|manjaro|nixos|centos|opensuse|(?-i:Windows)(?: ?\d+)?|"
        r"win ?1[01]|wsl2?|macos|mac ?os|os ?x|chromeos|ipados|(?-i:iOS)|android|harmonyos|"
        r"安卓|鸿蒙"
    ),
    re.IGNORECASE,
)
# The user's editor (the key rules' list) or browser, by name.
_TOOL = re.compile(
    _word(
        rf"{keys.EDITORS}|chrome|chromium|firefox|vivaldi|(?-i:Safari)(?! (?:trip|park|tour))|"
        r"(?:brave|(?:microsoft )?edge)(?= browser)"
    )
    + r"|(?:Edge|Chrome)\s?浏览器",
    re.IGNORECASE,
)
# What runs inside a tool, asked for: a plugin for the editor, an extension for the browser.
_ADD_ON = re.compile(
    r"插件|扩展(?!性|名|坞)|编辑器|(?<![A-Za-z0-9_])(?:plug-?ins?|add-?ons?|extensions?|IDEs?|"
    rf"(?:text|code) editors?|{keys.EDITORS}|chrome|firefox|safari)(?![A-Za-z0-9_])",
    re.IGNORECASE,
)
# What the user may not install.
_LOCKED = re.compile(
    r"(?:不|禁止|不允许|不让|不能|没有?|无)[^，,。]{0,6}(?:安装|装)(?:私人|个人|第三方|其他|任何)?的?"
    r"(?:软件|程序|插件|应用|(?i:apps?))|(?:没有?|无)管理员权限|"
    r"\b(?:not allowed|isn't allowed|can't|cannot|unable) to install\b|\badmin (?:rights|access)\b|"
    r"\blocked[- ]down\b",
    re.IGNORECASE,
)


def asks_for_a_program(query: str) -> bool:
    """Whether ``query`` asks to recommend, choose or install a program (or a device that must
    work with the user's) for the user (above)."""
    question = " ".join(query.split())
    if keys.names_someone_else(question):
        return False
    request = bool(_REQUEST_ZH.search(question) or _REQUEST_EN.search(question))
    user = bool(_USER.search(question))
    choice = user and bool(_CHOICE_ZH.search(question) or _CHOICE_EN.search(question))
    installs = bool(_INSTALLS.search(question))
    if (_MAKES.search(question) and not installs) or _CARRIED.search(question):
        return False
    program = bool(_PROGRAM.search(question))
    if program and (request or choice or (user and installs)):
        return True
    if _ON_THE_MACHINE.search(question) and (request or user):
        return True
    if _INSTALLS_A_NAME.search(question) and (request or user):
        return True
    return bool(_DEVICE.search(question)) and (request or choice)


def asks_for_an_add_on(query: str) -> bool:
    """Whether ``query`` names what runs inside a tool (a plugin, an extension, an add-on, an
    editor or a browser by name): the user's tools before their machines."""
    return bool(_ADD_ON.search(" ".join(query.split())))


def _locks(text: str) -> bool:
    return bool(_LOCKED.search(text))


def _names_a_tool(text: str) -> bool:
    return bool(_TOOL.search(text))


def _machine(text: str) -> bool:
    return any(kind.search(text) for kind in (_SYSTEM, COMPUTER, PHONE, TABLET, _LOCKED))


def tells_a_machine(text: str) -> bool:
    """Whether the memory ``text`` says what the user's machines and tools are (above)."""
    return (_machine(text) or _names_a_tool(text)) and not keys.about_someone_else(text)


def installing(query: str, nearest: Sequence[ChannelHit]) -> list[str]:
    """The memories among ``nearest`` (the meaning channel's rows, the nearest first) that the
    program ``query`` asks for needs: what the user's machines are, then their tools (their tools
    first for a plugin or an extension), after what forbids installing when the task installs,
    each in that order; nothing when it asks for no program."""
    if not asks_for_a_program(query):
        return []
    told = [hit for hit in nearest if tells_a_machine(hit.content)]
    groups = [_machine, _names_a_tool]
    if asks_for_an_add_on(query):
        groups.reverse()
    if _INSTALLS.search(" ".join(query.split())):
        groups.insert(0, _locks)
    ordered: list[str] = []
    for group in groups:
        ordered += [hit.id for hit in told if hit.id not in ordered and group(hit.content)]
    return ordered
