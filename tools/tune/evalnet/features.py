"""The network's inputs, and the symmetries of the game that training uses to see more.

From a perspective (a player), each piece on the board is one feature,
    cell x 8 + relative owner x 4 + colour            (41 x 8 = 328 features)
with relative owner 0 for the perspective's own pieces and 1 for the opponent's (a piece's kind
follows from its cell), and each piece in hand is one feature of a thermometer,
    328 + ((relative owner x 2 + kind) x 4 + colour) x 3 + (n - 1)   for n = 1 .. pieces left
(48 features, of which the cities' n = 3 is never on). Every piece is either on the board or
in hand, so exactly 40 features are on in every position, from each perspective. A move turns
off one hand feature and turns on one board feature, in both perspectives: the first layer's
sums (the accumulators) follow a game with two column subtractions and two additions.

The pattern evaluation's own features can be inputs too: the patterns of the position
(search/patterns.h: one per city cell whose value is still open, and three global tables) as
the evaluation sees them with the perspective's player to move, each with its sign (for or
against that player), one feature per (pattern, sign): 2 x 1,739 features, at most 19 on.
A move changes the patterns of the cells around it (and, when a player gives up their last
piece of a colour, of the cells that read that colour): the evaluation's incremental state
already knows which, and the accumulators subtract and add those cells' columns.

The rules are invariant under the 8 symmetries of the board and the 24 permutations of the
colours (shared/RULES.md), so a position and its 192 transforms have the same value.
"""

import itertools

import numpy as np

NUM_CELLS = 41
BOARD_FEATURES = NUM_CELLS * 8
HAND_FEATURES = 2 * 2 * 4 * 3
NUM_FEATURES = BOARD_FEATURES + HAND_FEATURES
ACTIVE = 40
NUM_PATTERNS = 1739  # search/patterns.h, kNumPatterns for the layout patterns-2
PATTERN_SLOTS = 20
PATTERN_BASE = NUM_FEATURES
# The inputs' index space: the piece features, the pattern features, then one always-zero
# column for the pattern lists' empty slots.
PADDING = PATTERN_BASE + 2 * NUM_PATTERNS
NUM_INPUTS = PADDING + 1


def _cells():
    cells = [(r, c) for r in range(9) for c in range(9) if abs(r - 4) + abs(c - 4) <= 4]
    assert len(cells) == NUM_CELLS
    return cells


CELLS = _cells()
CELL_AT = {rc: k for k, rc in enumerate(CELLS)}


def _square_symmetry(s, r, c):
    last = 8
    return [(r, c), (c, last - r), (last - r, last - c), (last - c, r),
            (r, last - c), (last - r, c), (c, r), (last - c, last - r)][s]


# BOARD_SYMMETRIES[s][cell]: where symmetry s (engine/board.h's numbering) takes the cell.
BOARD_SYMMETRIES = np.array([[CELL_AT[_square_symmetry(s, r, c)] for (r, c) in CELLS]
                             for s in range(8)], dtype=np.int64)
COLOUR_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def hand_feature(relative, kind, colour, n):
    return BOARD_FEATURES + ((relative * 2 + kind) * 4 + colour) * 3 + (n - 1)


def transform_table():
    """remap[t, f]: the feature f becomes under transform t = 24 x board symmetry + colour
    permutation (t = 0 is the identity). The patterns are invariant: they stay."""
    table = np.tile(np.arange(NUM_INPUTS, dtype=np.int64), (8 * 24, 1))
    for s in range(8):
        for p in range(24):
            t = 24 * s + p
            perm = COLOUR_PERMUTATIONS[p]
            for cell in range(NUM_CELLS):
                for relative in range(2):
                    for colour in range(4):
                        table[t, cell * 8 + relative * 4 + colour] = (
                            BOARD_SYMMETRIES[s][cell] * 8 + relative * 4 + perm[colour])
            for relative in range(2):
                for kind in range(2):
                    for colour in range(4):
                        for n in range(1, 4):
                            table[t, hand_feature(relative, kind, colour, n)] = hand_feature(
                                relative, kind, perm[colour], n)
    return table


def rows_used(inputs):
    """How many of the first layer's rows (inputs) the inputs `inputs` can turn on."""
    return {'pieces': NUM_FEATURES, 'patterns': 2 * NUM_PATTERNS,
            'both': NUM_FEATURES + 2 * NUM_PATTERNS}[inputs]


def active_features(records, inputs='pieces'):
    """The features on in each position: an int16 array [positions, 2, K], perspective 0 the
    side to move's and 1 the opponent's; inputs 'pieces' (K = 40), 'patterns' (K = 20, PADDING
    in the empty slots) or 'both' (K = 60)."""
    parts = []
    if inputs in ('pieces', 'both'):
        parts.append(piece_features(records))
    if inputs in ('patterns', 'both'):
        parts.append(pattern_features(records))
    if not parts:
        raise ValueError(f'unknown inputs {inputs}')
    return np.concatenate(parts, axis=2)


def pattern_features(records):
    """The pattern features of each position, [positions, 2, 20]."""
    raw = records['patterns'].astype(np.int64)
    empty = raw == 0xFFFF
    if np.any(raw[~empty] >= 2 * NUM_PATTERNS):
        raise ValueError('a pattern beyond the layout patterns-2')
    return np.where(empty, PADDING, PATTERN_BASE + raw).astype(np.int16)


def piece_features(records):
    """The piece features of each position: [positions, 2, 40], each row increasing."""
    n = len(records)
    out = np.zeros((n, 2, ACTIVE), dtype=np.int16)
    board = records['board'].astype(np.int64)
    hand = records['hand'].astype(np.int64).reshape(n, 2, 2, 4)  # player, kind, colour
    side = records['side'].astype(np.int64)
    occupied = board > 0
    colour = (board - 1) & 3
    owner = (board - 1) >> 2
    rows = np.arange(n)
    for view in range(2):
        player = side if view == 0 else 1 - side
        dense = np.zeros((n, NUM_FEATURES), dtype=bool)
        relative = (owner != player[:, None]).astype(np.int64)
        index = np.arange(NUM_CELLS)[None, :] * 8 + relative * 4 + colour
        r, c = np.nonzero(occupied)
        dense[r, index[r, c]] = True
        for relative_owner in range(2):
            holder = player if relative_owner == 0 else 1 - player
            for kind in range(2):
                for col in range(4):
                    left = hand[rows, holder, kind, col]
                    for k in range(1, 4):
                        dense[left >= k, hand_feature(relative_owner, kind, col, k)] = True
        counts = dense.sum(axis=1)
        if not np.all(counts == ACTIVE):
            raise ValueError('a position without exactly 40 pieces on the board and in hand')
        out[:, view, :] = np.nonzero(dense)[1].reshape(n, ACTIVE)
    return out
