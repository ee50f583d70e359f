"""The doors: every way in to the memories (``/v1``, the user API, ``/mem0``, MCP, the console,
the admin, the operator commands and the upgrade gate), and the health, metrics and error views.
Each door parses its input with ``edges.contract``, calls lifecycle or the memory core's services
and selectors, and renders the result; docs/architecture.md draws it."""
