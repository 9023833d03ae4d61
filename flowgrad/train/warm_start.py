"""``tf.compat.v1.train.warm_start``: initialize variables from a checkpoint (a renamed
one through ``var_name_to_prev_var_name``), as TensorFlow's ``warm_starting_util.py`` does
without vocabularies."""
from __future__ import annotations

from typing import Any

from flowgrad.debug import tf_logging
from flowgrad.framework import errors
from flowgrad.framework.graph import GraphKeys, get_default_graph
from flowgrad.ops.state_ops import Variable
from flowgrad.train.checkpoint_utils import init_from_checkpoint


def _variables(vars_to_warm_start: Any) -> dict:
    """{name: variable} of what ``vars_to_warm_start`` selects, in collection order."""
    graph = get_default_graph()
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        tf_logging.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
        found = graph.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            found = []
            for scope in vars_to_warm_start:
                found += graph.get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope)
        elif all(isinstance(v, Variable) for v in vars_to_warm_start):
            found = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or "
                             "all `str`.  Given types are %s"
                             % [type(v) for v in vars_to_warm_start])
    else:
        raise ValueError("`vars_to_warm_start must be a `list` or `str`.  Given type is %s"
                         % type(vars_to_warm_start))
    return {v.op.name: v for v in found}


def warm_start(ckpt_to_initialize_from: str, vars_to_warm_start: Any = ".*",
               var_name_to_vocab_info: dict | None = None,
               var_name_to_prev_var_name: dict | None = None) -> None:
    """Makes the selected variables' initializers read their values from a checkpoint.

    Args:
        ckpt_to_initialize_from: A checkpoint prefix or a directory holding checkpoints.
        vars_to_warm_start: A regex over the trainable variables' names, a list of regexes
            over the global variables', a list of Variables, or None (none).
        var_name_to_vocab_info: Vocabulary remapping, which flowgrad does not support: must
            be empty.
        var_name_to_prev_var_name: A dict from a variable's name to its name in the
            checkpoint.

    Raises:
        ValueError: If ``vars_to_warm_start`` is of another kind, or a name of
            ``var_name_to_prev_var_name`` selects no variable.
        UnimplementedError: If ``var_name_to_vocab_info`` is given.
    """
    if var_name_to_vocab_info:
        raise errors.UnimplementedError(None, None, "warm_start: var_name_to_vocab_info "
                                        "(vocabulary remapping) is not supported by flowgrad")
    tf_logging.info("Warm-starting from: %s", ckpt_to_initialize_from)
    variables = _variables(vars_to_warm_start)
    renames = var_name_to_prev_var_name or {}
    used = set()
    assignment: dict = {}
    count = 0
    for name, var in variables.items():
        prev = renames.get(name)
        if prev:
            used.add(name)
        if not vars_to_warm_start:
            continue
        count += 1
        tf_logging.debug("Warm-starting variable: %s; prev_var_name: %s",
                         name, prev or "Unchanged")
        key = prev or name
        if key in assignment:
            init_from_checkpoint(ckpt_to_initialize_from, assignment)
            assignment = {}
        assignment[key] = var
    if assignment:
        init_from_checkpoint(ckpt_to_initialize_from, assignment)
    tf_logging.info("Warm-started %d variables.", count)
    unused = set(renames) - used
    if unused:
        raise ValueError("You provided the following variables in var_name_to_prev_var_name "
                         "that were not used: %s.  Perhaps you misspelled them?  Here is the "
                         "list of viable variable names: %s" % (unused, variables.keys()))
