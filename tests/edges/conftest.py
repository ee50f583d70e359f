# The doors' tests share the /v1 client and its helpers with the memory core's tests.
from tests.memories.conftest import *  # noqa: F403 - pytest finds fixtures by name
