"""``tf.random`` of the TF2 face: random sampling ops and ``set_seed`` (TensorFlow 2's names;
the TF1 face's ``tf.random``, flowgrad/compat/v1_random.py, has TensorFlow 1's)."""
from flowgrad.ops.random_ops import categorical, set_seed
from flowgrad.ops.random_ops import random_normal as normal
from flowgrad.ops.random_ops import random_shuffle as shuffle
from flowgrad.ops.random_ops import random_uniform as uniform
from flowgrad.ops.random_ops import truncated_normal
from flowgrad.ops.stateful_random_ops import (Generator, create_rng_state,
                                              get_global_generator, set_global_generator)
from flowgrad.api import namespaces as _namespaces
from flowgrad.ops.stateless_random_ops import fold_in, split, stateless_categorical
from flowgrad.ops.stateless_random_ops import stateless_random_binomial as stateless_binomial
from flowgrad.ops.stateless_random_ops import stateless_random_gamma as stateless_gamma
from flowgrad.ops.stateless_random_ops import stateless_random_normal as stateless_normal
from flowgrad.ops.stateless_random_ops import stateless_random_poisson as stateless_poisson
from flowgrad.ops.stateless_random_ops import stateless_random_uniform as stateless_uniform
from flowgrad.ops.stateless_random_ops import stateless_truncated_normal

__all__ = ["normal", "uniform", "truncated_normal", "shuffle", "categorical", "set_seed",
           "Generator", "create_rng_state", "get_global_generator", "set_global_generator",
           "stateless_categorical", "stateless_binomial", "stateless_gamma", "stateless_normal",
           "stateless_poisson", "stateless_uniform", "stateless_truncated_normal", "split",
           "fold_in", "experimental"]

experimental = _namespaces.namespace("tf.random.experimental")
