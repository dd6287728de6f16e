// A game on the arena's game page (python/divercite/arena/pages/templates/arena/game.html): a
// finished game's replay, or a game being played followed live (arena_live.js), its plies
// growing as it goes. The board, the move list, both clocks and the points, walked with the
// buttons, the keys (← →, Home, End), a click on a move, or a link to #ply-N; a live game
// shows each new move unless the viewer stepped back, ticks the mover's clock, and reloads
// into the replay once it ends. The arena serves it bundled with the modules it imports
// (web/pages/, made by scripts/bundle-pages.sh).
import {DiverciteBoard} from '../board.js';
import {followLive} from './arena_live.js';
import {clockText, counted} from './figures.js';
import {bindNavigation, plyOfHash} from './navigation.js';

const board = DiverciteBoard.mount(document.getElementById('board'),
                                   document.getElementById('skeleton').innerHTML);
const list = document.getElementById('moves');
const plyLabel = document.getElementById('ply');
let plies = [];  // {fen, move, clocks, scores}, the start first
let ply = 0;
const last = () => plies.length - 1;

function showClocks(clocks) {
  for (const side of [0, 1]) {
    document.querySelector(`.time[data-side="${side}"]`).textContent = clockText(clocks[side]);
  }
}

// The move list's entries for plies[from] on (the start has none).
function listMoves(from) {
  for (let index = Math.max(from, 1); index < plies.length; ++index) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move';
    button.textContent = plies[index].move;
    button.dataset.ply = String(index);
    button.addEventListener('click', () => show(index));
    item.appendChild(button);
    list.appendChild(item);
  }
}

function show(target) {
  if (plies.length === 0) return;
  ply = Math.max(0, Math.min(target, last()));
  const entry = plies[ply];
  board.show(entry.fen, {lastMove: entry.move, scores: entry.scores});
  showClocks(entry.clocks);
  for (const side of [0, 1]) {
    document.querySelector(`.points[data-side="${side}"]`).textContent =
      counted(entry.scores[side], 'point');
  }
  plyLabel.textContent = `${ply} / ${last()}`;
  for (const button of list.querySelectorAll('button.move')) {
    const current = Number(button.dataset.ply) === ply;
    button.classList.toggle('current', current);
    if (current) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
  }
  const current = list.querySelector('button.current');
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
}

const control = (name) => document.querySelector(`[data-go="${name}"]`);
bindNavigation({at: () => ply, first: () => 0, last, go: show,
                buttons: {first: control('start'), previous: control('back'),
                          next: control('forward'), last: control('end')}});
for (const link of document.querySelectorAll('a[data-ply]')) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    show(Number(link.dataset.ply));
  });
}

// A live game's new state: its new plies listed (all again if they changed under it), the
// newest shown when the viewer was at the newest, and who moves or how it ended.
function followed(state) {
  const atNewest = plies.length === 0 || ply === last();
  const before = plies.length;
  const grown = state.plies.length >= before &&
      (before === 0 || state.plies[before - 1].fen === plies[before - 1].fen);
  plies = state.plies;
  if (!grown) list.replaceChildren();
  listMoves(grown ? before : 1);
  if (atNewest || !grown) show(last());
  else plyLabel.textContent = `${ply} / ${last()}`;
  const names = [state.p1, state.p2];
  document.getElementById('live-status').textContent =
      state.end ? `Over: ${state.end.result} (${state.end.termination}); the replay follows.`
      : !state.started ? 'The engines are starting.'
      : `${names[state.to_move === 'p2' ? 1 : 0]} to move, followed live.`;
}

const replay = document.getElementById('replay-data');
if (replay) {
  plies = JSON.parse(replay.textContent).plies;
  listMoves(1);
  show(plyOfHash(window.location.hash, '-') ?? last());
} else {
  followLive(JSON.parse(document.getElementById('live-data').textContent),
             document.getElementById('replay').dataset.live, {
               onState: followed,
               onClocks: (clocks, mover) => {
                 // The clocks now at the newest ply; a ply stepped back to shows its own.
                 if (ply === last()) showClocks(clocks);
                 for (const side of [0, 1]) {
                   document.querySelector(`.clock[data-side="${side}"]`)
                       .classList.toggle('running', side === mover);
                 }
               },
               onEnded: () => window.location.reload(),
             });
}
