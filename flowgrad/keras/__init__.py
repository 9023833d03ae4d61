"""``tf.keras``: the Keras 3 optimizers (``tf.keras.optimizers``)."""
from flowgrad.keras import optimizers

__all__ = ["optimizers"]
