"""The served application (``make run`` runs it under uvicorn, see poco_memory/launcher.py)."""

from __future__ import annotations

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
# WhiteNoise 6.12 streams files through a synchronous iterator, which Django's ASGI handler
# consumes in a thread and warns about on every static file; the files are a few small ones.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous iterators"
)
application = get_asgi_application()
