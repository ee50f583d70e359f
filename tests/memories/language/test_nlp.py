"""The language routing Mem0 uses for keywords and entities, and the offline fact extractor.

No database: ``memories.engine.bootstrap.prepare()`` only needs Django settings.  What it holds
to: quote normalisation, quoted Chinese names, no sentence-like pseudo names, and the
extraction rules: stable facts in the user's language; no one-off requests, runtime snapshots
or assistant suggestions.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from memories.language import nlp, pinyin
from memories.language.terms import keyword_terms

SEED_EXAMPLE = "后续给我的技术方案都使用简体中文，优先考虑易维护性；项目叫“Poco”。"
ZH_STOPWORDS_SEEN = {"的", "了", "我", "给", "都", "和", "是", "在", "这个", "我们"}


@pytest.fixture(scope="module", autouse=True)
def prepared():
    from memories.engine import bootstrap

    bootstrap.prepare()


def entity_texts(text: str) -> list[str]:
    return [value for _, value in nlp.extract_entities(text)]


# --- pinyin of Chinese names (recall's entity channel) --------------------------------------------
@pytest.mark.parametrize(
    ("name", "key"),
    [("青鸟", "qingniao"), ("王磊", "wanglei"), ("长城", "changcheng"), ("重庆", "chongqing")],
)
def test_all_han_names_get_their_toneless_pinyin_likeliest_first(name, key):
    assert pinyin.pinyin_readings(name)[0] == key


@pytest.mark.parametrize(("name", "reading"), [("太行", "taihang"), ("曾琳", "zenglin")])
def test_every_reading_of_a_character_read_several_ways_counts(name, reading):
    readings = pinyin.pinyin_readings(name)
    assert reading in readings and reading != readings[0]


def test_a_name_has_at_most_so_many_readings():
    readings = pinyin.pinyin_readings("乐乐乐乐")  # le / yue for each character; jieba: 乐乐 乐乐
    whole = readings[: pinyin.MAX_PINYIN_READINGS]
    assert len(readings) == len(set(readings))
    assert [r for r in readings if len(r) >= len("lelelele")] == whole
    assert len(readings) - len(whole) <= pinyin.MAX_PINYIN_READINGS  # its one word, 乐乐


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("项目青鸟", ["qingniao", "xiangmu"]),
        ("系统天枢上线", ["tianshu"]),
        ("欧阳娜娜", ["ouyang"]),
    ],
)
def test_a_name_of_several_words_also_reads_as_each_word(name, words):
    # jieba's noun runs join a name to the noun before it: "Qingniao" names 项目青鸟.
    readings = pinyin.pinyin_readings(name)
    whole = "".join(pinyin.pinyin_readings(word)[0] for word in pinyin.name_words(name))
    assert readings[0] == whole  # the whole name first
    assert set(words) <= set(readings)


@pytest.mark.parametrize("name", ["青鸟", "王磊", "太行", "乌龙茶"])
def test_a_name_of_one_word_reads_only_as_a_whole(name):
    readings = pinyin.pinyin_readings(name)
    assert pinyin.name_words(name) == [name]
    assert len(readings) <= pinyin.MAX_PINYIN_READINGS


@pytest.mark.parametrize("name", ["Atlas", "鸟", "Atlas 青鸟", "青鸟2", ""])
def test_other_names_get_no_pinyin(name):
    assert pinyin.pinyin_readings(name) == []


def test_runs_of_latin_words_are_pinyin_candidates():
    grams = pinyin.pinyin_grams("Who owns Qing Niao, v2?")
    assert "qingniao" in grams and "owns" in grams
    assert not any("v2" in g for g in grams)
    assert pinyin.pinyin_grams("青鸟的负责人") == []


def test_an_attribute_counts_once_with_every_word_of_its_group():
    terms = keyword_terms("Orion 的负责人 owner 是谁")
    assert terms[0] == ("orion",)
    assert len(terms) == 2 and {"owner", "lead", "负责人"} <= set(terms[1])
    assert not any(t[0] == "责人" for t in terms)  # jieba's piece of 负责人 is not a term


@pytest.mark.parametrize(
    ("query", "words", "acronym"),
    [
        ("How big may a pull request be?", ("pull", "request"), "pr"),
        ("这个 merge request 谁来审", ("merge", "request"), "mr"),
        ("What are the objectives and key results for Q3?", ("objective", "key", "result"), "okr"),
        ("Who owns the user interface?", ("interface",), "ui"),
    ],
    ids=["en", "in-chinese", "stop-word-inside", "generic-word-inside"],
)
def test_a_spelt_out_acronym_is_matched_by_the_acronym_too(query, words, acronym):
    terms = {forms[0]: forms for forms in keyword_terms(query)}
    for word in words:
        assert acronym in terms[word], (word, terms[word])
    assert not any(acronym == forms[0] for forms in terms.values())  # no term of its own


def test_initials_of_neighbouring_words_are_no_acronym_unless_it_is_a_known_one():
    # "chat tool" spells "ct", which a memory may hold (a CT scan): only known acronyms count.
    assert all(len(forms) == 1 or "ct" not in forms for forms in keyword_terms("chat tool"))
    # the words of a spelling, but not one after the other
    assert all("pr" not in forms for forms in keyword_terms("I pull data on request"))


# --- quotes and quoted names -------------------------------------------------------------------
def test_curly_and_corner_quotes_become_ascii_double_quotes():
    assert nlp.normalize_quotes("项目叫“Poco”，对接人「林清」") == '项目叫"Poco"，对接人"林清"'
    assert nlp.normalize_quotes('already "ascii"') == 'already "ascii"'


@pytest.mark.parametrize(
    "text",
    [
        "需求对接人是“林清”，团队沟通用“飞书”。",
        '需求对接人是"林清"，团队沟通用"飞书"。',
        "需求对接人是「林清」，团队沟通用「飞书」。",
    ],
    ids=["curly", "ascii", "corner"],
)
def test_quoted_chinese_names_of_two_or_more_han_become_entities(text):
    entities = nlp.extract_entities(text)
    assert ("QUOTED", "林清") in entities
    assert ("QUOTED", "飞书") in entities


def test_quoted_latin_project_name_becomes_an_entity():
    assert ("QUOTED", "Poco") in nlp.extract_entities(SEED_EXAMPLE)


@pytest.mark.parametrize(
    "text, sentence",
    [
        ("他说“以后所有报告统一使用HTML格式”。", "以后所有报告统一使用HTML格式"),
        ("用户说过“以后报告用飞书发”。", "以后报告用飞书发"),
        ("系统提示“用户长期偏好通过”。", "用户长期偏好通过"),
        ("备注：“我们周三开会”", "我们周三开会"),
        ("她说“好的，就这样”。", "好的，就这样"),
    ],
)
def test_quoted_sentences_are_not_entities(text, sentence):
    assert sentence not in entity_texts(text)
    assert all(kind != "QUOTED" for kind, _ in nlp.extract_entities(text))


@pytest.mark.parametrize("text", ["对接人姓“林”。", "用“是”回答。", "标题写“新”字。"])
def test_single_han_quotes_are_not_entities(text):
    assert all(kind != "QUOTED" for kind, _ in nlp.extract_entities(text))
    assert "林" not in entity_texts(text)


def test_entities_are_unique_case_insensitively():
    values = [v.lower() for v in entity_texts("项目叫“Poco”，poco 项目用“飞书”，“飞书”群。")]
    assert len(values) == len(set(values))


# --- keywords for BM25 -------------------------------------------------------------------------
def test_chinese_keywords_are_jieba_tokens_without_stopwords_or_punctuation():
    keywords = nlp.lemmatize_for_bm25(SEED_EXAMPLE)
    tokens = keywords.split(" ")
    assert all(tokens), keywords  # single spaces, no empty tokens
    assert {"技术方案", "简体中文", "易维护性", "poco", "项目"} <= set(tokens)
    assert not set(tokens) & ZH_STOPWORDS_SEEN
    assert not any(ch in keywords for ch in '，。；：“”"!?！？')
    assert all(len(t) > 1 for t in tokens if nlp.has_han(t))  # single Han chars are noise


def test_chinese_keywords_lower_case_ascii_words():
    tokens = nlp.lemmatize_for_bm25("后端用 Django 和 PostgreSQL，前端用 HTMX").split()
    assert {"django", "postgresql", "htmx"} <= set(tokens)
    assert not any(t != t.lower() for t in tokens)


def test_english_keywords_go_through_spacy_lemmas():
    tokens = nlp.lemmatize_for_bm25("The memories were stored in PostgreSQL databases").split()
    assert "memory" in tokens and "memories" not in tokens
    assert "database" in tokens
    assert "the" not in tokens and "were" not in tokens


@pytest.mark.parametrize(
    ("text", "word"),
    [("When is Kestrel due?", "due"), ("Who will own the rollout?", "own")],
)
def test_attribute_words_that_spacy_calls_stop_words_are_kept(text, word):
    """spaCy lists "due" and "own" as stop words, so Mem0's lemmas dropped them and "When is
    Kestrel due?" asked only for "kestrel": an attribute word is what the question asks."""
    assert word in nlp.lemmatize_for_bm25(text).split()
    assert "is" not in nlp.lemmatize_for_bm25(text).split()


