"""Training the value network's four variants (VN, ML-VN, BV-VN, BV-ML-VN) on the same batches."""
