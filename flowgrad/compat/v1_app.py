"""``tf.compat.v1.app`` (TensorFlow 1's ``tf.app``): ``run`` parses the flags (unknown ones
tolerated) and calls ``main(argv)``, through absl's ``app.run`` as TensorFlow's does; and
``flags``. Needs absl-py (``pip install flowgrad[flags]``)."""
from __future__ import annotations

import sys
from collections.abc import Callable

from flowgrad.compat import v1_flags as flags

__all__ = ["flags", "run"]


def run(main: Callable | None = None, argv: list | None = None) -> None:
    """Runs the program's ``main`` with the command line left after the flags.

    Args:
      main: the function to run (``main(argv)``); the ``__main__`` module's ``main`` if None.
      argv: the command line to parse; ``sys.argv`` if None.

    Raises:
      SystemExit: always, with ``main``'s return value as the exit status (absl's app.run).
    """
    from absl import app as absl_app
    main = main or sys.modules["__main__"].main
    absl_app.run(main=main, argv=argv,
                 flags_parser=lambda args: flags.FLAGS(sys.argv if args is None else args,
                                                       known_only=True))
