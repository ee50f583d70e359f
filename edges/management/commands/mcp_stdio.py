"""``manage.py mcp_stdio --tenant T --user U``: the MCP tools over stdio, for one scope.

For a local agent client (desktop assistant, IDE agent) that starts the server itself. The scope
is fixed by whoever starts the process, so no token is asked for; stdout carries the protocol
and logs go to stderr.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from edges.management.scope_options import add_scope_arguments, scope_from_options
from edges.mcp.connection import MAX_RUN_ID, MAX_RUN_KIND, Connection
from edges.mcp.server import build_server
from memories.admission.refs import ref_problem
from memories.types import Actor, ActorKind


class Command(BaseCommand):
    help = "Serve search_user_memory and manage_user_memory over stdio for one user's memory."

    def add_arguments(self, parser: CommandParser) -> None:
        add_scope_arguments(parser)
        parser.add_argument("--run-id", default="", help="the agent run (one writer per run)")
        parser.add_argument("--run-kind", default="", help="e.g. scheduled: no writes")

    def handle(self, *args: Any, **options: Any) -> None:
        scope = scope_from_options(options)
        run_id, run_kind = options["run_id"], options["run_kind"]
        # The rule of the X-Poco-Run-Id/-Kind headers (memories.admission.refs): the run id is
        # stored as the memories' source_ref and in the run ledger, so a phone number or a
        # secret is refused here too, not just a long value.
        for option, value, limit in (
            ("--run-id", run_id, MAX_RUN_ID),
            ("--run-kind", run_kind, MAX_RUN_KIND),
        ):
            problem = ref_problem(value, max_length=limit)
            if problem is not None:
                raise CommandError(f"{option}: {problem}")
        connection = Connection(
            scope=scope,
            actor=Actor(kind=ActorKind.AGENT, id="mcp-stdio"),
            run_id=run_id,
            run_kind=run_kind,
        )
        build_server(lambda ctx: connection).run("stdio")
