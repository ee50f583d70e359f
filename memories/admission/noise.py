"""Noise removal: technical text that is never a memory, and paths/URLs cut out of sentences.

Stack traces, logs, shell commands, code, benchmark echo and injected session summaries are
dropped line by line; absolute paths and URLs are cut out of the sentences that remain.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from memories.text import HAN, HAN_CHARS

__all__ = ["clean_text"]


# Injected summaries wrapped in tags: removed whole, or to the end when never closed.
_SUMMARY_TAG_RE: Final = re.compile(
    r"<(?P<tag>system[_\-]reminder"
    r"|(?:[\w\-]{0,40}[_\-])?(?:session|conversation|context|chat)[_\-](?:[\w\-]{0,40}[_\-])?"
    r"summary)"
    r"\b[^>]*>.*?(?:</(?P=tag)\s*>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_SUMMARY_HEADING_RE: Final = re.compile(
    r"^\s*(?P<hashes>#{1,6})\s*(?:"
    r"(?:previous\s+|prior\s+)?(?:session|conversation|context|chat)\s+summary"
    r"|(?:之前|此前|历史|上次|上一次)?(?:的)?(?:会话|对话|上下文)摘要)",
    re.IGNORECASE,
)
_SUMMARY_MARKER_RE: Final = re.compile(
    r"^\s*(?:"
    r"\[(?:previous\s+)?(?:session|conversation|context|chat)\s+summary\]"
    r"|【(?:会话|对话|上下文|历史会话)摘要】"
    r"|(?:历史)?(?:会话|对话|上下文)摘要\s*[:：]"
    r"|以下是(?:之前|此前|先前|上一次|上次|历史)?的?(?:会话|对话)(?:内容)?的?摘要"
    r"|this session is being continued from a previous conversation"
    r"|summary of (?:the )?previous (?:session|conversation)"
    r")",
    re.IGNORECASE,
)
_MARKDOWN_HEADING_RE: Final = re.compile(r"^\s*(#{1,6})\s")
_FENCE_RE: Final = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})")

# Stack traces.
_PY_TRACEBACK_RE: Final = re.compile(r"^\s*Traceback \(most recent call last\):?")
_PY_CHAINED_RE: Final = re.compile(
    r"^\s*(?:During handling of the above exception|The above exception was the direct cause)"
)
_PY_EXCEPTION_LINE_RE: Final = re.compile(r"^[A-Za-z_][\w.]*(?::|$)")
_GO_DUMP_START_RE: Final = re.compile(r"^(?:goroutine \d+ \[[^\]]*\]:|panic: )")
# The head of a function or class: its body follows indented (and a brace closes it).
_CODE_HEAD_RE: Final = re.compile(
    r"^\s*(?:(?:async\s+)?def\s+\w+\s*\(.*\)(?:\s*->.*)?|class\s+\w+\s*(?:\(.*\))?)\s*:\s*$"
    r"|^\s*(?:export\s+)?(?:async\s+)?(?:function|func|fn)\s+\w+\s*\(.*\).*\{\s*$"
)
_TRACE_LINE_RES: Final = (
    re.compile(r'^\s*File "[^"]+", line \d+'),
    re.compile(r"^\s*at\s+[\w$.<>/\[\]]+\((?:[\w$.\-]+:\d+|Native Method|Unknown Source)\)\s*$"),
    re.compile(r"^\s*at\s+(?:async\s+)?(?:new\s+)?(?:[^\s()]+\s+)?\(?[^\s()]+:\d+:\d+\)?\s*$"),
    re.compile(r"^\s*\.\.\. \d+ (?:more|common frames omitted)"),
    re.compile(r"^\s*Caused by: "),
    re.compile(r'^\s*Exception in thread "'),
    re.compile(r"^\s*(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable)\b"),
    re.compile(r"^\s*(?:Uncaught\s+)?[A-Z]\w*(?:Error|Exception)(?:\s*\[\w+\])?:\s"),
    re.compile(r"^\s*\S+\.go:\d+(?: \+0x[0-9a-f]+)?\s*$"),
    re.compile(r"^exit status \d+\s*$"),
)

# Logs.
_LEVEL: Final = r"(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|SEVERE|PANIC)"
_TIMESTAMP: Final = (
    r"\[?\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
    r"(?:Z|[+\-]\d{2}:?\d{2})?\]?"
)
_LOG_LINE_RES: Final = (
    re.compile(rf"^\s*{_TIMESTAMP}.{{0,60}}?\b{_LEVEL}\b"),
    re.compile(r"^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}"),  # seconds precision alone
    re.compile(rf"^\s*\[{_LEVEL}\]"),
    re.compile(rf"^\s*{_LEVEL}(?:\s*[:|\]]|\s+-\s)"),
    re.compile(rf"^\s*{_LEVEL}\s+{_TIMESTAMP}"),  # the level first, then the time
    re.compile(rf"^\s*\d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d+)?\s+\[?{_LEVEL}\b"),
    re.compile(r"^\s*[A-Z][a-z]{2}\s+\d{1,2} \d{2}:\d{2}:\d{2} \S+ \S+?(?:\[\d+\])?:"),  # syslog
    re.compile(r"^\s*[IWEF]\d{4} \d{2}:\d{2}:\d{2}"),  # glog
    re.compile(r"^\s*\d{1,3}(?:\.\d{1,3}){3} - \S+ \[\d{2}/\w{3}/\d{4}:"),  # access log
)

# Shell prompts and commands.
_PROMPT_RES: Final = (
    re.compile(r"^\s*(?:\([\w.\-]+\)\s*)?[$❯➜]\s+[A-Za-z./~]"),
    re.compile(r"^\s*(?:\([\w.\-]+\)\s*)?[\w.\-]+@[\w.\-]+(?::[^\s#$%]*)?\s*[#$%](?:\s|$)"),
    re.compile(r"^\s*PS [A-Za-z]:\\[^>]*>"),
    re.compile(r"^\s*[A-Za-z]:\\[^>\s]*>\s*\S"),
)
_REPL_RE: Final = re.compile(r"^\s*>>>(?:\s|$)")
_REPL_CONTINUATION_RE: Final = re.compile(r"^\s*\.\.\.(?:\s|$)")
# Commands are matched case-sensitively (sentences start with a capital) and only when no Han
# character precedes the first quote or comment: "git 提交信息用中文" is a preference.
_COMMAND_RE: Final = re.compile(
    r"^\s*(?:"
    r"sudo\s+\S"
    r"|(?:pip3?|pipx)\s+(?:install|uninstall|freeze|list|show|download|wheel)\b"
    r"|(?:uv|poetry|conda|pdm|rye)\s+(?:pip|run|sync|add|remove|lock|install|create|activate)\b"
    r"|python(?:3(?:\.\d+)?)?\s+(?:-[mcVu]|\S+\.py\b)"
    r"|(?:npm|pnpm|yarn|bun)\s+(?:install|i|ci|run|test|start|build|add|remove|publish|init"
    r"|exec|dlx|x)\b"
    r"|npx\s+\S"
    r"|node\s+\S+\.(?:m?js|cjs|ts)\b"
    r"|git\s+(?:clone|pull|push|commit|checkout|switch|add|status|log|diff|merge|rebase|fetch"
    r"|reset|stash|branch|tag|init|remote|cherry-pick|revert|show|config|restore|bisect|blame"
    r"|submodule|rm|mv|clean)\b"
    r"|docker(?:-compose)?\s+(?:run|build|ps|exec|pull|push|compose|images|logs|stop|start"
    r"|restart|rm|rmi|network|volume|login|tag|inspect|up|down|system|buildx)\b"
    r"|go\s+(?:run|build|test|get|mod|install|vet|fmt|env|version|generate)\b"
    r"|cargo\s+(?:build|run|test|add|install|check|clippy|fmt|new)\b"
    r"|(?:kubectl|helm|terraform|ansible(?:-playbook)?|systemctl|journalctl|brew|apt|apt-get"
    r"|yum|dnf|apk|psql|redis-cli|mongosh|ssh|scp|rsync|wget|curl|chmod|chown|mkdir|grep"
    r"|sed|awk|ruff|pytest|mypy|mvn|gradle|gcc|javac|nohup|wrk|locust|tmux|crontab|openssl"
    r"|nginx|supervisorctl|pm2|ab)(?:\s+\S|\s*$)"
    r"|(?:cd|ls|cat|rm|mv|cp|ln|touch|tail|head|less|source|kill|pkill|du|df|chmod|tar|unzip"
    r"|zip|find|echo|export|mysql|java|make)\s+(?:-{1,2}\w|[./~$\\]|[A-Z_][A-Z0-9_]*=)"
    r"|make(?:\s+[\w\-]+)?\s*$"
    r"|\./\S+"
    r")"
)

# Benchmark / load-test echo (wrk, ab, locust, hey, redis-benchmark…), only on Han-free lines.
# A tool's label opens its line, as the tool prints it ("Requests per second:    950.12",
# "  250000 requests in 30.00s", "  Thread Stats   Avg…"): the same words inside a sentence ("the
# API holds 500 requests per second", "Summary: the user wants…") are prose.
_BENCHMARK_RES: Final = (
    re.compile(
        r"^\s*(?:Requests/sec|Transfer/sec|Requests per second|Time per request|Transfer rate"
        r"|Concurrency Level|Complete requests|Failed requests|Time taken for tests"
        r"|Total transferred|HTML transferred|Document (?:Path|Length)|Server (?:Software"
        r"|Hostname|Port)|Socket errors|Non-2xx or 3xx responses):"
        r"|^\s*(?:Connection Times|Percentage of the requests served|This is ApacheBench"
        r"|Thread Stats|Latency Distribution|Req/Sec|Response time percentiles)\b"
        r"|^\s*\d+ requests in \d[\d.]*\w*,|^\s*\d+ threads and \d+ connections\s*$"
        r"|^\s*(?:Summary|Status code distribution|Response time histogram):\s*$"
    ),
    re.compile(r"^\s*Running \d+\w* test @"),
    re.compile(r"^\s*Benchmarking \S+"),
    re.compile(r"^\s*Latency\s*(?::|\s[\d.])"),
    re.compile(r"\bops/s(?:ec)?\b"),
    re.compile(r"^\s*(?:Type\s+Name|Aggregated|Name\s+# reqs)"),
    re.compile(
        r"^\s*(?:p\d{2}(?:\.\d+)?|P\d{2}(?:\.\d+)?|\d{2}(?:\.\d+)?%|\d{2}(?:th|%ile))"
        r"\s*[:=]?\s*[\d.]+\s*(?:ns|us|µs|ms|s|m)?\b"
    ),
)
_NUMBER_TOKEN_RE: Final = re.compile(r"\d+(?:[.,]\d+)*%?")

# Indented code: Han-free (outside string literals) and shaped like a statement.
_INDENTED_RE: Final = re.compile(r"^(?:\t| {4,})\S")
_LIST_ITEM_RE: Final = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s")
_CODE_SHAPE_RE: Final = re.compile(
    r"(?:[;{}]\s*$|:\s*$|\)\s*$|\s==?\s|->|=>|\w\(|^\s*(?:def|class|return|import|from|if|elif"
    r"|else|for|while|try|except|finally|with|raise|yield|pass|break|continue|const|let|var"
    r"|function|public|private|protected|static|func|package|fn|pub|use|async|await|throw"
    r"|print|#include|@\w+)\b)"
)
_STRING_LITERAL_RE: Final = re.compile(r"\"[^\"]*\"|'[^']*'")

# URLs and absolute paths inside sentences.
_URL_RE: Final = re.compile(
    rf"(?:(?:https?|ftp|wss?|file)://|www\.)[^\s<>\"'`{HAN_CHARS}\u3000-\u303f\uff00-\uffef]+",
    re.IGNORECASE,
)
_URL_TRAILING: Final = ".,;:!?)]}'"
_WINDOWS_PATH_RE: Final = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Za-z]:\\|\\\\[\w.\-]+\\)"
    r"(?:[^\\/:*?\"<>|\s，。；：！？、（）]+\\)*"
    r"(?:[^\\/:*?\"<>|\s，。；：！？、（）]*?\.[A-Za-z0-9]{1,8}(?![A-Za-z0-9])|[\w.\-]*)"
)
_UNIX_PATH_RE: Final = re.compile(
    r"(?<![A-Za-z0-9_.:/~\-])"
    r"(?:~/(?:[A-Za-z0-9_.@+%\-]+/)*|/(?:[A-Za-z0-9_.@+%\-]+/)+)"
    r"(?:[^\\/:*?\"<>|\s，。；：！？、（）]*?\.[A-Za-z0-9]{1,8}(?![A-Za-z0-9])"
    r"|[A-Za-z0-9_.@+%\-]*)"
)
_GAP: Final = "\x00"
# "我在 /home/a/b.py 中发现…" → "我发现…": the 在…中 frame dies with the path it framed.
_EMPTY_FRAME_RE: Final = re.compile(
    rf"(?:在|于|从)[ \t]*{_GAP}(?:[ \t]*{_GAP})*[ \t]*(?:里面|之中|中|里|内)(?![文国心间断])"
)
# "（见 https://… ）" → "": an aside that only pointed at the removed link goes with it.
_EMPTY_ASIDE_RE: Final = re.compile(
    rf"[（(][ \t]*(?:见|参见|详见|参考|来源|链接|地址|see|ref|via|source)?[ \t]*[:：]?"
    rf"[ \t]*{_GAP}(?:[ \t]*{_GAP})*[ \t]*[）)]",
    re.IGNORECASE,
)
_GAP_RUN_RE: Final = re.compile(rf"[ \t]{{0,8}}{_GAP}(?:[ \t]*{_GAP})*[ \t]*")
# Quotes only when directly adjacent: '"林清" "飞书"' must not lose its inner quote pair.
_EMPTY_BRACKETS_RE: Final = re.compile(r"\(\s*\)|（\s*）|\[\s*\]|【\s*】|<\s*>|《\s*》|\"\"|``")
_OPENERS: Final = "([{<\"'`"
_CLOSERS: Final = ")]}>\"'`,.;:!?"
_SPACE_BEFORE_CJK_PUNCT_RE: Final = re.compile(r"[ \t]+(?=[，。；：！？、）】》])")
_MULTI_SPACE_RE: Final = re.compile(r"(?<=\S)[ \t]{2,}")
_BLANK_RUN_RE: Final = re.compile(r"\n{3,}")


def clean_text(text: str) -> str:
    """Drop technical noise line by line and cut paths/URLs out of the surviving sentences."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _SUMMARY_TAG_RE.sub("", text)
    kept = [_strip_paths_and_urls(line) for line in _drop_noise_lines(text.split("\n"))]
    joined = "\n".join(line.rstrip() for line in kept if line is not None)
    return _BLANK_RUN_RE.sub("\n\n", joined).strip("\n").strip()


