"""The engine's weight file for a quantised network: the format search/network_file.h
specifies (the engine reads it with `setoption name EvalFile value FILE`, and compiles in
search/network.net)."""

from evalnet import features

FORMAT_VERSION = 1
PATTERN_LAYOUT = 'patterns-2'  # search/patterns.h, kLayoutName


def layout_line(quantised):
    """The layout the file is for; the engine refuses another."""
    accumulator = quantised.feature_weights.shape[1]
    hidden = ','.join(str(len(bias)) for _, bias in quantised.hidden)
    return (f'net-1 features={features.NUM_FEATURES}+2x{features.NUM_PATTERNS} '
            f'patterns={PATTERN_LAYOUT} accumulator={accumulator} hidden={hidden}')


def fnv1a(data):
    """FNV-1a, 64 bits: the checksum of the engine's weight files."""
    value = 0xcbf29ce484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return value


def _values(array):
    return ' '.join(str(int(v)) for v in array)


def _one_line(text):
    return text.replace('\n', ' ').replace('\r', ' ')


def network_file_text(quantised, data, fit):
    """The file's text: header, the first layer's non-zero rows, the dense layers, checksum."""
    rows = quantised.feature_weights[:features.PADDING]
    if quantised.feature_weights[features.PADDING:].any():
        raise ValueError('the padding row of the first layer is not zero')
    nonzero = [k for k in range(len(rows)) if rows[k].any()]
    lines = [
        '# An evaluation network (search/network.h): its integer weights, made by',
        '# tools/tune/train_network.py --export; the format is search/network_file.h\'s.',
        f'divercite-net {FORMAT_VERSION}',
        f'layout {layout_line(quantised)}',
        f'data {_one_line(data)}',
        f'fit {_one_line(fit)}',
        f'feature-bias {_values(quantised.feature_bias)}',
        f'features {len(nonzero)}',
    ]
    lines += [f'{k} {_values(rows[k])}' for k in nonzero]
    for number, (weight, bias) in enumerate(quantised.hidden, start=1):
        lines.append(f'hidden{number}-bias {_values(bias)}')
        lines += [f'hidden{number} {j} {_values(weight[j])}' for j in range(len(weight))]
    lines.append(f'output-bias {int(quantised.output_bias[0])}')
    lines.append(f'output {_values(quantised.output_weight[0])}')
    lines.append(f'output-shift {quantised.output_shift}')
    text = '\n'.join(lines) + '\n'
    return text + f'checksum {fnv1a(text.encode()):016x}\n'
