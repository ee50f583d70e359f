#!/usr/bin/env python
"""Django's command-line utility; starts the embedded PostgreSQL when DATABASE_URL is unset."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    from django.core.management import execute_from_command_line

    from poco_memory import embedded_db

    # Joins a server that runs already (`make run`); stops one it started when it exits.
    embedded_db.start_if_configured()
    execute_from_command_line(sys.argv)
