"""``tf.compat.v1.keras.utils.track_tf1_style_variables`` as Keras 2 (TensorFlow 2.7-2.15)
had it: the modeling shim of TensorFlow's migration guides. A Keras layer's (or a
``tf.Module``'s) method decorated with it runs TF1 code -- ``tf.compat.v1.get_variable``,
``tf.compat.v1.layers`` -- eagerly or in a ``tf.function``: the variables are made on the first
call, reused by name on every later call, and tracked by the layer (its ``trainable_weights``,
what ``fit`` trains) or the module. TF 2.16+ (Keras 3) dropped it; flowgrad keeps it, and a
Keras 3 layer's variables are its weights (``add_weight``)."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flowgrad.module import Module
from flowgrad.ops.variable_scope import get_variable_scope, variable_scope


class _Store(Module):
    """The variables a decorated object made, by full name, and their regularizers (a
    Module, so that a ``tf.Module`` owning it tracks its variables)."""

    def __init__(self) -> None:
        super().__init__(name="tf1_style_var_store")
        self.by_name: dict = {}
        self.regularizers: dict = {}

    def getter(self, owner: Any, getter: Callable, name: str, *args: Any,
               **kwargs: Any) -> Any:
        """A custom getter: the stored variable ``name``, else a new one, stored."""
        if name in self.by_name:
            return self.by_name[name]
        regularizer = kwargs.pop("regularizer", None)
        tracker = getattr(owner, "_tracker", None)
        if tracker is not None and hasattr(owner, "add_weight"):    # a Keras 3 layer
            relock = tracker.locked
            tracker.unlock()        # Keras 3 locks a built layer's state; the shim adds to it
            try:
                var = owner.add_weight(
                    name=name.replace("/", "_"), shape=kwargs.get("shape"),
                    dtype=kwargs.get("dtype"), initializer=kwargs.get("initializer"),
                    trainable=kwargs.get("trainable") is not False)
            finally:
                if relock:
                    tracker.lock()
        else:
            var = getter(name, *args, **kwargs)
        self.by_name[name] = var
        if regularizer is not None:
            self.regularizers[name] = regularizer
        return var


def track_tf1_style_variables(method: Callable) -> Callable:
    """Decorates a Keras layer's or ``tf.Module``'s method that runs TF1-style code, so that
    the variables it makes with ``tf.compat.v1.get_variable`` (and ``tf.compat.v1.layers``)
    are made once, reused by name on later calls and tracked by the object; a Keras layer
    also gets their regularization losses (``layer.losses``).

    Args:
      method: the method (usually ``call``).

    Returns:
      The decorated method.

    Raises:
      ValueError: (when called) the object is not a ``tf.Module`` or Keras layer.
    """
    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        store = self.__dict__.get("_tf1_style_var_store")
        if store is None:
            if not (hasattr(self, "trainable_variables") or hasattr(self, "add_weight")):
                raise ValueError("`@tf.compat.v1.keras.utils.track_tf1_style_variables` must "
                                 "be used with a `tf.Module`.")
            store = _Store()
            self.__dict__["_tf1_style_var_store"] = store
        getter = functools.partial(store.getter, self)
        with variable_scope(get_variable_scope(), custom_getter=getter):
            out = method(self, *args, **kwargs)
        if hasattr(self, "add_loss"):
            for name, regularizer in store.regularizers.items():
                loss = regularizer(store.by_name[name])
                if loss is not None:
                    self.add_loss(loss)
        return out
    return wrapper
