// What the page shows of the app's state: the board, the players (name, score, clock, the
// pieces each has left), the status line and the result with the tie-break explained, the
// move list, the engine's lines and the margin graph.

import { DiverciteBoard } from '../board.js';
import { firstView } from './game.js';
import { MarginGraph } from './graph.js';

const $ = (id) => document.getElementById(id);
const COLOURS = ['R', 'G', 'B', 'Y'];
const COLOUR_NAMES = { R: 'red', G: 'green', B: 'blue', Y: 'yellow' };
const SIDES = ['first', 'second'];
const GRAPH_FRAME = { width: 520, height: 160, left: 30, right: 30, top: 10, bottom: 10 };

// The board and the margin graph, placed in the page: a click on a cell, a point of the graph.
export function mountViews(skeleton, onCellClick, onPly) {
  const board = DiverciteBoard.mount($('board'), skeleton);
  board.onCellClick = onCellClick;
  return { board, graph: new MarginGraph($('graph'), GRAPH_FRAME, onPly) };
}

// The how-to, unfolded or folded.
export function showHowTo(open) {
  $('how-to').open = open;
}

// The how-to's picture: a position drawn by the board (its moves' last outlined), without
// the ids of the skeleton's definitions, which are the main board's.
export function mountHowTo(skeleton, fen, lastMove) {
  const board = DiverciteBoard.mount($('how-to-board'), skeleton);
  for (const element of $('how-to-board').querySelectorAll('[id]')) element.removeAttribute('id');
  board.show(fen, { lastMove });
}

export function renderPage(app) {
  const game = app.game;
  const state = game.current;
  const last = game.cursor > 0 ? game.moves[game.cursor - 1] : null;
  const humanToMove = app.humanToMove();
  const legal = app.selected && humanToMove
    ? state.legal.filter((m) => m.startsWith(app.selected)).map((m) => m.slice(2)) : [];
  const arrows = app.analysing ? app.lines.slice(0, 3).filter((l) => l.move).map((l, k) => ({
    move: l.move, mover: state.side, kind: k === 0 ? 'best' : 'alt', rank: k + 1,
  })) : [];
  app.board.show(state.fen, { lastMove: last, arrows, legal });
  renderPlayers(app, state);
  renderStatus(app, state);
  renderMoves(app);
  renderAnalysis(app, state);
  const margins = [];
  for (let k = 0; k <= game.moves.length; k += 1) {
    const s = game.stateAt(k).scores;
    margins.push(s[0] - s[1]);
  }
  drawGraph(app.graph, margins, game.values.map((v) => (v === undefined ? null : v / 100)),
    game.cursor);
  $('ply-text').textContent = `${game.cursor} / ${game.moves.length}`;
  app.writeHash();
}

// The graph: the score margin after each ply (first player minus second) and the engine's
// value of each position analysed (the final margin it expects, first player's view), in
// points; the cursor at the ply shown.
function drawGraph(graph, margins, values, cursor) {
  const evaluated = values.map((value, ply) => [ply, value]).filter(([, value]) => value !== null);
  const limit = Math.max(4, ...margins.map(Math.abs), ...evaluated.map(([, v]) => Math.abs(v)));
  graph.draw({
    first: 0, last: margins.length - 1, limit,
    upperHalf: { attributes: { class: 'first-half' } },
    axis: { attributes: { class: 'axis' } },
    valueLabels: { values: [limit, -limit], text: (v) => (v > 0 ? `+${v}` : `${v}`),
      attributes: { class: 'label' } },
    lines: [{ values: margins.map((margin, ply) => [ply, margin]), attributes: { class: 'margin' } },
      ...(evaluated.length > 1 ? [{ values: evaluated, attributes: { class: 'value' } }] : [])],
    cursor: { ply: cursor, attributes: { class: 'cursor' } },
    points: evaluated.map(([ply, value]) => ({ ply, value, attributes: { class: 'point', r: 3 } })),
  });
}

// The players' boxes, top and bottom, with the side each shows (the board may be flipped).
function playerBoxes(app) {
  const flipped = app.board.flipped;
  return [[$('player-top'), flipped ? 'first' : 'second'],
    [$('player-bottom'), flipped ? 'second' : 'first']];
}

// The clocks alone: what a clock's tick redraws.
export function renderClocks(app) {
  for (const [element, side] of playerBoxes(app)) {
    element.querySelector('.clock').textContent = app.clock ? app.clock.text(side) : '';
  }
}

function renderPlayers(app, state) {
  renderClocks(app);
  for (const [element, side] of playerBoxes(app)) {
    const index = SIDES.indexOf(side);
    const who = app.human[side] ? 'you' : app.engineName();
    element.querySelector('.name').textContent =
      `${side === 'first' ? 'First (white)' : 'Second (dark)'}: ${who}`;
    element.querySelector('.score').textContent = state.scores[index];
    element.classList.toggle('to-move', state.result === '*' && state.side === side);
    const supply = element.querySelector('.supply');
    supply.replaceChildren();
    for (const kind of ['city', 'resource']) {
      for (const colour of COLOURS) {
        const left = state.supply[side][kind][colour];
        const piece = `${colour}${kind === 'city' ? 'C' : 'R'}`;
        const button = document.createElement('button');
        button.className = `supply-piece ${kind} colour-${colour} owner-${side}`;
        button.dataset.piece = piece;
        button.title = `${COLOUR_NAMES[colour]} ${kind}: ${left} left`;
        button.textContent = `${left}`;
        button.disabled = left === 0 || side !== state.side || !app.humanToMove();
        button.classList.toggle('selected', app.selected === piece && side === state.side);
        button.onclick = () => app.selectPiece(piece);
        supply.append(button);
      }
    }
  }
}

