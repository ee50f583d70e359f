from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from tests.oidc_provider import Provider, oidc_configured, running_provider


@pytest.fixture(scope="package")
def provider() -> Iterator[Provider]:
    with running_provider() as running:
        yield running


@pytest.fixture
def oidc_on(provider: Provider) -> Iterator[Provider]:
    with oidc_configured(provider):
        yield provider


@pytest.fixture
def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
