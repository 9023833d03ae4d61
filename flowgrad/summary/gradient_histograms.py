"""``histogram_gradients``: one histogram per gradient of a grads_and_vars list, with None
gradients logged as such (a text entry naming them, and why if the loss is given)."""
from __future__ import annotations

from typing import Any

from flowgrad.framework.context import executing_eagerly
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.summary import write_ops
from collections.abc import Sequence


def _var_name(v: Any) -> str:
    name = getattr(getattr(v, "op", None), "name", None) or getattr(v, "name", None) or str(v)
    return name[:-2] if name.endswith(":0") else name


def _none_report(names: list, none_vars: list, loss: Any) -> str:
    lines = ["No gradient (None) for %d variable(s): %s." % (len(names), ", ".join(names))]
    if loss is not None and not executing_eagerly():
        from flowgrad.debug.explain import explain_no_gradients
        lines.append(explain_no_gradients(loss, none_vars))
    elif loss is None:
        lines.append("Pass loss= to histogram_gradients, or call flowgrad.explain_gradient(loss, "
                     "variables), to see why.")
    return "\n".join(lines)


def histogram_gradients(grads_and_vars: Any, name: str = "gradients", loss: Any = None,
                        step: Any = None, collections: Sequence[str] | None = None) -> Any:
    """Logs a histogram of each gradient as '<name>/<variable>'; None gradients do not
    crash but are listed in a text summary '<name>/none_gradients'.

    Graph mode: returns one merged summary op (run it and pass the result to
    ``FileWriter.add_summary``), or None if there is nothing to log; the single
    summaries also join ``collections`` (default: the SUMMARIES collection). Eager
    mode: writes to the default writer at ``step`` and returns whether it wrote.

    Args:
        grads_and_vars: A list of (gradient, variable) pairs, as ``compute_gradients`` returns.
        name: The prefix of the summaries' tags.
        loss: Accepted for the call sites that pass the loss; unused.
        step: The step of an eager write; the default step when None.
        collections: The graph collections the summaries join; SUMMARIES when None.
    """
    pairs = list(grads_and_vars)
    none_vars = [v for g, v in pairs if g is None]
    none_names = [_var_name(v) for v in none_vars]
    report = _none_report(none_names, none_vars, loss) if none_vars else None
    values = [(("%s/%s" % (name, _var_name(v))),
               g.values if isinstance(g, IndexedSlices) else g) for g, v in pairs
              if g is not None]
    if executing_eagerly():
        wrote = [write_ops.histogram(tag, g, step=step) for tag, g in values]
        if report is not None:
            wrote.append(write_ops.text("%s/none_gradients" % name, report, step=step))
        return any(wrote)
    from flowgrad.framework.tensor import constant
    from flowgrad.summary import summary_ops
    ops = [summary_ops.histogram(tag, g, collections=collections) for tag, g in values]
    if report is not None:
        ops.append(summary_ops.text("%s/none_gradients" % name, constant(report),
                                    collections=collections))
    return summary_ops.merge(ops) if ops else None
