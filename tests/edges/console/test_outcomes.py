"""The console words a refusal from one table; admission's reasons in the one wording of
``memories.labels``, as staff read them in the admin."""

from __future__ import annotations

from edges.console.outcomes import REFUSED_DEFAULT, Action, outage_text, refusal_text
from memories import services
from memories.labels import REJECTION_LABELS, rejection_label


def test_admissions_reasons_are_worded_by_the_labels():
    for code in REJECTION_LABELS:
        assert rejection_label(code) in refusal_text(code)


def test_a_services_refusal_names_its_limit_and_an_unknown_one_says_it_cannot_be_saved():
    assert f"最多只能把 {services.MAX_PINS} 条记忆" in refusal_text(services.PIN_LIMIT)
    assert refusal_text("something_new") == str(REFUSED_DEFAULT) == refusal_text(None)


def test_every_action_says_what_an_outage_left_unchanged():
    for action in Action:
        assert "暂时不可用" in outage_text(action)
