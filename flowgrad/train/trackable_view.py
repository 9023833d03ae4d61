"""``tf.train.TrackableView``: the object graph of a trackable, as checkpoints and SavedModels
walk it (its children by name, and every object reachable from it)."""
from __future__ import annotations

from typing import Any


class TrackableView:
    """A view of the dependency graph of ``root`` (TensorFlow's ``tf.train.TrackableView``).

    Args:
      root: a trackable object (``tf.Module``, Keras layer, ``tf.train.Checkpoint``, ...).
    """

    def __init__(self, root: Any):
        self._root_ref = root

    @property
    def root(self) -> Any:
        """The root object."""
        return self._root_ref

    @classmethod
    def children(cls, obj: Any, save_type: str = "checkpoint", **kwargs: Any) -> dict:
        """The named children of ``obj``: ``{name: trackable}``.

        Args:
          obj: a trackable.
          save_type: "checkpoint" or "savedmodel" (which children the object lists).
          **kwargs: passed to the object's ``_trackable_children`` (``cache``).

        Returns:
          A dict from the children's names to the child objects.
        """
        if not hasattr(obj, "_trackable_children"):     # lists, dicts, ...
            from flowgrad.train.checkpoint import _children
            return dict(_children(obj))
        if hasattr(obj, "_maybe_initialize_trackable"):
            obj._maybe_initialize_trackable()
        try:
            found = obj._trackable_children(save_type, **kwargs)
        except TypeError as e:
            if "unexpected keyword" not in str(e):
                raise
            found = obj._trackable_children(save_type)
        out = {name: getattr(ref, "ref", ref) for name, ref in found.items()}
        # TensorFlow's AutoTrackable wraps tuple attributes that hold trackables and tracks
        # them; flowgrad keeps them plain (lists and dicts are tracked wrappers, as in TF)
        from flowgrad.train.checkpoint import _is_trackable
        for name, value in getattr(obj, "__dict__", {}).items():
            if name not in out and not name.startswith("_self_") and \
                    isinstance(value, tuple) and _is_trackable(value):
                out[name] = value
        return out

    def descendants(self) -> list:
        """Every object reachable from the root, the root first, breadth first."""
        seen, order = {id(self.root)}, [self.root]
        i = 0
        while i < len(order):
            for child in self.children(order[i]).values():
                if id(child) not in seen:
                    seen.add(id(child))
                    order.append(child)
            i += 1
        return order
