// The pages about a game write a clock, a move's time and points one way (web/js/figures.js):
// the review and replay pages and the arena's game page import the same functions. A clock's
// tenths are rounded, a clock past its end has a minus; points have two decimals, as the
// arena's Python writes them (python/divercite/arena/wording.py); a count's noun is singular
// for one only.
//
//   node tests/web/figures_js_test.mjs
import {
  clockText, counted, pointsText, secondsText, signedPointsText,
} from '../../web/js/figures.js';

let failures = 0;
function same(got, expected, what) {
  if (got !== expected) {
    failures += 1;
    process.stderr.write(`FAILED: ${what}: ${JSON.stringify(got)}, not ${JSON.stringify(expected)}\n`);
  }
}

same(clockText(900000), '15:00.0', 'a full clock');
same(clockText(61049), '1:01.0', 'tenths rounded down');
same(clockText(9960), '0:10.0', 'tenths rounded up to the next second');
same(clockText(59999), '1:00.0', 'tenths rounded up to the next minute');
same(clockText(0), '0:00.0', 'an empty clock');
same(clockText(-1500), '\u22120:01.5', 'a clock past its end');
same(clockText(-20), '0:00.0', 'less than a tenth past its end');
same(clockText(null), '-', 'no clock');
same(secondsText(1234), '1.23 s', "a move's time under 10 s");
same(secondsText(12345), '12.3 s', "a move's time above");
same(pointsText(150), '1.50', 'points from centipoints');
same(pointsText(7), '0.07', 'a few centipoints');
same(signedPointsText(-250), '\u22122.50', 'a loss, signed');
same(signedPointsText(0), '\u00B10.00', 'nothing, signed');
same(counted(1, 'point'), '1 point', 'one point');
same(counted(0, 'point'), '0 points', 'no point');
same(counted(12, 'point'), '12 points', 'points');
same(counted(2, 'entry', 'entries'), '2 entries', 'a plural of its own');
if (failures) process.exit(1);
console.log('PASSED');