@pytest.mark.parametrize(
    ("text", "dropped", "kept"),
    [
        ("How much traffic goes to a canary release first?", "go", "canary"),
        ("The user took the metro and gave a talk", "take", "metro"),
        ("What is the app going to be called?", "going", "app"),
    ],
)
def test_a_light_verb_is_no_keyword_however_it_is_inflected(text, dropped, kept):
    """spaCy's stop list holds "go" and "take" as written, not "goes" or "took": "goes" was a
    term no memory holds, which weighed as much as the rarest word and held "How much traffic
    goes to a canary release first?" under the keyword channel's half."""
    tokens = nlp.lemmatize_for_bm25(text).split()
    assert dropped not in tokens
    assert kept in tokens


def test_other_verbs_and_go_the_language_stay_keywords():
    # spaCy also lists "move" and "call"; "moving" is what a move asks about.
    assert "move" in nlp.lemmatize_for_bm25("Sam is moving to Rotterdam").split()
    assert "go" in nlp.query_terms("用户最喜欢的编程语言是 Go")


def test_the_words_of_a_work_phrasing_are_kept_even_when_spacy_drops_them_alone():
    """To spaCy "on call" is two stop words: "User is on call every fourth week." stored "user
    fourth week", and 值班's phrasing "on call" had no form to match."""
    assert "on call" in nlp.lemmatize_for_bm25("User is on call every fourth week.")
    assert "on call" in nlp.spelt_phrases()["值班"]
    # Alone, the words stay stop words.
    assert "call" not in nlp.lemmatize_for_bm25("Call me tomorrow").split()


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("我多久值一次班", "值班"),
        ("用户每周游两次泳", "游泳"),
        ("我上个月请了三天假", "请假"),
        ("用户每天洗一次澡", "洗澡"),
    ],
)
def test_a_separable_verb_split_by_a_count_is_also_the_whole_word(text, word):
    """A Chinese verb-object word takes a count or an aspect inside it (值一次班, 请了三天假):
    jieba cuts 值 / 一次 / 班, and single characters are no keywords, so the verb was lost."""
    assert word in nlp.lemmatize_for_bm25(text).split()


