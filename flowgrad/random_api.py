"""``tf.random``: random sampling ops and seeding (TF2 names, plus TF1's)."""
from flowgrad.ops.random_ops import categorical, get_seed, multinomial, set_random_seed, set_seed
from flowgrad.ops.random_ops import random_normal as normal
from flowgrad.ops.random_ops import random_shuffle as shuffle
from flowgrad.ops.random_ops import random_uniform as uniform
from flowgrad.ops.random_ops import truncated_normal

__all__ = ["normal", "uniform", "truncated_normal", "shuffle", "categorical", "multinomial",
           "set_seed", "set_random_seed", "get_seed"]
