"""Recompute every seat's counters from a Mason log alone and check them against its state digests.

No Mason code: only the log format (docs/log-format.md). The first ``digest`` entry (``when: start``)
gives the counters after setup's declarations; every later entry's ``changes`` (``delta`` or ``value``)
moves them; every later ``digest`` must equal the recomputed counters.

    python tests/log_digest_check.py LOG.jsonl ...     # exit 1 and a line per mismatch
"""

from __future__ import annotations

import json
import sys


def check(entries: list[dict]) -> tuple[int, list[str]]:
    """(digests checked, mismatches) for the entries of one log."""
    counters = None
    checked, problems = 0, []
    for i, e in enumerate(entries):
        if e.get("type") == "digest" and counters is None:
            counters = {k: list(v) for k, v in e["counters"].items()}
            continue
        if counters is None:
            continue
        for c in e.get("changes") or ():
            row = counters[c["counter"]]
            if "value" in c:
                row[c["seat"]] = c["value"]
            else:
                row[c["seat"]] += c["delta"]
        if e.get("type") == "digest":
            checked += 1
            if e["counters"] != counters:
                problems.append(
                    f"entry {i} (round {e.get('round')}, {e.get('when')}): digest {e['counters']} "
                    f"!= recomputed {counters}"
                )
                counters = {k: list(v) for k, v in e["counters"].items()}
    if counters is None:
        problems.append("no digest in the log")
    return checked, problems


def main(paths) -> int:
    bad = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            entries = [json.loads(line) for line in f if line.strip()]
        checked, problems = check(entries)
        for p in problems:
            print(f"{path}: {p}")
        bad += bool(problems)
        if not problems:
            print(f"{path}: {checked} digests match")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
