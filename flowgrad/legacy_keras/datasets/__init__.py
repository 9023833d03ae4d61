"""``keras.datasets``: MNIST, Fashion-MNIST and CIFAR-10 from Keras's cache directory,
downloaded into it (checksum verified) when absent, as Keras does; MNIST also from the full
set flowgrad finds offline, else its bundled sample. ``$FLOWGRAD_OFFLINE=1`` forbids
downloads."""
from flowgrad.legacy_keras.datasets import cifar10, fashion_mnist, mnist
from flowgrad.legacy_keras.datasets._cache import DatasetDownloadRequiredError

__all__ = ["mnist", "fashion_mnist", "cifar10", "DatasetDownloadRequiredError"]
