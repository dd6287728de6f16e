// The review and replay pages of divercite-analyze and divercite-match (tools/review/
// review_page.html; review_page.h says what a page holds): everything drawn from the JSON in
// <script id="game"> and the board's skeleton in <template id="board-skeleton">. The pages
// carry it bundled with the modules it imports (web/pages/, made by scripts/bundle-pages.sh).

import { DiverciteBoard } from '../board.js';
import { MarginGraph } from './graph.js';
import { bindNavigation, plyOfHash } from './navigation.js';
import { clockText, pointsText, secondsText, signedPointsText } from './figures.js';

const game = JSON.parse(document.getElementById('game').textContent);
const analysis = game.analysis;
const review = game.review;
const moves = analysis.moves;
// Plies are the pieces on the board, as in the analysis (a game from a position string
// starts beyond 0): the page shows plies first to last; review's arrays start at first.
const first = review.first_ply;
const count = review.positions.length - 1;
const last = first + count;
const byId = (id) => document.getElementById(id);
const slider = byId('slider');
let ply = null;

// The board at ply first + at: its position, the move played outlined and, where the engine
// preferred another, the engine's best move as an arrow from the mover's side; `arrows`
// replaces that arrow (an alternative pointed at).
const board = DiverciteBoard.mount(byId('board'), byId('board-skeleton').innerHTML);
const mover = (k) => (moves[k].side === 'p1' ? 'first' : 'second');
function drawBoard(at, arrows) {
  const k = at - 1;
  const best = k >= 0 && review.moves[k].arrow
    ? [{move: review.moves[k].arrow, mover: mover(k), kind: 'best'}] : [];
  board.show(review.positions[at], {lastMove: k >= 0 ? moves[k].move : null,
                                    arrows: arrows || best, scores: review.scores[at]});
}

// Text helpers: centipoints as points, times (figures.js, as the arena's game page writes
// them), and elements built from text only.
const pts = pointsText;
const signed = signedPointsText;
const seconds = secondsText;
const clock = clockText;
const nameOf = (side) => (side === 'p1' ? analysis.p1 : analysis.p2);
const element = (tag, text, className) => {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (className) e.className = className;
  return e;
};
const badge = (text, className) => element('span', text, 'label ' + className);
const moveLabels = (k, into) => {
  if (review.moves[k].label) into.append(' ', badge(review.moves[k].label, review.moves[k].label));
  if (moves[k].result_changing) into.append(' ', badge('result-changing', 'result-changing'));
};

// Header and notes.
byId('title').textContent =
    (analysis.game !== null ? 'Game ' + analysis.game + ': ' : '') +
    analysis.p1 + ' (first) vs ' + analysis.p2 + ' (second)';
// A game that did not end on the board says how it ended, and its scores are the board's then.
byId('result').textContent = 'Result ' + analysis.result +
    (analysis.termination ? ' (' + analysis.termination + ')' : '') +
    ', scores ' + analysis.final[0] + '-' + analysis.final[1] +
    (analysis.termination ? ' when it ended' : '') +
    (analysis.start !== 'startpos' ? ' \u2014 start ' + analysis.start : '');
const settings = analysis.settings;
const t = review.thresholds;
byId('about').textContent = review.replay
    ? 'A replay of the record: the values are the scores the players reported with their ' +
      'moves (in points of final margin, exact where the mover said so), not an analysis: ' +
      'no points lost, labels or accuracy. divercite-analyze --records --game analyses it.'
    : 'Values in points of final margin. Exact (solved) with ' + settings.solve_plies +
    ' plies left or fewer; before that a search ' +
    (settings.movetime !== null ? 'of ' + settings.movetime + ' ms' : 'to depth ' + settings.depth) +
    '. Labels by points lost: inaccuracy \u2265 ' + pts(t.inaccuracy) + ', mistake \u2265 ' +
    pts(t.mistake) + ', blunder \u2265 ' + pts(t.blunder) +
    '; result-changing: the move gave a proven result away. Accuracy: 100 \u00D7 2^\u2212(points lost), ' +
    'averaged over a player\'s moves. The arrow: the engine\'s best move where the move played differs.';

// The margin graph: one point per move (the value after it), the first player's view, the
// plies of exact values shaded.
const colours = {inaccuracy: '#c9a000', mistake: '#f57c00', blunder: '#d32f2f'};
const graph = new MarginGraph(byId('graph'),
                              {width: 520, height: 180, left: 36, right: 10, top: 10, bottom: 22},
                              (target) => show(target));
