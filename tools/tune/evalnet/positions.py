"""The file divercite-dump-positions writes (tools/tune/position_dump.h), read with numpy."""

import numpy as np

MAGIC = b'DVPOS001'

RECORD = np.dtype([
    ('board', 'u1', 41),   # 0 empty, else 1 + colour + 4 x owner (0 first player, 1 second)
    ('hand', 'u1', 16),    # pieces left at 8 x player + 4 x kind (0 city, 1 resource) + colour
    ('ply', 'u1'),
    ('side', 'u1'),        # side to move: 0 first player, 1 second
    ('score', 'i1', 2),    # first and second player's scores so far
    ('flags', 'u1'),       # bit 0: the mover's own score was exact; bit 1: it reported one
    ('reserved', 'u1', 2),
    ('later', '<f4'),      # points, side to move's view: the first exact score at or after
    ('search', '<f4'),     # points: the mover's reported score (0 if none)
    ('pattern', '<f4'),    # points: the pattern evaluation, score difference included
    ('linear', '<f4'),     # points: the linear evaluation
    ('game', '<i4'),
    ('pair', '<i4'),
    # The patterns (search/patterns.h) with each player to move, view 0 the side to move's:
    # 2 x pattern + (1 if it counts against the view's player), 0xFFFF after the last.
    ('patterns', '<u2', (2, 20)),
])


def load(path):
    """The records of a dump file, as a numpy structured array."""
    with open(path, 'rb') as file:
        header = file.read(16)
        if len(header) != 16 or header[:8] != MAGIC:
            raise ValueError(f'{path}: not a divercite-dump-positions file')
        size, count = np.frombuffer(header[8:], dtype='<u4')
        if size != RECORD.itemsize:
            raise ValueError(f'{path}: records of {size} bytes, expected {RECORD.itemsize}')
        records = np.fromfile(file, dtype=RECORD, count=int(count))
    if len(records) != count:
        raise ValueError(f'{path}: {len(records)} records of {count}')
    return records


def score_difference(records):
    """The side to move's score minus the opponent's, in points."""
    side = records['side'].astype(np.int64)
    score = records['score'].astype(np.float32)
    rows = np.arange(len(records))
    return score[rows, side] - score[rows, 1 - side]


def label(records, name):
    """The label `name` (later, search or blend, as divercite-tune-patterns), in points."""
    later = records['later']
    has_search = (records['flags'] & 2) != 0
    search = np.where(has_search, records['search'], later)
    if name == 'later':
        return later.copy()
    if name == 'search':
        return search
    if name == 'blend':
        return (later + search) / 2
    raise ValueError(f'unknown label {name}')


def held_out(records, every=5):
    """True for the positions of every `every`-th pair of games (divercite-tune-patterns'
    validation_every)."""
    return (records['pair'] % every) == 0
