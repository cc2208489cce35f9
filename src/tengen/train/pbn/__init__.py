"""Training the PBN move predictor: samples from the KGS 6d+ records, EM training per region kind,
size and stone-count bucket, the model card."""
