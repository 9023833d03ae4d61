"""The plan compiler: a pruned subgraph compiled into one generated Python function (a
Session plan, the body of a tf.function or of a control-flow op).

It runs as passes over the graph, each in its module:

* ``graph_order``: the ops needed (pruning), the order to run them in, the feed checks;
* ``overlap``: which big kernels run on the worker thread while other work goes on;
* ``simplify``: constant folding, x * 1 and common subexpressions (asked op by op);
* ``inplace``: flowgrad's destroy handler, the updates that may write in place;
* ``emitter``: the ``Emitter`` object writing the plan's source;
* ``compiler``: the driver (``PlanCompiler.compile``), ``Plan`` and ``failing_op``.

What a pass knows of an op comes from the op's registration (``OpDef``: ``alias``,
``fresh_output``, ``may_fail``, ``inplace``, ``static_value``, ...); no pass names an op
type."""
from flowgrad.ops.subgraph import register_function_compiler
from flowgrad.runtime.plan.compiler import Plan, PlanCompiler, compile_function, failing_op
from flowgrad.runtime.plan.overlap import inter_op_parallelism

register_function_compiler(compile_function)

__all__ = ["Plan", "PlanCompiler", "compile_function", "failing_op", "inter_op_parallelism"]
