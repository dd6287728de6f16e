// The app's entry: the rules module and the engine's worker started together, then the
// page's state, controls and API.

import { App } from './app.js';
import { publish } from './api.js';
import { bindControls, loadFromHash } from './controls.js';
import { Engine } from './engine.js';
import { loadRules } from './rules.js';

async function main() {
  const engine = new Engine('engine-worker.js');
  const [rules] = await Promise.all([loadRules(), engine.start()]);
  await engine.setOption('Threads', Math.max(1, Math.min(
    navigator.hardwareConcurrency || 1, engine.option('Threads')?.max ?? 1)));
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
