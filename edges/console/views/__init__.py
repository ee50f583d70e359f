"""记忆管理: the user's memory console, server-rendered with HTMX partials.

One module per subject: ``base`` (sign-in, scope, fragments: what every view shares),
``drafts`` (typed text survives signing out), ``browse`` (overview, list, search),
``selection`` (which rows a bulk action is for), ``detail``, ``edit`` (correct, add),
``validity``, ``delete``, ``marks`` (pin, restore, review, category, the switches). Import and
export are ``edges.console.importing`` and ``edges.console.export``; how an outcome is
worded is ``edges.console.outcomes``.

Outcomes are shown as they are, so nobody mistakes a failure for success: ``partial_cleanup``
and ``backend_error`` are failures with a failure status, a search outage is "unavailable",
never "no results".
"""

from __future__ import annotations

from edges.console.views.drafts import keep_draft

__all__ = ["keep_draft"]
