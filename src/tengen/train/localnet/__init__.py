"""Training the local-move network (`python -m tengen.train.localnet train`) and writing its model card."""
