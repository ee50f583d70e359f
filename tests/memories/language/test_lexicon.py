"""The Chinese–English lexicon of recall's keyword channel (memories.language.lexicon).

No database: the lexicon needs jieba's dictionary and the spaCy model, which
``memories.engine.bootstrap.prepare()`` loads (and builds the lexicon with, once per process).
The precision rules are checked on a few CC-CEDICT lines written here, in the dictionary's own
format; the bundled dictionary on named entries both ways.
"""

from __future__ import annotations

import re

import pytest

from memories.language import lexicon, nlp
from memories.language.terms import MAX_TRANSLATED_FORMS, keyword_terms

HAN_WORD = re.compile(r"^[\u3400-\u9fff]{2,}$")


@pytest.fixture(scope="module", autouse=True)
def prepared():
    from memories.engine import bootstrap

    bootstrap.prepare()


@pytest.fixture(scope="module")
def bundled() -> lexicon.Lexicon:
    return lexicon.get()


# --- the bundled dictionary, both ways ------------------------------------------------------------
@pytest.mark.parametrize(
    ("chinese", "english"),
    [("部署", "deploy"), ("缓存", "cache"), ("数据库", "database"), ("推荐", "recommendation")],
)
def test_chinese_words_translate_to_their_primary_english_senses(bundled, chinese, english):
    assert english in bundled.translations(chinese)


@pytest.mark.parametrize(
    ("english", "chinese"),
    [("deploy", "部署"), ("cache", "缓存"), ("department", "部门"), ("service", "服务")],
)
def test_english_lemmas_translate_to_common_chinese_words(bundled, english, chinese):
    assert chinese in bundled.translations(english)


@pytest.mark.parametrize("word", ["用户", "使用", "user", "use", "prefer", "哪里", "where"])
def test_generic_and_stop_words_have_no_translation(bundled, word):
    assert bundled.translations(word) == ()


def test_no_word_gets_more_than_the_cap_or_a_word_of_its_own_language(bundled):
    assert len(bundled.translations("die")) == lexicon.MAX_TRANSLATIONS  # dozens in CC-CEDICT
    for chinese, english in bundled.zh_en.items():
        assert 0 < len(english) <= lexicon.MAX_TRANSLATIONS
        assert HAN_WORD.match(chinese) and all(w.isascii() and w.isalpha() for w in english)
    for english, chinese in bundled.en_zh.items():
        assert 0 < len(chinese) <= lexicon.MAX_TRANSLATIONS
        assert english.isascii() and all(HAN_WORD.match(w) for w in chinese)


# --- the precision rules, on CC-CEDICT lines ------------------------------------------------------
def lines(*entries: str) -> list[str]:
    return ["# CC-CEDICT", "#! version=1", *entries]


def test_senses_are_cleaned_to_one_word_in_the_form_mem0_stores():
    built = lexicon.build(
        lines(
            "部署 部署 [bu4 shu3] /to dispose/to deploy/deployment/",
            "緩存 缓存 [huan3 cun2] /(computing) cache/buffer memory/",
            "數據 数据 [shu4 ju4] /data/numbers/digital/",
        )
    )
    assert built.zh_en["部署"] == ("dispose", "deploy", "deployment")
    assert built.zh_en["缓存"] == ("cache",)  # "buffer memory" is two words
    # spaCy's lemma, as lemmatize_for_bm25 stores "data": a memory's word is found as stored.
    assert nlp.lemmatize_for_bm25("data") == "datum"
    assert built.zh_en["数据"][0] == "datum"
    assert built.en_zh["deploy"] == ("部署",)


def test_only_the_first_senses_count_and_at_most_three():
    built = lexicon.build(
        lines("處理 处理 [chu3 li3] /to handle/to treat/to deal with/to process/to dispose of/")
    )
    # "deal with" is a sense of its own (two words): the third sense, so "process" never counts.
    assert built.zh_en["处理"] == ("handle", "treat")


def test_names_cross_references_marked_senses_and_generic_words_are_skipped():
    built = lexicon.build(
        lines(
            "北京 北京 [Bei3 jing1] /Beijing/capital/",  # capitalised pinyin: a place name
            "佈署 布署 [bu4 shu3] /variant of 部署[bu4 shu3]/deploy/",
            "幾號 几号 [ji3 hao4] /(slang) heroin/",
            "光明 光明 [guang1 ming2] /(fig.) bright/light/",
            "用戶 用户 [yong4 hu4] /user/consumer/subscriber/",  # a generic query word
            "團隊 团队 [tuan2 dui4] /team/",  # its only sense is generic
            "甲骨文 甲骨文 [jia3 gu3 wen2] /oracle script/",  # no one-word sense
        )
    )
    assert set(built.zh_en) == {"光明"}
    assert built.zh_en["光明"] == ("light",)
    assert "beijing" not in built.en_zh and "heroin" not in built.en_zh
    assert "bright" not in built.en_zh


