"""The network: an NNUE-style first layer over the features of both perspectives
(features.py), clipped ReLU, small dense layers, one output (points of final margin, added
to a base: the score difference, or the pattern evaluation)."""

import torch
from torch import nn

# Quantisation (quantise.py): activations in [0, 1] become 0..127, hidden weights int8 at 64
# per unit, so that training keeps hidden weights within 127/64.
ACTIVATION_SCALE = 127
WEIGHT_SCALE = 64
WEIGHT_LIMIT = 127 / WEIGHT_SCALE


class Network(nn.Module):
    def __init__(self, num_features, accumulator, hidden, first_zero_row=None):
        super().__init__()
        if first_zero_row is None:
            first_zero_row = num_features - 1
        self.accumulator = accumulator
        self.hidden_sizes = list(hidden)
        self.feature_weights = nn.Embedding(num_features, accumulator,
                                            padding_idx=num_features - 1)
        self.feature_bias = nn.Parameter(torch.zeros(accumulator))
        with torch.no_grad():
            nn.init.normal_(self.feature_weights.weight, std=0.5 / 40 ** 0.5)
            # The rows after the pieces' (the patterns', the padding) start at zero: a pattern
            # never seen in training then adds nothing (the data shows 338 of 3,478).
            self.feature_weights.weight[first_zero_row:].zero_()
        sizes = [2 * accumulator] + self.hidden_sizes
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:]))
        self.output = nn.Linear(sizes[-1], 1)

    def accumulators(self, features):
        """features: [batch, 2, K] indices -> [batch, 2, accumulator]; the last input (the
        padding) is all zeros."""
        return self.feature_weights(features).sum(dim=2) + self.feature_bias

    def forward(self, features):
        x = torch.clamp(self.accumulators(features), 0, 1).flatten(1)
        for layer in self.hidden:
            x = torch.clamp(layer(x), 0, 1)
        return self.output(x).squeeze(1)

    def clip_weights(self):
        """Keeps the hidden layers' weights within what int8 at WEIGHT_SCALE holds."""
        with torch.no_grad():
            for layer in self.hidden:
                layer.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)

    def parameter_count(self, rows_used=None):
        """The parameters, counting only `rows_used` rows of the first layer if given."""
        total = sum(p.numel() for p in self.parameters())
        if rows_used is not None:
            total -= (self.feature_weights.num_embeddings - rows_used) * self.accumulator
        return total