def test_a_count_between_a_verb_and_a_longer_object_joins_nothing():
    tokens = nlp.lemmatize_for_bm25("我吃了三个苹果").split()
    assert "苹果" in tokens
    assert not any(token.startswith("吃") for token in tokens)


def test_keywords_of_a_query_match_the_keywords_of_the_fact():
    """What makes "Poco 项目的技术方案" find the seed example by keyword."""
    query = set(nlp.lemmatize_for_bm25("Poco 项目的技术方案").split())
    fact = set(nlp.lemmatize_for_bm25(SEED_EXAMPLE).split())
    assert {"poco", "项目", "技术方案"} <= query & fact


# --- entities, batch and routing ---------------------------------------------------------------
def test_english_entities_come_from_mem0s_spacy_extraction():
    from mem0.utils import entity_extraction

    text = "Alice works with Bob at Google in London."
    assert nlp.extract_entities(text) == entity_extraction.extract_entities(text)
    assert {"Alice", "Bob", "London"} <= set(entity_texts(text))
    assert nlp.extract_entities("He chose “Poco”.") == entity_extraction.extract_entities(
        'He chose "Poco".'
    )


def test_batch_entities_keep_the_order_of_mixed_chinese_and_english_texts():
    texts = [
        "需求对接人是“林清”。",
        "Alice works at Google in London.",
        SEED_EXAMPLE,
        "Bob deploys Django on Kubernetes.",
        "团队沟通用“飞书”。",
        "",
    ]
    batch = nlp.extract_entities_batch(texts)
    assert len(batch) == len(texts)
    assert batch == [nlp.extract_entities(t) for t in texts]
    assert ("QUOTED", "林清") in batch[0]
    assert "Google" in {v for _, v in batch[1]}
    assert ("QUOTED", "Poco") in batch[2]
    assert "Bob" in {v for _, v in batch[3]}
    assert ("QUOTED", "飞书") in batch[4]
    assert batch[5] == []


