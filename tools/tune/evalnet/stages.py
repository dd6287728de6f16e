"""Mean squared errors by stage of the game, as search/NOTES.md's tables print them."""

import numpy as np

STAGE_WIDTH = 8
STAGES = 5
HEADER = '| evaluation | 0-7 | 8-15 | 16-23 | 24-31 | 32-39 | all |'
RULE = '| --- | --- | --- | --- | --- | --- | --- |'


def stage_errors(ply, error):
    """Mean squared error of each stage (plies 0-7, ..., 32-39), then of all positions."""
    stage = np.asarray(ply) // STAGE_WIDTH
    squared = np.asarray(error, dtype=np.float64) ** 2
    by_stage = [squared[stage == k].mean() if np.any(stage == k) else float('nan')
                for k in range(STAGES)]
    return by_stage, squared.mean()


def row(name, ply, error):
    """A Markdown table row: the name, each stage's error, then all."""
    by_stage, total = stage_errors(ply, error)
    cells = ' | '.join(f'{value:.2f}' for value in by_stage)
    return f'| {name} | {cells} | {total:.3f} |'
