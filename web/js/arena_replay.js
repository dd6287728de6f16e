// A finished game's replay on the arena's game page (python/divercite/arena/templates/arena/
// game.html): the board, the move list, both clocks and the points, walked with the buttons,
// the keys (← →, Home, End), a click on a move, or a link to #ply-N. The arena serves it
// bundled with the modules it imports (web/pages/, made by scripts/bundle-pages.sh).
import {DiverciteBoard} from '../board.js';
import {bindNavigation, plyOfHash} from './navigation.js';

const data = JSON.parse(document.getElementById('replay-data').textContent);
const board = DiverciteBoard.mount(document.getElementById('board'),
                                   document.getElementById('skeleton').innerHTML);
const list = document.getElementById('moves');
const plyLabel = document.getElementById('ply');
let ply = data.plies.length - 1;

function clockText(ms) {
  const seconds = Math.max(ms, 0) / 1000;
  if (seconds >= 60) {
    const minutes = Math.floor(seconds / 60);
    return `${minutes}:${String(Math.floor(seconds - minutes * 60)).padStart(2, '0')}`;
  }
  return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
}

data.plies.slice(1).forEach((entry, index) => {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'move';
  button.textContent = entry.move;
  button.dataset.ply = String(index + 1);
  button.addEventListener('click', () => show(index + 1));
  item.appendChild(button);
  list.appendChild(item);
});

function show(target) {
  ply = Math.max(0, Math.min(target, data.plies.length - 1));
  const entry = data.plies[ply];
  board.show(entry.fen, {lastMove: entry.move, scores: entry.scores});
  for (const side of [0, 1]) {
    document.querySelector(`.time[data-side="${side}"]`).textContent = clockText(entry.clocks[side]);
    document.querySelector(`.points[data-side="${side}"]`).textContent = `${entry.scores[side]} pts`;
  }
  plyLabel.textContent = `${ply} / ${data.plies.length - 1}`;
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
bindNavigation({at: () => ply, first: () => 0, last: () => data.plies.length - 1, go: show,
                buttons: {first: control('start'), previous: control('back'),
                          next: control('forward'), last: control('end')}});
for (const link of document.querySelectorAll('a[data-ply]')) {
  link.addEventListener('click', (event) => {
    event.preventDefault();
    show(Number(link.dataset.ply));
  });
}
show(plyOfHash(window.location.hash, '-') ?? ply);
