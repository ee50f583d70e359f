from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0003_entity_name_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditevent",
            name="changes",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
