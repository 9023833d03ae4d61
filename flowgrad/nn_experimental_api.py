"""``tf.nn.experimental`` of both faces: ``stateless_dropout``."""
from flowgrad.ops.nn_impl import stateless_dropout

__all__ = ["stateless_dropout"]
