"""`python manage.py train_secret_head`: admission's secret head from the shipped labelled set.

Deterministic (Newton's method from zero, fixed split), so running it again on the same set
writes the same weights (``memories/admission/secret_head.npz``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from memories.admission.meaning import HEAD_PATH
from memories.admission.secret_set import load_set, train_head


class Command(BaseCommand):
    help = "Train the secret head of admission on memories/admission/data/secrets.jsonl."

    def handle(self, *args: Any, **options: Any) -> None:
        head = train_head(load_set())
        head.save(HEAD_PATH)
        self.stdout.write(
            f"wrote {HEAD_PATH.name}: threshold {head.threshold:.4f} "
            f"({head.meta['fit_rows']} fit rows, {head.meta['dev_rows']} dev rows)"
        )
