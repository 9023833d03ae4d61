"""``keras.models``: Model (subclassed or functional) and Sequential."""
from flowgrad.legacy_keras.models.functional import Functional
from flowgrad.legacy_keras.models.model import Model
from flowgrad.legacy_keras.models.sequential import Sequential



def load_model(filepath: str, custom_objects: dict | None = None, compile: bool = True,
               safe_mode: bool = True) -> Model:
    """Not available: flowgrad writes weights files only (``model.save_weights``).

    Args:
        filepath: The model file Keras's ``load_model`` would read.
        custom_objects: Accepted for Keras's signature.
        compile: Accepted for Keras's signature.
        safe_mode: Accepted for Keras's signature.

    Raises:
        NotImplementedError: always; rebuild the model in code and call ``load_weights``.
    """
    raise NotImplementedError("flowgrad does not save or load whole models; rebuild the model "
                              "in code and call model.load_weights(path) on a file written by "
                              "model.save_weights")


__all__ = ["Model", "Sequential", "Functional", "load_model"]
