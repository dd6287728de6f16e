// The margin graph of the game so far: the score margin (first player minus second) after
// each ply, and the engine's value of each position analysed (the final margin it expects,
// first player's view), both in points; a click picks a ply.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 520;
const HEIGHT = 160;
const PAD = 22;

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  parent?.append(node);
  return node;
}

export class MarginGraph {
  constructor(svg, onPick) {
    this.svg = svg;
    svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
    svg.addEventListener('click', (event) => {
      if (!this.plies) return;
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * WIDTH;
      const ply = Math.round(((x - PAD) / (WIDTH - 2 * PAD)) * this.plies);
      onPick(Math.max(0, Math.min(this.plies, ply)));
    });
  }

  // margins[k], values[k] (points or null) for plies 0..n of the game; `cursor` the ply shown.
  draw(margins, values, cursor) {
    this.plies = margins.length - 1;
    this.svg.replaceChildren();
    const known = [...margins, ...values.filter((v) => v !== null && v !== undefined)];
    const top = Math.max(4, ...known.map(Math.abs));
    const x = (k) => PAD + (this.plies ? (k / this.plies) * (WIDTH - 2 * PAD) : 0);
    const y = (v) => HEIGHT / 2 - (v / top) * (HEIGHT / 2 - 10);
    element('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT / 2, class: 'first-half' }, this.svg);
    element('line', { x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0), class: 'axis' }, this.svg);
    element('text', { x: 2, y: 12, class: 'label' }, this.svg).textContent = `+${top}`;
    element('text', { x: 2, y: HEIGHT - 3, class: 'label' }, this.svg).textContent = `-${top}`;
    element('polyline', {
      class: 'margin', points: margins.map((m, k) => `${x(k)},${y(m)}`).join(' '),
    }, this.svg);
    const evaluated = values.map((v, k) => [v, k]).filter(([v]) => v !== null && v !== undefined);
    if (evaluated.length > 1) {
      element('polyline', {
        class: 'value', points: evaluated.map(([v, k]) => `${x(k)},${y(v)}`).join(' '),
      }, this.svg);
    }
    for (const [v, k] of evaluated) {
      element('circle', { cx: x(k), cy: y(v), r: 3, class: 'point', 'data-ply': k }, this.svg);
    }
    element('line', { x1: x(cursor), x2: x(cursor), y1: 0, y2: HEIGHT, class: 'cursor' }, this.svg);
  }
}
