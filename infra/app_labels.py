"""Names in the page's language for the tables of apps the service installs but does not own
(sign-in lockout, second factor, the task queue), as the admin shows them.

Their models name themselves in English or not at all ("Procrastinate jobs"), and their Chinese
catalogs are missing. A small AppConfig subclass per app, listed in ``INSTALLED_APPS`` in place
of the app's own, sets the app's name and, once the models are loaded, the display names of
its models and fields. Only what is displayed changes: migrations read the names declared in
the app's code (``Options.original_attrs``, ``Field._verbose_name``), so no migration follows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.apps import AppConfig

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as Label
else:
    from django.utils.functional import Promise as Label

# model name → (verbose name, plural, {field name: verbose name})
Labels = dict[str, tuple[Label, Label, dict[str, Label]]]


def relabel_actions(actions: dict[str, Any], labels: dict[str, Label]) -> dict[str, Any]:
    """A ModelAdmin's actions (``get_actions``) with the descriptions ``labels`` gives."""
    return {
        name: (entry[0], entry[1], labels.get(name, entry[2])) for name, entry in actions.items()
    }


class RelabelledApp(AppConfig):
    default = False  # a base, never an app's own config
    labels: Labels = {}

    def ready(self) -> None:
        super().ready()
        for model_name, (name, plural, fields) in self.labels.items():
            opts = self.get_model(model_name)._meta
            opts.verbose_name = name
            opts.verbose_name_plural = plural
            for field_name, label in fields.items():
                opts.get_field(field_name).verbose_name = label  # type: ignore[union-attr]