const largest = Math.max(100, ...review.margins.map(Math.abs)) * 1.1;
const firstExact = first + review.exact.indexOf(true);
const grey = {'font-size': 10, fill: '#777'};
const points = graph.draw({
  first, last, limit: largest,
  shade: firstExact >= first ? {from: firstExact, to: last, attributes: {fill: '#eef6ee'}} : null,
  axis: {attributes: {stroke: '#999'}},
  valueLabels: {values: [largest / 1.1, -largest / 1.1], text: (cp) => signed(Math.round(cp)),
                attributes: grey},
  plyLabels: {step: 10, attributes: grey},
  lines: [{values: review.margins.map((cp, i) => [first + i, cp]),
           attributes: {fill: 'none', stroke: '#1f2936', 'stroke-width': 1.5}}],
  cursor: {ply: first, attributes: {class: 'cursor'}},
  points: moves.map((move, k) => {
    const label = review.moves[k].label;
    return {ply: move.ply + 1, value: review.margins[k + 1],
            attributes: {class: 'point', r: label ? 5 : 3.5,
                         fill: move.result_changing ? '#7b1fa2' : colours[label] || '#607d8b'},
            title: 'move ' + (move.ply + 1) + ' ' + move.move + ', lost ' + pts(move.loss)};
  }),
});
byId('graph-legend').textContent = 'Margin, the first player\'s view (up: ' + analysis.p1 +
    ' ahead); shaded: exact values. Click a point to go to its move.';

// The players' summary.
const players = byId('players');
const head = element('tr');
for (const text of ['', 'moves', 'points lost', 'accuracy', 'inacc.', 'mistakes', 'blunders'])
  head.append(element('th', text));
players.append(head);
for (const side of ['p1', 'p2']) {
  const summary = analysis.summary[side];
  const figures = review.players[side];
  const row = element('tr');
  row.append(element('td', summary.name + (side === 'p1' ? ' (first)' : ' (second)')),
             element('td', summary.moves), element('td', pts(summary.loss)),
             element('td', figures.accuracy === null ? '-' : figures.accuracy.toFixed(1)),
             element('td', figures.inaccuracies), element('td', figures.mistakes),
             element('td', figures.blunders));
  players.append(row);
  const notes = element('td');
  notes.colSpan = 7;
  notes.className = 'muted';
  const link = (p, text) => {
    const a = element('a', text, 'ply');
    a.href = '#ply=' + p;
    return a;
  };
  if (summary.mistakes.length) {
    notes.append('largest: ');
    summary.mistakes.forEach((m, i) => notes.append(i ? ', ' : '',
        link(m.ply + 1, 'move ' + (m.ply + 1) + ' ' + m.move + ' \u2212' + pts(m.loss) + ' (best ' + m.best + ')')));
  }
  for (const change of summary.result_changing) {
    notes.append(notes.childNodes.length ? '; ' : '',
                 link(change.ply + 1, 'move ' + (change.ply + 1) + ' ' + change.move + ': ' +
                      change.before + ' \u2192 ' + change.after));
  }
  if (notes.childNodes.length) {
    const notesRow = element('tr');
    notesRow.append(notes);
    players.append(notesRow);
  }
}

// The move list.
const list = byId('moves');
const hasTimes = review.moves.some((m) => m.ms !== null);
const hasClocks = review.moves.some((m) => m.clock !== null);
const listHead = element('tr');
for (const text of ['#', 'player', 'move', 'best', 'lost', ''].concat(
    hasTimes ? ['time'] : [], hasClocks ? ['clock'] : []))
  listHead.append(element('th', text));
list.append(listHead);
const rows = moves.map((move, k) => {
  const row = element('tr', null, 'move');
  const labels = element('td');
  if (move.opening) labels.append(element('span', 'opening', 'muted'));
  moveLabels(k, labels);
  row.append(element('td', move.ply + 1), element('td', nameOf(move.side)), element('td', move.move),
             element('td', move.best === move.move ? '=' : move.best),
             element('td', move.loss ? pts(move.loss) : ''), labels);
  if (hasTimes) row.append(element('td', review.moves[k].ms === null ? '' : seconds(review.moves[k].ms)));
  if (hasClocks) row.append(element('td', clock(review.moves[k].clock)));
  row.addEventListener('click', () => show(move.ply + 1));
  list.append(row);
  return row;
});

