"""The training loop: mean squared error to the label, AdamW with a cosine schedule, each
position seen under a random one of the game's 192 symmetries (features.transform_table)."""

import math
import time

import numpy as np
import torch


def predict(network, features, batch=16384):
    """The network's output (without the base) for [n, 2, 40] feature indices."""
    network.eval()
    out = []
    with torch.no_grad():
        for k in range(0, len(features), batch):
            out.append(network(torch.from_numpy(features[k:k + batch].astype(np.int64))))
    network.train()
    return torch.cat(out).numpy()


def train(network, features, target, epochs, batch, learning_rate, weight_decay, remap,
          seed, log=print, evaluate=None):
    """Fits network(features) to target ([n] points: the label minus the base).

    remap: the transforms' feature tables ([t, features]), or None for no augmentation.
    evaluate(epoch): called every few epochs for a progress line.
    """
    generator = torch.Generator().manual_seed(seed)
    features_t = torch.from_numpy(features.astype(np.int64))
    target_t = torch.from_numpy(target.astype(np.float32))
    remap_t = None if remap is None else torch.from_numpy(remap)
    optimiser = torch.optim.AdamW(network.parameters(), lr=learning_rate,
                                  weight_decay=weight_decay)
    steps_per_epoch = math.ceil(len(target) / batch)
    total_steps = epochs * steps_per_epoch

    def cosine(step):
        return 0.5 * (1 + math.cos(math.pi * min(step, total_steps) / total_steps))

    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, cosine)
    start = time.time()
    for epoch in range(epochs):
        order = torch.randperm(len(target), generator=generator)
        total = 0.0
        for k in range(0, len(target), batch):
            rows = order[k:k + batch]
            x = features_t[rows]
            if remap_t is not None:
                t = torch.randint(len(remap_t), (len(rows),), generator=generator)
                x = remap_t[t[:, None, None], x]
            loss = torch.mean((network(x) - target_t[rows]) ** 2)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            network.clip_weights()
            total += loss.item() * len(rows)
        if evaluate is not None and (epoch + 1) % max(1, epochs // 8) == 0:
            log(f'  epoch {epoch + 1}/{epochs}: training loss {total / len(target):.3f}, '
                f'{evaluate()}, {time.time() - start:.0f} s')
