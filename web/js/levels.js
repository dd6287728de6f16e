// The opponents the page offers, weakest first: the course's own agents (replicas, through
// the engine's `Agent` option), then our engine at growing time per move, then on a clock.

// What a new visitor plays against.
export const DEFAULT_LEVEL = 'Engine, 100 ms a move';

export const LEVELS = [
  { name: 'Random (course agent)', agent: 'random', limits: { movetime: 50 } },
  { name: 'Greedy (course agent)', agent: 'greedy', limits: { movetime: 50 } },
  { name: 'Engine, 10 ms a move', limits: { movetime: 10 } },
  { name: 'skypiea_v5 (the course\'s best agent)', agent: 'skypiea_v5', limits: { movetime: 20000 } },
  { name: 'Engine, 100 ms a move', limits: { movetime: 100 } },
  { name: 'Engine, 1 s a move', limits: { movetime: 1000 } },
  { name: 'Engine, 5 min each', clock: { ms: 5 * 60000, incrementMs: 0 } },
  { name: 'Engine, the course clock (15 min each)', clock: { ms: 15 * 60000, incrementMs: 0 } },
];

// The `go` limits of a level's move: a fixed time, or the clocks as they stand.
export function levelLimits(level, clock) {
  if (!level.clock || !clock) return { ...level.limits };
  const [first, second] = [clock.left('first'), clock.left('second')];
  const limits = { wtime: Math.max(1, Math.round(first)), btime: Math.max(1, Math.round(second)) };
  if (level.clock.incrementMs) {
    Object.assign(limits, { winc: level.clock.incrementMs, binc: level.clock.incrementMs });
  }
  return limits;
}
