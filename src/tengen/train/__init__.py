"""Training: datasets built from game records, training loops, metrics and model cards."""