def _drop_noise_lines(lines: list[str]) -> list[str]:
    noise = _LineFilter()
    return [line for line in lines if noise.keeps(line)]


class _LineFilter:
    """Reads a message line by line and tells which lines to keep.

    Some noise spans several lines whose later lines look harmless on their own: a fenced
    block, an injected summary (under a heading or after a marker), a Python traceback, a Go
    goroutine dump, a REPL session.  The filter remembers which of those it is inside; every
    other line is judged alone (``_is_noise_line``).
    """

    def __init__(self) -> None:
        self.fence: str | None = None  # the open fence's marker: 3+ backticks or tildes
        self.block: Callable[[str], bool] | None = None  # the open multi-line block's rule
        self.summary_level = 0  # the ``#`` count of the heading that opened a summary
        self.summary_started = False  # a marker's summary has had a non-blank line
        self.previous_was_repl = False  # ``...`` continues a ``>>>`` line only

    def keeps(self, line: str) -> bool:
        if self.fence is not None:
            if _closes_fence(self.fence, line):
                self.fence = None
            return False
        if self.block is not None and self.block(line):
            return False  # still inside the block
        if self._opens_fence(line) or self._opens_block(line) or self._is_repl(line):
            return False
        return not (line.strip() and _is_noise_line(line))

    # --- fences ---------------------------------------------------------------------------

    def _opens_fence(self, line: str) -> bool:
        match = _FENCE_RE.match(line)
        if not match:
            return False
        marker = match.group("fence")
        if marker[0] not in line.strip()[len(marker) :]:  # a one-line ```code``` needs no state
            self.fence = marker
        self.previous_was_repl = False
        return True

    # --- multi-line blocks: each rule says whether a line still belongs to the open block,
    # and closes it (``self.block = None``) where the block ends ---------------------------

    def _opens_block(self, line: str) -> bool:
        heading = _SUMMARY_HEADING_RE.match(line)
        if heading:
            self.summary_level = len(heading.group("hashes"))
            self.block = self._in_summary_section
        elif _SUMMARY_MARKER_RE.match(line):
            self.summary_started = False
            self.block = self._in_summary_paragraph
        elif _PY_TRACEBACK_RE.match(line):
            self.block = self._in_traceback
        elif _GO_DUMP_START_RE.match(line):
            self.block = self._in_go_dump
        elif _CODE_HEAD_RE.match(line):
            self.block = self._in_code_body
        else:
            return False
        return True

    def _in_summary_section(self, line: str) -> bool:
        """A summary under a heading runs to the next heading of the same or a higher level."""
        heading = _MARKDOWN_HEADING_RE.match(line)
        if heading is None or len(heading.group(1)) > self.summary_level:
            return True
        self.block = None
        return False

    def _in_summary_paragraph(self, line: str) -> bool:
        """A summary after a marker runs to the first blank line after some text; that blank
        line goes with it."""
        if line.strip():
            self.summary_started = True
        elif self.summary_started:
            self.block = None
        return True

    def _in_traceback(self, line: str) -> bool:
        """Indented frames and chained tracebacks continue it; the unindented exception line
        that follows them ends it and goes with it."""
        if not line.strip():
            self.block = None
            return False
        if line[0].isspace() or _PY_CHAINED_RE.match(line) or _PY_TRACEBACK_RE.match(line):
            return True
        self.block = None
        return bool(_PY_EXCEPTION_LINE_RE.match(line))

    def _in_code_body(self, line: str) -> bool:
        """A function's or class's body: indented lines, and the braces that close it."""
        if line.strip() and (line[0].isspace() or not line.strip().strip("});")):
            return True
        self.block = None
        return False

    def _in_go_dump(self, line: str) -> bool:
        """A goroutine dump is Han-free; it ends at a blank line or at prose."""
        if line.strip() and (line[0].isspace() or not HAN.search(line)):
            return True
        self.block = None
        return False

    # --- REPL sessions --------------------------------------------------------------------

    def _is_repl(self, line: str) -> bool:
        """A ``>>>`` line, or a ``...`` line right after one."""
        repl = bool(
            _REPL_RE.match(line) or (self.previous_was_repl and _REPL_CONTINUATION_RE.match(line))
        )
        self.previous_was_repl = repl
        return repl


