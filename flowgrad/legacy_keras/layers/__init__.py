"""``keras.layers``: the Layer base class and the built-in layers."""
from flowgrad.legacy_keras.layers.activation_layers import ELU, LeakyReLU, ReLU, Rescaling, Softmax
from flowgrad.legacy_keras.layers.base import InputSpec, Layer
from flowgrad.legacy_keras.layers.convolutional import (
    AveragePooling2D,
    AvgPool2D,
    Conv2D,
    Convolution2D,
    GlobalAveragePooling2D,
    MaxPool2D,
    MaxPooling2D,
)
from flowgrad.legacy_keras.layers.core import (
    Activation,
    Dense,
    Dropout,
    Embedding,
    Flatten,
    Input,
    InputLayer,
    Lambda,
    Reshape,
)
from flowgrad.legacy_keras.layers.merging import (
    Add,
    Average,
    Concatenate,
    Maximum,
    Minimum,
    Multiply,
    Subtract,
    add,
    concatenate,
)
from flowgrad.legacy_keras.layers.normalization import BatchNormalization
from flowgrad.legacy_keras.layers.recurrent import (
    GRU,
    LSTM,
    RNN,
    Bidirectional,
    GRUCell,
    LSTMCell,
    SimpleRNN,
    SimpleRNNCell,
    StackedRNNCells,
)

GlobalAvgPool2D = GlobalAveragePooling2D  # Keras's short name for the same layer

__all__ = ["Layer", "InputSpec", "Input", "InputLayer", "Dense", "Activation",
           "Flatten", "Reshape", "Dropout", "Lambda", "Embedding", "Add", "Subtract",
           "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "add", "concatenate",
           "BatchNormalization", "Conv2D", "Convolution2D", "MaxPooling2D", "MaxPool2D",
           "AveragePooling2D", "AvgPool2D", "GlobalAveragePooling2D", "GlobalAvgPool2D", "RNN",
           "SimpleRNN", "SimpleRNNCell", "StackedRNNCells", "LSTM", "LSTMCell", "GRU", "GRUCell",
           "Bidirectional", "ReLU", "LeakyReLU", "ELU", "Softmax", "Rescaling"]


def __dir__() -> list:
    """TensorFlow 2.15's tf.keras.layers names; the implementation modules stay importable."""
    return sorted(__all__)
