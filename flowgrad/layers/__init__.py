"""``tf.layers`` of the TF1 face: functional layers and their classes, built on
``variable_scope``/``get_variable`` (variable names as TensorFlow 1: ``dense/kernel:0``)."""
from flowgrad.layers.base import Layer
from flowgrad.layers.convolutional import (AveragePooling1D, AveragePooling2D, Conv1D, Conv2D,
                                           Conv2DTranspose, MaxPooling1D, MaxPooling2D,
                                           average_pooling1d, average_pooling2d, conv1d, conv2d,
                                           conv2d_transpose, max_pooling1d, max_pooling2d)
from flowgrad.layers.convolutional3d import (AveragePooling3D, Conv3D, Conv3DTranspose,
                                             MaxPooling3D, average_pooling3d, conv3d,
                                             conv3d_transpose, max_pooling3d)
from flowgrad.layers.core import Dense, Dropout, Flatten, dense, dropout, flatten
from flowgrad.layers.normalization import BatchNormalization, batch_normalization
from flowgrad.layers.separable import SeparableConv2D, separable_conv2d

# TensorFlow 1's tf.layers has no short aliases (MaxPool2D, Convolution2D, ...); tf.keras.layers
# has them.
__all__ = ["Layer", "Dense", "Dropout", "Flatten", "BatchNormalization", "Conv1D", "MaxPooling1D",
           "AveragePooling1D", "conv1d", "max_pooling1d", "average_pooling1d", "Conv2D",
           "Conv2DTranspose", "conv2d_transpose", "MaxPooling2D", "AveragePooling2D", "dense",
           "dropout", "flatten", "batch_normalization", "conv2d", "max_pooling2d",
           "average_pooling2d", "SeparableConv2D", "separable_conv2d", "Conv3D", "Conv3DTranspose",
           "MaxPooling3D", "AveragePooling3D", "conv3d", "conv3d_transpose", "max_pooling3d",
           "average_pooling3d"]


def __dir__() -> list:
    """TensorFlow 1's tf.layers names; the implementation modules stay importable."""
    return sorted(__all__)
