"""The network in integers, as C++ would run it: the first layer's weights and the
accumulators in int16 (ACTIVATION_SCALE per unit), clipped ReLU to 0..127, the hidden and
output layers' weights in int8 and their sums in int32, the result rounded to centipoints.

Hidden layer: y = (x . w + b) >> 6 with w = round(64 W) and b = round(64 x 127 B), then
clipped to 0..127. Output layer: its weights at a power-of-two scale 2^k, the largest that
keeps them within int8, and v = (x . w + b) x 100 / (127 x 2^k) centipoints.
"""

import numpy as np

from evalnet.model import ACTIVATION_SCALE, WEIGHT_SCALE

INT16 = (-32768, 32767)


class QuantisedNetwork:
    def __init__(self, network):
        def array(tensor):
            return tensor.detach().cpu().double().numpy()

        self.feature_weights = np.round(
            array(network.feature_weights.weight) * ACTIVATION_SCALE).astype(np.int64)
        self.feature_bias = np.round(array(network.feature_bias) * ACTIVATION_SCALE).astype(
            np.int64)
        if (np.abs(self.feature_weights).max() > INT16[1]
                or np.abs(self.feature_bias).max() > INT16[1]):
            raise ValueError('first-layer weights beyond int16')
        self.hidden = []
        for layer in network.hidden:
            weight = np.clip(np.round(array(layer.weight) * WEIGHT_SCALE), -127, 127)
            bias = np.round(array(layer.bias) * WEIGHT_SCALE * ACTIVATION_SCALE)
            self.hidden.append((weight.astype(np.int64), bias.astype(np.int64)))
        out_weight = array(network.output.weight)
        shift = 0
        while np.abs(out_weight).max() * 2 ** (shift + 1) <= 127 and shift < 14:
            shift += 1
        self.output_shift = shift
        self.output_weight = np.clip(np.round(out_weight * 2 ** shift), -127, 127).astype(
            np.int64)
        self.output_bias = np.round(
            array(network.output.bias) * 2 ** shift * ACTIVATION_SCALE).astype(np.int64)
        self.overflows = 0

    def accumulators(self, features):
        """[n, 2, 40] feature indices -> int16-range accumulators [n, 2, accumulator]."""
        acc = self.feature_weights[features.astype(np.int64)].sum(axis=2) + self.feature_bias
        self.overflows += int(np.count_nonzero((acc < INT16[0]) | (acc > INT16[1])))
        return np.clip(acc, *INT16)

    def centipoints(self, features):
        x = np.clip(self.accumulators(features), 0, ACTIVATION_SCALE).reshape(len(features), -1)
        for weight, bias in self.hidden:
            x = np.clip((x @ weight.T + bias) >> 6, 0, ACTIVATION_SCALE)
        out = x @ self.output_weight.T + self.output_bias
        scale = ACTIVATION_SCALE * 2 ** self.output_shift
        return np.floor_divide(out[:, 0] * 100 + scale // 2, scale)

    def points(self, features, batch=65536):
        return np.concatenate([self.centipoints(features[k:k + batch]) / 100.0
                               for k in range(0, len(features), batch)])
