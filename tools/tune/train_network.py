#!/usr/bin/python3
"""Trains an NNUE-style evaluation network on divercite-dump-positions' file (issue 33) and
prints its mean squared error by stage, training and held out (every 5th pair of games, as
divercite-tune-patterns), in floats and quantised to integers, beside the pattern evaluation's
on the same positions.

    /usr/bin/python3 tools/tune/train_network.py --data positions.pos [--extra-train more.pos] \
        [--inputs both|pieces|patterns] [--accumulator 64] [--hidden 32,32] \
        [--base score|pattern] [--label blend|later|search] [--epochs 16] [--out net.pt] \
        [--export search/network.net]

The defaults are the network the engine ships (issue 33, search/NOTES.md): pieces and
patterns as inputs, 32 x 2 accumulators, two hidden layers of 16, fitted to the blend label
for 16 epochs; --export writes it as the engine's weight file.

The prediction is base + network(features): base is the score difference (the network
predicts what is still to come) or the pattern evaluation (the network corrects it). Errors
are measured against the label `later` (the first exact score at or after the position).
"""

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from evalnet import export, features, positions, stages, training  # noqa: E402
from evalnet.model import Network  # noqa: E402
from evalnet.quantise import QuantisedNetwork  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--data', required=True, help='a divercite-dump-positions file')
    parser.add_argument('--extra-train', action='append', default=[],
                        help='another dump whose positions all train (none held out); the '
                        'held-out positions stay those of --data')
    parser.add_argument('--accumulator', type=int, default=32)
    parser.add_argument('--hidden', default='16,16', help='hidden layer sizes, comma separated')
    parser.add_argument('--inputs', choices=['pieces', 'patterns', 'both'], default='both',
                        help='the first layer\'s features (evalnet/features.py)')
    parser.add_argument('--base', choices=['score', 'pattern'], default='score')
    parser.add_argument('--label', choices=['later', 'blend', 'search'], default='blend',
                        help='what the network is fitted to (errors are against later)')
    parser.add_argument('--epochs', type=int, default=16)
    parser.add_argument('--batch', type=int, default=256)
    parser.add_argument('--lr', type=float, default=2e-3)
    parser.add_argument('--weight-decay', type=float, default=0.0)
    parser.add_argument('--no-augment', action='store_true',
                        help='train without the 192 symmetries')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--threads', type=int, default=1)
    parser.add_argument('--validation-every', type=int, default=5)
    parser.add_argument('--train-fraction', type=float, default=1.0,
                        help='train on this fraction of the training pairs of games only (for '
                        'learning curves; the held-out positions stay the same)')
    parser.add_argument('--baselines', action='store_true',
                        help='also print the pattern and linear evaluations\' rows')
    parser.add_argument('--out', help='save the float network (torch) and its integers (.npz)')
    parser.add_argument('--export', help='write the engine\'s weight file (inputs both, base '
                        'score, the C++ layout: accumulator 32, hidden 16,16)')
    parser.add_argument('--data-description',
                        help='the weight file\'s data line (default: the data files\' names)')
    args = parser.parse_args()
    if args.export and (args.inputs != 'both' or args.base != 'score'):
        parser.error('--export needs --inputs both and --base score (what the engine runs)')
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)

    if args.extra_train and args.train_fraction < 1:
        parser.error('--train-fraction is for --data alone, without --extra-train')
    records = positions.load(args.data)
    held = positions.held_out(records, args.validation_every)
    for path in args.extra_train:
        extra = positions.load(path)
        records = np.concatenate([records, extra])
        held = np.concatenate([held, np.zeros(len(extra), dtype=bool)])
    ply = records['ply']
    later = positions.label(records, 'later')
    fit_label = positions.label(records, args.label)
    base = (positions.score_difference(records) if args.base == 'score'
            else records['pattern'].astype(np.float32))
    active = features.active_features(records, args.inputs)
    print(f'{" + ".join([args.data] + args.extra_train)}: {len(records)} positions, '
          f'{np.count_nonzero(~held)} training, '
          f'{np.count_nonzero(held)} held out', flush=True)
    if args.baselines:
        print(stages.HEADER)
        print(stages.RULE)
        for name, value in [('patterns (built-in weights)', records['pattern']),
                            ('linear', records['linear']),
                            ('the mover\'s searched score (nodes of the data)',
                             positions.label(records, 'search'))]:
            for part, mask in [('training', ~held), ('held out', held)]:
                print(stages.row(f'{name}, {part}', ply[mask], later[mask] - value[mask]))
        sys.stdout.flush()

    hidden = [int(h) for h in args.hidden.split(',') if h]
    network = Network(features.NUM_INPUTS, args.accumulator, hidden,
                      first_zero_row=features.PATTERN_BASE)
    name = (f'net {args.inputs} {args.accumulator}x2-{"-".join(map(str, hidden))}-1, '
            f'base {args.base}, label {args.label}')
    print(f'{name}: {network.parameter_count(features.rows_used(args.inputs))} parameters '
          f'(first layer: the rows of these inputs)', flush=True)

    def held_error():
        prediction = base[held] + training.predict(network, active[held])
        return f'held-out MSE {np.mean((later[held] - prediction) ** 2):.3f}'

    remap = None if args.no_augment else features.transform_table()
    train_rows = ~held
    if args.train_fraction < 1:
        # A fixed pseudo-random subset of the training pairs (Knuth's multiplicative hash).
        kept = (records['pair'].astype(np.int64) * 2654435761 % 2 ** 32) < (
            args.train_fraction * 2 ** 32)
        train_rows &= kept
        print(f'training on {np.count_nonzero(train_rows)} positions '
              f'({args.train_fraction:g} of the training pairs)', flush=True)
    training.train(network, active[train_rows], fit_label[train_rows] - base[train_rows],
                   args.epochs, args.batch, args.lr, args.weight_decay, remap, args.seed,
                   log=lambda line: print(line, flush=True), evaluate=held_error)

    float_out = training.predict(network, active)
    quantised = QuantisedNetwork(network)
    int_out = quantised.points(active)
    print(stages.HEADER)
    print(stages.RULE)
    for kind, output in [('float', float_out), ('int16/int8', int_out)]:
        for part, mask in [('training', ~held), ('held out', held)]:
            prediction = base[mask] + output[mask]
            print(stages.row(f'{name}, {kind}, {part}', ply[mask], later[mask] - prediction))
    print(f'quantised: accumulator overflows {quantised.overflows}, output shift '
          f'{quantised.output_shift}, max |float - int| '
          f'{np.abs(float_out - int_out).max():.3f} points, mean '
          f'{np.abs(float_out - int_out).mean():.4f}')
    if args.out:
        torch.save({'state': network.state_dict(), 'args': vars(args)}, args.out)
        np.savez(os.path.splitext(args.out)[0] + '.int.npz',
                 feature_weights=quantised.feature_weights.astype(np.int16),
                 feature_bias=quantised.feature_bias.astype(np.int16),
                 output_weight=quantised.output_weight.astype(np.int8),
                 output_bias=quantised.output_bias.astype(np.int32),
                 output_shift=quantised.output_shift,
                 **{f'hidden{k}_weight': w.astype(np.int8)
                    for k, (w, _) in enumerate(quantised.hidden)},
                 **{f'hidden{k}_bias': b.astype(np.int32)
                    for k, (_, b) in enumerate(quantised.hidden)})
        print(f'wrote {args.out}')
    if args.export:
        held_int = np.mean((later[held] - base[held] - int_out[held]) ** 2)
        data = args.data_description or ' + '.join(
            os.path.basename(path) for path in [args.data] + args.extra_train)
        fit = (f'train_network.py inputs={args.inputs} accumulator={args.accumulator} '
               f'hidden={args.hidden} base={args.base} label={args.label} '
               f'epochs={args.epochs} batch={args.batch} lr={args.lr:g} seed={args.seed}; '
               f'held-out MSE {held_int:.3f} points^2 on {np.count_nonzero(held)} positions')
        with open(args.export, 'w', newline='\n') as file:
            file.write(export.network_file_text(quantised, data, fit))
        print(f'wrote {args.export}')


if __name__ == '__main__':
    main()
