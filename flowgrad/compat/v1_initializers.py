"""``tf.compat.v1.initializers``: TF1 initializers and the initializer-op functions."""
from flowgrad.ops.init_ops import Constant as constant
from flowgrad.ops.init_ops import GlorotNormal as glorot_normal
from flowgrad.ops.init_ops import GlorotUniform as glorot_uniform
from flowgrad.ops.init_ops import Identity as identity
from flowgrad.ops.init_ops import Ones as ones
from flowgrad.ops.init_ops import RandomNormal as random_normal
from flowgrad.ops.init_ops import RandomUniform as random_uniform
from flowgrad.ops.init_ops import TruncatedNormal as truncated_normal
from flowgrad.ops.init_ops import VarianceScaling as variance_scaling
from flowgrad.ops.init_ops import Zeros as zeros
from flowgrad.ops.init_ops import he_normal, he_uniform, lecun_normal, lecun_uniform
from flowgrad.ops.state_ops import global_variables_initializer as global_variables
from flowgrad.ops.state_ops import local_variables_initializer as local_variables
from flowgrad.ops.state_ops import variables_initializer as variables

__all__ = ["zeros", "ones", "constant", "random_uniform", "random_normal", "truncated_normal",
           "variance_scaling", "glorot_uniform", "glorot_normal", "identity", "he_normal",
           "he_uniform", "lecun_normal", "lecun_uniform", "global_variables", "local_variables",
           "variables"]