def test_mem0_calls_our_routing_functions():
    from mem0.memory import main as mem0_main

    assert mem0_main.lemmatize_for_bm25 is nlp.lemmatize_for_bm25
    assert mem0_main.extract_entities is nlp.extract_entities
    assert mem0_main.extract_entities_batch is nlp.extract_entities_batch


def test_spacy_models_are_preloaded_and_never_downloaded(monkeypatch):
    import spacy.cli
    from mem0.utils import spacy_models

    from memories.engine import bootstrap

    original = "mem0.utils.spacy_models"
    assert spacy_models._ensure_model_available.__module__ == bootstrap.__name__
    assert spacy_models._ensure_model_available.__module__ != original
    assert spacy_models._nlp_full is not None
    assert spacy_models._nlp_lemma is not None
    assert not spacy_models._load_failed_full and not spacy_models._load_failed_lemma

    def no_download(*args, **kwargs):
        raise AssertionError(f"spaCy download attempted: {args}")

    monkeypatch.setattr(spacy.cli, "download", no_download)
    monkeypatch.setattr(spacy.util, "is_package", lambda name: False)  # "model missing"
    assert spacy_models._ensure_model_available() is None
    assert spacy_models.get_nlp_full() is spacy_models._nlp_full
    assert spacy_models.get_nlp_lemma() is spacy_models._nlp_lemma
    assert nlp.lemmatize_for_bm25("memories") == "memory"
    assert "London" in entity_texts("Alice lives in London.")


def test_prepare_twice_keeps_the_same_models():
    from mem0.utils import spacy_models

    from memories.engine import bootstrap

    full, lemma = spacy_models._nlp_full, spacy_models._nlp_lemma
    bootstrap.prepare()
    assert spacy_models._nlp_full is full and spacy_models._nlp_lemma is lemma