// The engine's top lines at move k (--multipv), each drawing its arrow on the board when
// pointed at or clicked; the board's own arrow comes back when the pointer leaves.
function alternatives(k, into) {
  const arrows = review.moves[k].arrows;
  if (!arrows) return;
  into.append(element('p', 'The engine\'s top ' + arrows.length + ' for ' +
                           nameOf(moves[k].side) + ' (point at one to draw it):'));
  const list = element('ol');
  list.id = 'alternatives';
  moves[k].lines.slice(0, arrows.length).forEach((line, i) => {
    const proven = line.proven ? ' proven ' + line.proven : '';
    const item = element('li', line.move + ' ' + signed(line.value) + (line.exact ? ' exact' : '') +
                               proven + (line.move === moves[k].move ? ' (played)' : ''),
                         'alternative');
    item.dataset.move = line.move;
    const draw = () => {
      drawBoard(k + 1, [{move: arrows[i], mover: mover(k), kind: 'alt'}]);
      for (const other of list.children) other.classList.toggle('drawn', other === item);
    };
    item.addEventListener('mouseenter', draw);
    item.addEventListener('click', draw);
    item.addEventListener('mouseleave', () => {
      drawBoard(k + 1);
      item.classList.remove('drawn');
    });
    list.append(item);
  });
  into.append(list);
}
// The current ply: board, its move, the graph's mark, the list's row, the URL.
function describe(into) {
  into.replaceChildren();
  const at = ply - first;
  const scores = review.scores[at];
  into.append(element('h2', at === 0 ? 'Start (ply ' + ply + ')' : 'Move ' + ply + ' of ' + last));
  if (at > 0) {
    const k = at - 1;
    const move = moves[k];
    const line = element('p');
    line.append(nameOf(move.side) + ' played ' + move.move);
    moveLabels(k, line);
    if (move.opening) line.append(' (opening)');
    into.append(line);
    const detail = move.best === move.move
        ? 'The engine\'s best move (' + signed(move.value) + ').'
        : 'Lost ' + pts(move.loss) + ' (' + signed(move.played) + ' against ' +
          signed(move.value) + ' for the engine\'s best move, ' + move.best + ', the arrow).';
    into.append(element('p', detail + (move.exact ? ' Exact.' : '')));
    alternatives(k, into);
    if (move.result_changing) {
      into.append(element('p', 'Result-changing: a proven ' + move.proven_before +
                               ' became a proven ' + move.proven_after + ' for ' + nameOf(move.side) + '.'));
    }
    if (review.moves[k].ms !== null) {
      into.append(element('p', 'Time ' + seconds(review.moves[k].ms) + '.'));
    }
  }
  into.append(element('p', 'Scores ' + scores[0] + '-' + scores[1] + '; margin ' +
                           signed(review.margins[at]) + ' for ' + analysis.p1 +
                           (review.exact[at] ? ' (exact)' : ' (search)') + '.'));
  const clocks = review.clocks[at];
  if (clocks[0] !== null || clocks[1] !== null) {
    into.append(element('p', 'Clocks: ' + analysis.p1 + ' ' + clock(clocks[0]) + ', ' +
                             analysis.p2 + ' ' + clock(clocks[1]) + '.'));
  }
  if (at < count) {
    into.append(element('p', 'Next: ' + nameOf(moves[at].side) + ' to move; the engine plays ' +
                             moves[at].best + '.', 'muted'));
  }
  if (review.app) {
    const link = element('a', 'Play from here in the app');
    link.id = 'play-in-app';
    link.href = appLink(at);
    const line = element('p');
    line.append(link);
    into.append(line);
  }
}

// The app's link to the game up to ply first + at (its start's position string first when
// it has one): the app opens it there, to play on.
function appLink(at) {
  const played = moves.slice(0, at).map((move) => move.move).join(',');
  const parts = analysis.start !== 'startpos' ? ['fen=' + encodeURIComponent(analysis.start)] : [];
  if (played || !parts.length) parts.push('moves=' + played);
  return review.app.split('#')[0] + '#' + parts.join('&');
}

function show(target) {
  const next = Math.max(first, Math.min(last, Number.isFinite(target) ? target : first));
  if (next !== ply) {
    if (ply !== null && ply > first) {
      points[ply - first - 1].classList.remove('current');
      rows[ply - first - 1].classList.remove('current');
    }
    ply = next;
    const at = ply - first;
    drawBoard(at);  // only this ply's pieces in the document
    slider.value = ply;
    byId('ply-text').textContent = 'ply ' + ply + ' / ' + last;
    graph.moveCursor(ply);
    if (at > 0) {
      points[at - 1].classList.add('current');
      rows[at - 1].classList.add('current');
      rows[at - 1].scrollIntoView({block: 'nearest'});
    }
    describe(byId('here'));
  }
  const hash = '#ply=' + ply;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

slider.min = first;
slider.max = last;
bindNavigation({at: () => ply, first: () => first, last: () => last, go: show, slider,
                buttons: {first: byId('first'), previous: byId('previous'), next: byId('next'),
                          last: byId('last')}});
window.addEventListener('hashchange', () => show(plyOfHash(location.hash) ?? first));
show(plyOfHash(location.hash) ?? first);
document.body.dataset.ready = 'true';
