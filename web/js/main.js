// The app's entry: the rules module and the engine's worker started together, then the
// page's state, controls and API.

import { App } from './app.js';
import { publish } from './api.js';
import { bindControls, loadFromHash } from './controls.js';
import { Engine } from './engine.js';
import { loadRules } from './rules.js';
import { mountHowTo, showHowTo } from './view.js';

// The how-to's picture: a red city of the first player among four resources of four
// colours, a divercité worth 5.
const DIVERCITE = ['RC43', 'RR33', 'GR53', 'BR42', 'YR44'];
const SEEN = 'divercite.how-to-seen';

// Whether this browser has opened the page before (it remembers from now on); a browser
// that keeps nothing counts as a first visit.
function visitedBefore() {
  try {
    const seen = localStorage.getItem(SEEN) === '1';
    localStorage.setItem(SEEN, '1');
    return seen;
  } catch {
    return false;
  }
}

async function main() {
  showHowTo(!visitedBefore());  // before anything loads: the page does not jump
  const engine = new Engine('engine-worker.js');
  const [rules] = await Promise.all([loadRules(), engine.start()]);
  await engine.setOption('Threads', Math.max(1, Math.min(
    navigator.hardwareConcurrency || 1, engine.option('Threads')?.max ?? 1)));
  mountHowTo(rules.skeleton(), rules.state('startpos', DIVERCITE).fen, DIVERCITE.at(-1));
  const app = new App(rules, engine);
  bindControls(app);
  publish(app);
  // The link's game first: a first drawing would write the empty game's link over it.
  if (!(await loadFromHash(app))) app.render();
  window.divercite.ready = true;  // the link's game, if any, loaded
  document.body.classList.add('ready');
  document.getElementById('engine-name').textContent = `${engine.name ?? 'divercite'} · ` +
    `${crossOriginIsolated ? `${engine.option('Threads')?.max ?? 1} threads` : 'one thread'}`;
}

main().catch((error) => {
  const box = document.getElementById('message');
  box.textContent = `The page could not start: ${error.message}`;
  box.className = 'error';
  console.error(error);
});
