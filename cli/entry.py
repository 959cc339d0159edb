"""The ``mason`` console command's entry point: a Ctrl-C from the command's first moment is one line.

The commands' modules take a moment to import (a tenth of a second or more); a KeyboardInterrupt
raised while they import would end in a traceback before ``mason.cli.main.run`` could catch it. This
module imports nothing of Mason's but that, inside the handler.
"""

from __future__ import annotations

import signal
import sys


def run() -> None:
    """``mason``: ``mason.cli.main.run``, with a Ctrl-C while it is imported told in one line (exit 130)."""
    try:
        from mason.cli.main import run as main_run
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    main_run()


if __name__ == "__main__":
    run()
