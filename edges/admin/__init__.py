"""Django admin for staff. Autodiscovery imports this module; the admin of each app's models is
a module here (the sign-in app keeps its own, ``accounts.admin``)."""

from __future__ import annotations

from edges.admin import lifecycle, memories

__all__ = ["lifecycle", "memories"]