def _closes_fence(fence: str, line: str) -> bool:
    """Only a line made of the opening marker's character (at least as many) closes a fence."""
    stripped = line.strip()
    return stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0])


def _is_noise_line(line: str) -> bool:
    if any(pattern.search(line) for pattern in _TRACE_LINE_RES):
        return True
    if any(pattern.search(line) for pattern in _LOG_LINE_RES):
        return True
    if any(pattern.search(line) for pattern in _PROMPT_RES):
        return True
    if _COMMAND_RE.match(line) and not HAN.search(_command_head(line)):
        return True
    has_han = bool(HAN.search(line))
    if not has_han and (
        any(pattern.search(line) for pattern in _BENCHMARK_RES) or _is_numeric_row(line)
    ):
        return True
    return _is_indented_code(line)


def _command_head(line: str) -> str:
    """The part of a command line before its first quote or trailing comment."""
    return re.split(r"[\"'`]|\s#\s", line, maxsplit=1)[0]


def _is_numeric_row(line: str) -> bool:
    """Han-free table rows made mostly of numbers (percentile tables, locust rows…)."""
    numbers = _NUMBER_TOKEN_RE.findall(line)
    if len(numbers) < 3:
        return False
    visible = [char for char in line if not char.isspace()]
    letters = sum(char.isalpha() for char in visible)
    return letters * 3 <= len(visible)


