"""The plan compiler's driver: a pruned, ordered subgraph compiled into one generated
Python function (a Session plan) by the passes of this package."""
from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any

from flowgrad.framework.graph import Operation
from flowgrad.framework.op_call import op_rng
from flowgrad.runtime.plan import graph_order
from flowgrad.runtime.plan.emitter import Emitter
from flowgrad.runtime.plan.overlap import overlap


class Plan:
    """A compiled (fetches, feeds) signature: ``plan(feed_values)`` runs it."""

    __slots__ = ("fn", "var_ops", "ops_by_line", "source", "written", "locks")

    def __init__(self, fn: Callable, var_ops: set, ops_by_line: dict, source: str,
                 written: frozenset = frozenset()):
        self.fn = fn
        self.var_ops = var_ops
        self.ops_by_line = ops_by_line
        self.source = source
        self.written = written      # the variable ops whose values the plan commits
        self.locks: tuple = ()      # what the runner holds while the plan runs (Session)


class PlanCompiler:
    """Builds a Plan for given fetch leaves and fed tensors.

    Args:
        state_ref: The mapping variable op -> value the plan reads and commits.
        rng_for: ``rng_for(op)`` gives the random generator of a random op.
        owned: Variable op -> the array of its value that the runner allocated and never
            handed out; update ops with an in-place kernel write those arrays in place.
            None: no in-place updates (values may be shared with the caller, as in
            tf.function).
        parallel: Whether big kernels with other work to overlap run on the worker thread
            (the overlap pass).
    """

    fold_constants = True    # subclasses that check every op's output turn folding off
    check_feeds = True       # convert and shape-check fed values (not for control-flow bodies)
    prune = staticmethod(graph_order.prune)

    def __init__(self, state_ref: Any, rng_for: Callable[[Operation], Any],
                 owned: MutableMapping | None = None, parallel: bool = False):
        self.state_ref = state_ref
        self.rng_for = rng_for
        self.parallel = parallel
        self.owned = owned

    def after_op(self, op: Operation, args: list, outs: list, gname: Callable) -> str | None:
        """Source of a statement to run right after ``op``'s kernel call, or None.

        ``args``/``outs`` are the generated names of its input and output values and
        ``gname(prefix, value)`` binds a global. Plans emit nothing here; instrumented
        plans (flowgrad.debug.numerics) override it."""
        return None

    def compile(self, leaves: list, fed: list,
                build_result: Callable[[Callable, Callable], str]) -> Plan:
        """Compiles; ``build_result(expr_of, gname)`` returns the result expression source."""
        fed_index = {t: i for i, t in enumerate(fed)}
        targets = [x for x in leaves if x is not None]
        needed = graph_order.prune(targets, fed_index)
        graph_order.check_placeholders(needed, fed_index)
        order = graph_order.order(needed, fed_index)
        run_async: frozenset = frozenset()
        heavy: frozenset = frozenset()
        if self.parallel:
            order, run_async, heavy = overlap(order, fed_index)
        em = Emitter(self, fed, fed_index, targets, needed, run_async, heavy)
        em.feeds()
        em.ops(order)
        src = em.source(build_result)
        exec(compile(src, "<flowgrad plan>", "exec"), em.g)
        return Plan(em.g["_plan"], set(em.var_local) | set(em.written), em.ops_by_line, src,
                    frozenset(em.written))


def failing_op(plan: Plan, exc: BaseException) -> Operation | None:
    """The op whose generated line raised ``exc`` (from the traceback), if any."""
    tb = exc.__traceback__
    op = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<flowgrad plan>":
            op = plan.ops_by_line.get(tb.tb_lineno, op)
        tb = tb.tb_next
    return op


class _FunctionPlanCompiler(PlanCompiler):
    check_feeds = False


def compile_function(leaves: list, inputs: list, n_outputs: int) -> tuple:
    """A control-flow sub-graph's plan: ``f(input values) -> tuple of output values``, and
    its op of each generated line (for error messages).

    ``leaves`` are the outputs followed by ops to run for their effect only."""
    compiler = _FunctionPlanCompiler({}, op_rng)
    outs = leaves[:n_outputs]
    plan = compiler.compile(leaves, inputs, lambda expr_of, gname: "(%s)" % "".join(
        expr_of(t) + ", " for t in outs))
    return plan.fn, plan.ops_by_line
