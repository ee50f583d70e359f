"""What a node keeps on its own disk: every file under its data folder except PostgreSQL's."""

from __future__ import annotations

import os
from pathlib import Path


def files_holding(root: Path, text: str) -> list[Path]:
    """Files under ``root`` whose bytes contain ``text`` (UTF-8), skipping every PostgreSQL
    data directory (a folder with ``PG_VERSION``): the database is the one shared truth."""
    needle = text.encode()
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not (Path(folder, d, "PG_VERSION")).exists()]
        for name in files:
            path = Path(folder, name)
            try:
                if needle in path.read_bytes():
                    found.append(path)
            except OSError:  # a socket, or a file removed while we walk
                continue
    return found