def _is_indented_code(line: str) -> bool:
    if not _INDENTED_RE.match(line) or _LIST_ITEM_RE.match(line):
        return False
    if HAN.search(_STRING_LITERAL_RE.sub("", line)):
        return False
    return bool(_CODE_SHAPE_RE.search(line))


def _strip_paths_and_urls(line: str) -> str | None:
    """Cut URLs and absolute paths out of a sentence; None when nothing readable is left."""
    marked = _URL_RE.sub(_url_gap, line)
    marked = _WINDOWS_PATH_RE.sub(_GAP, marked)
    marked = _UNIX_PATH_RE.sub(_GAP, marked)
    if _GAP not in marked:
        return line

    indent = marked[: len(marked) - len(marked.lstrip())]
    body = _EMPTY_FRAME_RE.sub(_GAP, marked.lstrip())
    body = _EMPTY_ASIDE_RE.sub(_GAP, body)
    body = _GAP_RUN_RE.sub(_join_gap, body)
    body = _EMPTY_BRACKETS_RE.sub("", body)
    body = _SPACE_BEFORE_CJK_PUNCT_RE.sub("", body)
    body = _MULTI_SPACE_RE.sub(" ", body).strip()
    if not any(char.isalnum() for char in body):
        return None
    return indent + body


def _url_gap(match: re.Match[str]) -> str:
    url = match.group()
    trimmed = url.rstrip(_URL_TRAILING)
    return _GAP + url[len(trimmed) :]


def _join_gap(match: re.Match[str]) -> str:
    """Rejoin the text around a removed span.

    Chinese needs no space ("日志保存在目录下"); Latin text keeps one ("see for details"),
    except next to brackets, quotes and punctuation.
    """
    source = match.string
    before = source[match.start() - 1] if match.start() > 0 else ""
    after = source[match.end()] if match.end() < len(source) else ""
    if not before or not after or _GAP in (before, after):
        return ""
    if _is_cjk(before) or _is_cjk(after) or before in _OPENERS or after in _CLOSERS:
        return ""
    return " "


def _is_cjk(char: str) -> bool:
    return bool(HAN.match(char)) or "\u3000" <= char <= "\u303f" or "\uff00" <= char <= "\uffef"
