"""Accents and traditional characters folded for recall: the fold functions, the simplified
spelling made from CC-CEDICT (``memories.language.script``) and the tokens and name spans built
on them (``memories.language.nlp``), without the database."""

from __future__ import annotations

import pytest

from memories.language import nlp, script
from memories.language.terms import keyword_slips, keyword_terms, typed_forms


@pytest.fixture(scope="module", autouse=True)
def prepared():
    from memories.engine import bootstrap

    bootstrap.prepare()


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("Tomás Alvarez", "Tomas Alvarez"),
        ("Charité", "Charite"),
        ("Nguyễn", "Nguyen"),
        ("Qīngniǎo", "Qingniao"),
        ("Zoë Müller", "Zoe Muller"),
    ],
)
def test_accents_are_folded(typed, folded):
    assert nlp.fold_accents(typed) == folded


@pytest.mark.parametrize("text", ["が", "한국어", "天枢项目", "ß", "plain ascii"])
def test_folding_leaves_other_marks_and_scripts_alone(text):
    # Only combining diacritical marks go: a dakuten changes the kana, Hangul recomposes.
    assert nlp.fold_accents(text) == text


def test_an_entity_name_is_compared_folded():
    assert nlp.recall_name("  Tomás   ALVAREZ ") == "tomas alvarez"
    assert nlp.normalize_name("Charité") == "charité"  # a quoted name is matched as written


@pytest.mark.parametrize(
    ("traditional", "simplified"),
    [
        ("天樞項目的負責人是誰", "天枢项目的负责人是谁"),
        ("訂單中台項目誰在管", "订单中台项目谁在管"),
        ("北斗週報什麼時候發", "北斗周报什么时候发"),
        ("以後默認用英文回答", "以后默认用英文回答"),
        # A character that is also a simplified one changes only inside the words that change it.
        ("關於乾淨的衣服", "关于干净的衣服"),
        ("他很著急", "他很着急"),
    ],
)
def test_traditional_characters_read_as_simplified(traditional, simplified):
    assert script.simplified(traditional) == simplified


@pytest.mark.parametrize(
    "text", ["天枢项目的负责人是谁", "著名的乾隆皇帝", "这个份额", "Atlas 上线"]
)
def test_simplified_text_is_left_as_it_is(text):
    assert script.simplified(text) == text


def test_the_maps_are_taken_from_the_dictionary_pairs():
    maps = script.build([("發現", "发现"), ("頭髮", "头发"), ("乾淨", "干净"), ("乾隆", "乾隆")])
    # 乾 is also a simplified character (乾隆): alone it stays, in 乾淨 it changes.
    assert maps.characters == {"發": "发", "現": "现", "頭": "头", "髮": "发", "淨": "净"}
    assert maps.words == {"乾淨": "干净"}
    assert maps.simplified("乾淨的頭髮") == "干净的头发"
    assert maps.simplified("乾隆") == "乾隆"


def test_traditional_text_is_tokenised_in_simplified_words():
    assert nlp.lemmatize_for_bm25("天樞項目的負責人是誰") == nlp.lemmatize_for_bm25(
        "天枢项目的负责人是谁"
    )
    assert "天枢" in nlp.query_tokens("天樞項目的負責人是誰")


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("User's manager is Tomás Alvarez", "tomas"),
        ("The pediatrician works at Charité.", "charite"),
        ("用户的医生在 Charité 工作", "charite"),  # jieba split it at the é: "charit", "é"
    ],
)
def test_keyword_tokens_are_folded(text, token):
    assert token in nlp.lemmatize_for_bm25(text).split()


def test_a_traditional_query_names_the_simplified_entity_and_its_own():
    grams = nlp.name_grams("天樞項目的負責人是誰")
    assert "天枢" in grams and "天樞" in grams


def test_a_query_names_an_accented_entity_without_its_accents():
    assert "charite" in nlp.name_grams("Charité")
    assert "charite" in nlp.name_grams("Charite")


def test_a_lone_name_spacy_reads_as_a_plural_matches_the_word_as_typed():
    terms = keyword_terms("Who is Tomas?")
    assert terms == [("toma",)]
    assert typed_forms(terms, "Who is Tomas?") == [("toma", "tomas")]


@pytest.mark.parametrize(
    "query", ["Kestrel launch date", "What projects am I working on?", "Who leads Kestrel?"]
)
def test_a_word_read_right_gets_no_typed_form(query):
    # "projects" and "leads" are words the dictionary knows: spaCy's lemma is the word meant.
    terms = keyword_terms(query)
    assert typed_forms(terms, query) == terms


def test_a_typed_form_leaves_a_misspelt_plural_a_slip():
    terms = keyword_terms("kestrals")
    assert keyword_slips(terms)  # read before the typed forms are added, as ``analyse`` does