function renderStatus(app, state) {
  const status = $('status');
  $('tiebreak').textContent = state.result !== '*' && state.tiebreak
    ? tiebreakText(state.tiebreak) : '';
  if (state.result !== '*') {
    const [a, b] = state.scores;
    const winner = state.result === '1-0' ? 'The first player wins'
      : state.result === '0-1' ? 'The second player wins' : 'A draw';
    status.textContent = `${winner}, ${a}-${b}.`;
  } else if (app.clock?.flagged) {
    status.textContent = `${app.clock.flagged === 'first' ? 'First' : 'Second'} player ` +
      'lost on time.';
  } else {
    const who = app.humanToMove() ? 'your move' : app.thinking ? 'the engine thinks…'
      : 'the engine to move';
    status.textContent = `Ply ${state.ply}, ${state.side} player to move: ${who}.`;
  }
}

function renderMoves(app) {
  const list = $('moves');
  list.replaceChildren();
  app.game.moves.forEach((move, k) => {
    const item = document.createElement('li');
    item.textContent = move;
    item.className = 'move';
    item.dataset.ply = k + 1;
    item.classList.toggle('current', k + 1 === app.game.cursor);
    item.onclick = () => app.goTo(k + 1);
    list.append(item);
  });
  // The move shown scrolled into the list's view, inside the list only: the page itself
  // never scrolls by itself (on a phone that would take the board off the screen).
  const current = list.querySelector('.current');
  if (current) {
    const box = list.getBoundingClientRect();
    const item = current.getBoundingClientRect();
    if (item.top < box.top) list.scrollTop -= box.top - item.top;
    else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom;
  }
}

function renderAnalysis(app, state) {
  $('analyse').classList.toggle('on', app.analysing);
  $('analyse').textContent = app.analysing ? 'Stop analysis' : 'Analyse';
  $('arrow-legend').hidden = !app.analysing;
  const box = $('lines');
  box.replaceChildren();
  if (!app.analysing) return;
  for (const line of app.lines) {
    const item = document.createElement('li');
    item.className = 'line';
    item.textContent = `${lineText(line, state.side)}  ${(line.pv ?? []).join(' ')}`;
    item.title = `${line.nodes ?? '?'} nodes`;
    box.append(item);
  }
  if (!app.lines.length) box.textContent = state.result === '*' ? 'thinking…' : '';
}

// Who plays which side in the next new game, as the side box shows it: 'first', 'second'
// or 'both'.
export function showSideChoice(side) {
  $('side').value = side;
}

// A text given to the user in the page's text box (a position string, a move list).
export function showText(text) {
  $('io-text').value = text;
}

// The confirmation of a copy, gone after a few seconds.
export function showCopied(text) {
  const box = $('copied');
  box.textContent = text;
  clearTimeout(showCopied.timer);
  showCopied.timer = setTimeout(() => { box.textContent = ''; }, 4000);
}

export function showMessage(text, kind = 'info') {
  const box = $('message');
  box.textContent = text;
  box.className = kind;
}

// A line's value in points from the first player's view (the engine gives the mover's),
// as the graph shows it, with what the engine knows of it: its depth, a bound, exact, or the
// result proven.
function lineText(line, side) {
  if (line.score === undefined) return '…';
  const score = firstView(line.score, side);
  const points = `${score > 0 ? '+' : ''}${(score / 100).toFixed(2)}`;
  // A bound turns over with the view.
  const turned = side !== 'first';
  const bound = { lower: turned ? '≤' : '≥', upper: turned ? '≥' : '≤' }[line.bound] ?? '';
  const other = side === 'first' ? 'second' : 'first';
  const proven = { win: `proven: ${side} player wins`, loss: `proven: ${other} player wins`,
    draw: 'proven: a draw' }[line.proven] ?? (line.proven ? `proven ${line.proven}` : '');
  const marks = [line.depth !== undefined ? `depth ${line.depth}` : '',
    line.exact ? 'exact' : '', proven].filter(Boolean).join(', ');
  return `${bound}${points}${marks ? ` (${marks})` : ''}`;
}

// The course's last-move tie-break, step by step (rules_api.h: the steps the rules took).
function tiebreakText(tiebreak) {
  const rules = {
    divercites: 'divercité cities',
    'own colour 4': 'cities with 4 resources of their colour',
    'own colour 3': 'cities with 3 resources of their colour',
    'own colour 2': 'cities with 2 resources of their colour',
  };
  const steps = (tiebreak.steps ?? []).map((step) => {
    if (step.rule === 'first player') {
      return 'then +1 to the first player whatever came before (a quirk of the course code)';
    }
    const counts = step.counts ? ` ${step.counts[0]}-${step.counts[1]}` : '';
    const point = step.point ? `+1 to the ${step.point} player` : 'no point';
    return `${rules[step.rule] ?? step.rule}${counts}: ${point}`;
  });
  const before = tiebreak.before ? ` at ${tiebreak.before.join('-')}` : '';
  return `Level${before} after the 40th move, so the course's tie-break: ${steps.join('; ')}.`;
}
