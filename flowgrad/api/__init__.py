"""The faces' export table (``exports``) and the builder of their namespaces (``namespaces``)."""
