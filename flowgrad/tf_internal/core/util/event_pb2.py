"""``tensorflow.core.util.event_pb2``: the Event protos of TensorBoard event files
(``Event``, ``SessionLog``, ...), TensorBoard's copy of TensorFlow's (the optional
``tensorboard`` package)."""
from flowgrad.summary.protos import pb as _pb

globals().update({k: v for k, v in vars(_pb().event_pb2).items() if not k.startswith("__")})
