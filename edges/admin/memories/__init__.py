"""Django admin for staff: memories, audit events and the users' memory settings.

Memories are read straight from Mem0's table (read-only models).  Nothing here writes to the
Mem0 tables with the ORM: deleting and correcting go through ``memories.services`` with a
staff actor and ``Source.ADMIN``, so entity links, Mem0 history and audit text are cleaned up
exactly as when the user does it, and failures are reported as failures.

One module per page: ``memory_rows`` (the memories), ``pages`` (correcting one, the support
page), ``actions`` (bulk delete), ``entities``, ``audit``; ``outcomes`` words every write's
result as an admin message; ``filters`` and ``staff`` are what they share.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from edges.admin.memories import audit, entities, memory_rows  # noqa: F401 - registers the pages

admin.site.site_header = _("Poco 记忆后台")
admin.site.site_title = _("Poco 记忆后台")
admin.site.index_title = _("记忆服务管理")
