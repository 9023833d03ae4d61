"""``tf.compat.v1.keras``: flowgrad's own Keras for the TF1 face (graph mode, placeholders,
``Session``): layers, models (subclassed, functional, Sequential) with compile/fit, losses,
metrics, callbacks, activations, initializers and optimizers.

Real TensorFlow serves TF1 graph-mode Keras with the legacy ``tf_keras`` package (Keras 3
cannot build layers on placeholders); flowgrad serves it with this package. The TF2 face's
``tf.keras`` is the real Keras 3 (``flowgrad.keras``, the keras extra; flowgrad/dropin.py)."""
from flowgrad.legacy_keras import (
    activations,
    backend,
    callbacks,
    constraints,
    datasets,
    initializers,
    layers,
    losses,
    metrics,
    models,
    optimizers,
    regularizers,
    utils,
)
from flowgrad.legacy_keras.layers import Input
from flowgrad.legacy_keras.layers.base import reset_uids
from flowgrad.legacy_keras.models import Model, Sequential

backend.on_clear_session(reset_uids)

__all__ = ["activations", "backend", "callbacks", "constraints", "datasets", "initializers",
           "layers", "losses", "metrics", "models", "optimizers", "regularizers", "utils", "Input",
           "Model", "Sequential"]


def __dir__() -> list:
    """TensorFlow 2.15's tf.keras names (Layer and InputSpec are in tf.keras.layers)."""
    return sorted(__all__)
