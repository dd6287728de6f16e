// The page's controls: buttons, the move box, loading by file or drag-and-drop, the keys,
// and games given as links (`#moves=RC14,GR04,...`, `#fen=<position string>`, or both).

import { DEFAULT_LEVEL, LEVELS } from './levels.js';
import { bindNavigation } from './navigation.js';

const $ = (id) => document.getElementById(id);

export function bindControls(app) {
  const level = () => LEVELS[Number($('level').value)];
  $('new-game').onclick = () => app.newGame($('side').value, level());
  $('play-here').onclick = () => app.playFromHere($('side').value, level());
  // A side or level chosen applies at once, to the game shown.
  $('side').onchange = () => app.choosePlayers($('side').value, level());
  $('level').onchange = () => app.choosePlayers($('side').value, level());
  $('take-back').onclick = () => app.takeBack();
  $('flip').onclick = () => {
    app.board.setFlipped(!app.board.flipped);
    app.render();
  };
  $('analyse').onclick = () => app.toggleAnalysis();
  bindNavigation({
    at: () => app.game.cursor, first: () => 0, last: () => app.game.moves.length,
    go: (ply) => app.goTo(ply),
    buttons: { first: $('first'), previous: $('previous'), next: $('next'), last: $('last') },
  });
  $('move-form').onsubmit = (event) => {
    event.preventDefault();
    const move = $('move-input').value.trim().toUpperCase();
    app.humanMove(move).then(() => { $('move-input').value = ''; })
      .catch((error) => app.message(error.message, 'error'));
  };
  $('load').onclick = () => app.loadText($('io-text').value)
    .catch((error) => app.message(error.message, 'error'));
  $('file').onchange = async () => {
    const file = $('file').files[0];
    if (file) app.loadText(await file.text()).catch((e) => app.message(e.message, 'error'));
  };
  $('save-moves').onclick = () => app.save('moves');
  $('save-fen').onclick = () => app.save('fen');
  $('save-recording').onclick = () => app.save('recording');
  $('copy-link').onclick = () => app.copy('link');
  $('copy-position').onclick = () => app.copy('position');
  document.addEventListener('dragover', (event) => event.preventDefault());
  document.addEventListener('drop', async (event) => {
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    const text = file ? await file.text() : event.dataTransfer.getData('text');
    app.loadText(text).catch((error) => app.message(error.message, 'error'));
  });
  window.addEventListener('hashchange', () => {
    if (location.hash !== app.hash) loadFromHash(app);
  });
  for (const [k, level] of LEVELS.entries()) {
    const option = document.createElement('option');
    option.value = k;
    option.textContent = level.name;
    $('level').append(option);
  }
  $('level').value = LEVELS.findIndex((level) => level.name === DEFAULT_LEVEL);
}

// `#moves=RC14,GR04,...`, `#fen=<position string>`, or both joined by `&`; moves in any
// case.
function gameOfHash(hash) {
  const fields = new URLSearchParams(hash.replace(/^#/, ''));
  if (!fields.has('moves') && !fields.has('fen')) return null;
  const moves = (fields.get('moves') ?? '').split(/[,\s]+/).filter(Boolean)
    .map((move) => move.toUpperCase());
  return { fen: fields.get('fen') ?? 'startpos', moves, label: 'the game of the link' };
}

// Loads the link's game, if the URL has one, leaving the address as it is; resolves with
// whether it had. A move that does not play is named, and the moves before it are loaded; a
// bad position is reported on the page, and the link counts as none.
export async function loadFromHash(app) {
  const game = gameOfHash(location.hash);
  if (!game) return false;
  try {
    await app.load(game, { keepAddress: true });
    return true;
  } catch (error) {
    if (!Number.isInteger(error.at)) {
      app.message(`The link's game: ${error.message}`, 'error');
      return false;
    }
    await app.load({ ...game, moves: game.moves.slice(0, error.at) }, { keepAddress: true });
    const before = error.at === 1 ? 'the move before it is' : `the ${error.at} moves before it are`;
    app.message(`The link's game: ${error.message}; ${error.at ? before : 'nothing is'} loaded.`,
      'error');
    return true;
  }
}
