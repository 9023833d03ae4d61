"""The per-op timings of a traced ``Session.run`` (``options=RunOptions(trace_level=
FULL_TRACE)``): a plan is one generated Python function whose lines are its ops' kernel calls
(``Plan.ops_by_line``), and a traced run times each line with ``sys.settrace``.
``flowgrad.debug.timeline`` writes them into ``run_metadata.step_stats``."""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any


def traced(run: Callable[[], Any], code: Any, ops_by_line: dict) -> tuple:
    """Calls ``run()`` timing each line of the frames of ``code`` (the plan's function).

    Args:
        run: Runs the plan.
        code: The code object of the plan's function.
        ops_by_line: Its line number -> op map.

    Returns:
        ``(result, records)``: ``run()``'s result and ``(op, start_ns, end_ns)`` per op line
        executed, in order.
    """
    records: list = []
    current: list = [None, 0]

    def close(now: int) -> None:
        if current[0] is not None:
            records.append((current[0], current[1], now))
            current[0] = None

    def local(frame: Any, event: str, arg: Any) -> Callable:
        now = time.time_ns()
        close(now)
        if event == "line":
            op = ops_by_line.get(frame.f_lineno)
            if op is not None:
                current[0], current[1] = op, now
        return local

    def calls(frame: Any, event: str, arg: Any) -> Callable | None:
        return local if frame.f_code is code else None

    previous = sys.gettrace()
    sys.settrace(calls)
    try:
        result = run()
    finally:
        sys.settrace(previous)
        close(time.time_ns())
    return result, records


__all__ = ["traced"]
