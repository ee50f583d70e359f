"""A door for existing Mem0 platform clients (``mem0ai``'s ``MemoryClient``), under ``/mem0``.

Mem0's paths, parameters and answer shapes outside; inside, every call is translated into the
``/v1`` input it means and goes through the same serializers, scope check, rate limits,
services and selectors (``edges.api``). Nothing here imports the Mem0 SDK.
"""
