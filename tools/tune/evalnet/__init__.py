"""Training an evaluation network for Divercite on divercite-dump-positions' files (issue 33).

One idea per module: positions (the dump file), features (the network's inputs and the
symmetries of the game), model (the network), quantise (its integer inference), stages (the
error tables), training (the loop).
"""
