"""The upgrade gate: a baseline recorded before an upgrade, and a regression run against the
live service after it that decides go or no-go, with a report (``manage.py memory_gate``).

``baseline`` runs in-process through the services and selectors (it records the data's shape);
``verify`` speaks only HTTP to the running service (it checks what is deployed, not the code
beside it).
"""
