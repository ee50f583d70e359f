"""Request counters of the rate limits (``memories.ratelimits``), shared by every web node.

One row per (key, fixed window): the key names a service token or a scope and the kind of
request (``token:<name>:write``, ``scope:<tenant>:<user>:search``). A plain table, not a Django
model: it is only ever touched by one upsert per request and by the prune.
"""

from django.db import migrations

CREATE = """
CREATE TABLE poco_rate_windows (
    key text NOT NULL,
    window_start timestamptz NOT NULL,
    hits integer NOT NULL,
    PRIMARY KEY (key, window_start)
);
CREATE INDEX poco_rate_windows_window_start_idx ON poco_rate_windows (window_start);
"""


class Migration(migrations.Migration):
    dependencies = [("memories", "0011_entity_pinyin_readings")]

    operations = [migrations.RunSQL(CREATE, "DROP TABLE IF EXISTS poco_rate_windows")]
