"""Training data for the local-move network, from game records: late positions labelled with KataGo
ownership, split into local positions, each with the local move sequence the game went on to play.
`python -m tengen.train.localdata build` makes the dataset (resumable shards in the user cache)."""
