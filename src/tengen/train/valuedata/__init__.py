"""The value-network dataset: the games pack (finished games as flat arrays) and positions sampled from it,
labelled with the final score difference, the final ownership and, where affordable, KataGo's evaluation."""