def test_telemetry_is_off_once_django_has_started_even_if_mem0_is_imported_first():
    """Mem0 reads MEM0_TELEMETRY/MEM0_DIR once, when it is first imported; the app sets them when
    Django starts, so in a fresh interpreter that imports Mem0 itself right after
    ``django.setup()`` (before any module of ours), telemetry is off and Mem0's folder is ours."""
    script = (
        "import json, django; django.setup()\n"
        "from mem0.memory import setup, telemetry\n"
        "print(json.dumps({'telemetry': telemetry.MEM0_TELEMETRY,"
        " 'mem0_dir': str(setup.mem0_dir)}))\n"
    )
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "poco_memory.settings", "PYTHONPATH": str(root)}
    env.pop("MEM0_TELEMETRY", None)
    env.pop("MEM0_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    state = json.loads(done.stdout.strip().splitlines()[-1])
    assert state == {"telemetry": False, "mem0_dir": str(settings.MEM0_DIR)}


# --- the offline rules extractor ---------------------------------------------------------------
def extract(*messages: tuple[str, str]) -> list[dict[str, str]]:
    """Ask RulesExtractorLLM exactly as Mem0 2.2.1 does: its additive prompt, our rules."""
    from mem0.configs.prompts import ADDITIVE_EXTRACTION_PROMPT, generate_additive_extraction_prompt
    from mem0.memory.utils import parse_messages

    from memories.engine.extractor import EXTRACTION_RULES, RulesExtractorLLM

    prompt = generate_additive_extraction_prompt(
        existing_memories=[],
        new_messages=parse_messages([{"role": r, "content": c} for r, c in messages]),
        last_k_messages=[],
        custom_instructions=EXTRACTION_RULES,
    )
    answer = RulesExtractorLLM().generate_response(
        messages=[
            {"role": "system", "content": ADDITIVE_EXTRACTION_PROMPT},
            {"role": "user", "content": prompt},
        ],
        response_format={"type": "json_object"},
    )
    facts = json.loads(answer)["memory"]
    assert [f["id"] for f in facts] == [str(i) for i in range(len(facts))]
    assert all(f["attributed_to"] in ("user", "assistant") for f in facts)
    return facts


def test_stable_chinese_preference_is_kept_in_chinese():
    facts = extract(("user", SEED_EXAMPLE))
    texts = [f["text"] for f in facts]
    assert any("简体中文" in t and "技术方案" in t for t in texts), texts
    assert any("Poco" in t for t in texts), texts  # the spelling survives
    assert all(nlp.has_han(t) for t in texts)  # never translated
    assert all(f["attributed_to"] == "user" for f in facts)
    assert not any(t.endswith(("；", ";", "，", ",")) for t in texts), texts


def test_first_person_becomes_the_user():
    facts = extract(("user", "我是后端工程师，负责支付系统。"))
    assert [f["text"] for f in facts] == ["用户是后端工程师，负责支付系统。"]


@pytest.mark.parametrize(
    "request_text",
    [
        "这次生成 HTML 报告",
        "本次先用英文写",
        "今天帮我把周报发给林清",
        "Today please write the report in HTML.",
        "This time, answer in English.",
        "Please send the summary to Bob tomorrow.",
    ],
)
def test_one_off_requests_are_dropped(request_text):
    assert extract(("user", request_text)) == []


def test_only_the_durable_sentence_of_a_mixed_message_is_kept():
    facts = extract(("user", "这次生成 HTML 报告。以后所有报告统一使用 HTML。"))
    assert [f["text"] for f in facts] == ["以后所有报告统一使用 HTML。"]


@pytest.mark.parametrize(
    "snapshot",
    [
        "当前可用的工具有浏览器、终端和飞书插件。",
        "现在可以用的模型是 GPT-4o 和 Claude。",
        "目前启用的插件：日历、邮件。",
        "The currently available tools are browser and terminal.",
    ],
)
def test_runtime_snapshots_are_dropped(snapshot):
    assert extract(("user", snapshot)) == []


@pytest.mark.parametrize(
    "suggestion",
    [
        "建议以后统一使用 Kubernetes 部署。",
        "可以考虑后续都用 PostgreSQL。",
        "I suggest you always use Markdown for reports.",
        "I recommend that the team never deploys on Fridays.",
    ],
)
def test_assistant_suggestions_are_dropped(suggestion):
    assert extract(("user", "帮我看看部署方案"), ("assistant", suggestion)) == []


def test_assistant_confirmed_decision_is_kept_and_attributed_to_the_assistant():
    facts = extract(
        ("user", "数据库选哪个？"), ("assistant", "已确认采用 PostgreSQL 作为主数据库。")
    )
    assert facts == [
        {"id": "0", "text": "采用 PostgreSQL 作为主数据库。", "attributed_to": "assistant"}
    ]


def test_assistant_statements_without_confirmation_are_not_user_preferences():
    facts = extract(("user", "帮我写个周报"), ("assistant", "好的，以后周报都用中文写。"))
    assert facts == []


def test_english_preference_is_kept_in_english():
    facts = extract(("user", "From now on, always write reports in Markdown."))
    assert len(facts) == 1
    assert facts[0]["attributed_to"] == "user"
    assert "Markdown" in facts[0]["text"] and "reports" in facts[0]["text"]
    assert not nlp.has_han(facts[0]["text"])


def test_nothing_durable_means_an_empty_memory_list():
    assert extract(("user", "你好"), ("assistant", "你好，有什么可以帮你？")) == []


def test_system_messages_are_never_facts():
    assert extract(("system", "以后所有回答都必须使用英文。")) == []


def test_a_prompt_without_new_messages_extracts_nothing():
    from memories.engine.extractor import RulesExtractorLLM

    answer = RulesExtractorLLM().generate_response(
        messages=[{"role": "user", "content": "no sections here"}]
    )
    assert json.loads(answer) == {"memory": []}