def test_english_words_get_the_most_common_chinese_words_a_later_sense_counting_less():
    built = lexicon.build(
        lines(
            "服務 服务 [fu2 wu4] /to serve/service/CL:項|项[xiang4]/",
            "勞務 劳务 [lao2 wu4] /service/labor/",
            "勤務 勤务 [qin2 wu4] /service/duty/",
            "乘務 乘务 [cheng2 wu4] /service/",
            "業務 业务 [ye4 wu4] /business/professional work/service/",
        )
    )
    # 服务 is a far more common word than 劳务 even at half weight; the cap keeps three.
    assert built.en_zh["service"][0] == "服务"
    assert len(built.en_zh["service"]) == lexicon.MAX_TRANSLATIONS
    assert "乘务" not in built.en_zh["service"]  # the rarest word is left out


# --- the keyword channel's terms ------------------------------------------------------------------
def test_a_query_term_gets_its_translations_as_forms_of_the_same_term():
    terms = keyword_terms("服务部署在哪里")
    deploy = next(t for t in terms if t[0] == "部署")
    assert "deploy" in deploy
    # 哪里 is a question word, no term at all (as "where" is a stop word).
    assert [t[0] for t in terms] == ["服务", "部署"]


def test_a_word_beside_its_translation_counts_once():
    assert keyword_terms("部署 deploy") == [keyword_terms("部署")[0]]


def test_attribute_groups_keep_their_own_forms():
    terms = keyword_terms("Who is responsible for the recommendation rebuild?")
    responsible = next(t for t in terms if t[0] == "responsible")
    assert set(responsible) == next(g for g in nlp.ATTRIBUTE_WORDS if "responsible" in g)
    recommendation = next(t for t in terms if t[0] == "recommendation")
    assert "推荐" in recommendation


def test_translations_per_query_are_bounded():
    query = "部署 缓存 数据库 推荐 服务 工具 世界 天气 菜谱 项目 部门 重构 控制 死亡 光明 原因"
    terms = keyword_terms(query)
    assert {"部署", "原因"} <= {t[0] for t in terms}  # every term stays, with or without forms
    extra = sum(len(t) - 1 for t in terms)
    assert extra == MAX_TRANSLATED_FORMS


# --- the cache of the warm-up -----------------------------------------------------------------
def test_the_warm_up_builds_once_per_data_directory_and_reads_it_back(tmp_path, monkeypatch):
    small = lexicon.build(lines("部署 部署 [bu4 shu3] /to dispose/to deploy/deployment/"))
    monkeypatch.setattr(lexicon, "build", lambda _lines: small)
    assert lexicon._load_or_build(tmp_path) == small
    (stored,) = tmp_path.glob("lexicon-*.json")

    def no_build(_lines):
        raise AssertionError("built again although the cache holds it")

    monkeypatch.setattr(lexicon, "build", no_build)
    assert lexicon._load_or_build(tmp_path) == small

    stored.write_text("{not json", encoding="utf-8")  # a torn or foreign file is rebuilt
    monkeypatch.setattr(lexicon, "build", lambda _lines: small)
    assert lexicon._load_or_build(tmp_path) == small
    assert [p.name for p in tmp_path.iterdir()] == [stored.name]


def test_a_data_directory_that_cannot_be_written_still_gets_the_lexicon(tmp_path, monkeypatch):
    small = lexicon.build(lines("部署 部署 [bu4 shu3] /to dispose/to deploy/deployment/"))
    monkeypatch.setattr(lexicon, "build", lambda _lines: small)
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")  # the cache folder cannot be made under a file
    assert lexicon._load_or_build(blocked / "lexicon") == small


def test_each_word_pair_is_framed_as_a_memory_and_a_question_in_both_languages():
    words = [("开车", "drive a car"), ("电脑", "computer"), ("学习", "learn")]
    framed = lexicon.parallel_sentences(words)
    assert len(framed.memories) == len(framed.questions) == len(words)
    for (chinese, english), memory, question in zip(
        words, framed.memories, framed.questions, strict=True
    ):
        for zh, en in (memory, question):
            assert chinese in zh and english in en and zh != chinese and en != english
        assert question[0].endswith("？") and question[1].endswith("?")
    # A verb gets a verb's frame, a noun a noun's, chosen by a checksum: the same on every machine.
    assert framed.memories[0] == ("用户打算开车。", "The user plans to drive a car.")
    assert framed.questions[1] == ("我的电脑是什么？", "What is my computer?")
    assert lexicon.parallel_sentences(words) == framed
