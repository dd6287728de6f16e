// Times and points as the pages about a game write them, one rounding for all: the review and
// replay pages of divercite-analyze and divercite-match (review_page.js) and the arena's game
// page (arena_replay.js) show a clock, a move's time and a loss of points alike (the arena's
// own text: python/divercite/arena/wording.py, the same points).

// A clock: minutes, seconds and tenths, the tenths rounded (9.96 s left is 0:10.0), a clock
// past its end with a minus.
export function clockText(ms) {
  if (ms === null || ms === undefined) return '-';
  const tenths = Math.round(Math.abs(ms) / 100);
  const minutes = Math.floor(tenths / 600);
  const rest = ((tenths % 600) / 10).toFixed(1).padStart(4, '0');
  return (ms < 0 && tenths > 0 ? '\u2212' : '') + minutes + ':' + rest;
}

// A move's time: hundredths under 10 s, tenths above.
export const secondsText = (ms) => (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';

// Centipoints as points, to two decimals; signed: with its sign (± for none).
export const pointsText = (cp) => (cp / 100).toFixed(2);
export const signedPointsText = (cp) =>
  (cp > 0 ? '+' : cp < 0 ? '\u2212' : '\u00B1') + Math.abs(cp / 100).toFixed(2);

// A count and its noun, in the plural unless it is one: 1 point, 0 points, 12 points.
export const counted = (count, noun, plural = noun + 's') =>
  `${count} ${count === 1 ? noun : plural}`;
