import json

from django.core.management.base import BaseCommand

from games.engine import deal_layout
from games.solver import DEFAULT_MAX_NODES, DEFAULT_MAX_SECONDS, solve


class Command(BaseCommand):
    help = "Solve deal (suits, seed) with the full-information solver and print the line."

    def add_arguments(self, parser):
        parser.add_argument("--suits", type=int, choices=(1, 2, 4), required=True)
        parser.add_argument("--seed", type=int, required=True)
        parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
        parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS)
        parser.add_argument("--json", action="store_true", help="Print the result as JSON.")

    def handle(self, *args, suits, seed, max_nodes, max_seconds, json: bool = False, **options):
        result = solve(deal_layout(suits, seed), max_nodes=max_nodes, max_seconds=max_seconds)
        if json:
            self.stdout.write(_dumps(result.to_json()))
            return
        self.stdout.write(
            f"{suits}-suit seed {seed}: {result.status} "
            f"(par {result.par}, {result.nodes} nodes, {result.seconds:.2f} s)"
        )
        for i, action in enumerate(result.line, 1):
            self.stdout.write(f"{i:4d}  {_dumps(action.to_json())}")


def _dumps(value) -> str:
    return json.dumps(value)
