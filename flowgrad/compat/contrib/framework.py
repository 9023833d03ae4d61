"""TensorFlow 1.15's ``tf.contrib.framework``: ``arg_scope``, the variable helpers slim uses
(``model_variable``, ``get_variables_to_restore``, ...), the global step, ``nest``."""
from __future__ import annotations

from flowgrad import nest
from flowgrad.compat.contrib.arg_scope import (add_arg_scope, arg_scope, arg_scope_func_key,
                                               arg_scoped_arguments, current_arg_scope,
                                               has_arg_scope)
from flowgrad.compat.contrib.variables import (assign_from_checkpoint_fn, get_local_variables,
                                               get_model_variables, get_trainable_variables,
                                               get_unique_variable, get_variables,
                                               get_variables_by_name, get_variables_by_suffix,
                                               get_variables_to_restore, global_variable,
                                               local_variable, model_variable, variable)
from flowgrad.framework.tensor import is_tensor
from flowgrad.train.checkpoint_utils import init_from_checkpoint, list_variables, load_variable
from flowgrad.train.training_util import (assert_global_step, create_global_step,
                                          get_global_step, get_or_create_global_step)

__all__ = ["add_arg_scope", "arg_scope", "arg_scope_func_key", "arg_scoped_arguments",
           "assert_global_step", "assign_from_checkpoint_fn", "create_global_step",
           "current_arg_scope", "get_global_step", "get_local_variables",
           "get_model_variables", "get_or_create_global_step", "get_trainable_variables",
           "get_unique_variable", "get_variables", "get_variables_by_name",
           "get_variables_by_suffix", "get_variables_to_restore", "global_variable",
           "has_arg_scope", "init_from_checkpoint", "is_tensor", "list_variables",
           "load_variable", "local_variable", "model_variable", "nest", "variable"]


def __dir__() -> list:
    return sorted(__all__)
