// The margin graph of a game, the same on every page that shows one (the app, the review and
// replay pages): values over the plies, up for the first player ahead, the ply shown as a
// cursor; a click picks a ply (a point's own, or the nearest to the click). What the values
// are (the score margin, the engine's or the analysis's value of the game) and how each part
// looks is the page's: it gives each part's SVG attributes (classes, or colours).

const SVG = 'http://www.w3.org/2000/svg';

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  parent.append(node);
  return node;
}

export class MarginGraph {
  // `frame`: the drawing's width and height, and its margins around the plot (left, right,
  // top, bottom), in the SVG's own units.
  constructor(svg, frame, onPick) {
    this.svg = svg;
    this.frame = frame;
    this.first = 0;
    this.last = 0;
    svg.setAttribute('viewBox', `0 0 ${frame.width} ${frame.height}`);
    svg.addEventListener('click', (event) => {
      const point = event.target.closest('.point[data-ply]');
      if (point) return onPick(Number(point.getAttribute('data-ply')));
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) * frame.width) / box.width;
      const ply = this.first + Math.round(((x - frame.left) * this.span()) / this.plotWidth());
      return onPick(Math.max(this.first, Math.min(this.last, ply)));
    });
  }

  span() { return Math.max(1, this.last - this.first); }

  plotWidth() { return this.frame.width - this.frame.left - this.frame.right; }

  x(ply) { return this.frame.left + ((ply - this.first) * this.plotWidth()) / this.span(); }

  // Values up to `limit` (in size) fill the plot's height.
  y(value) {
    const { height, top, bottom } = this.frame;
    return top + (height - top - bottom) * (1 - (value / this.limit + 1) / 2);
  }

  // The chart, drawn anew (its parts in this order, each optional but the plies and limit):
  //   first, last       the plies across;  limit  the largest value drawn, top and bottom
  //   upperHalf         the upper half of the drawing tinted: {attributes}
  //   shade             plies from..to over the plot's height: {from, to, attributes}
  //   axis              the zero line: {attributes}
  //   valueLabels       values written left of the plot: {values, text(value), attributes}
  //   plyLabels         every `step` plies, below the plot: {step, attributes}
  //   lines             polylines: [{values: [[ply, value], ...], attributes}]
  //   cursor            the ply shown (moved by moveCursor): {ply, attributes}
  //   points            [{ply, value, attributes, title}], each with its data-ply
  // Returns the points' elements, in the order given.
  draw(chart) {
    const { width, height, left, right, top, bottom } = this.frame;
    Object.assign(this, { first: chart.first, last: chart.last, limit: chart.limit });
    this.svg.replaceChildren();
    const add = (name, attributes) => element(name, attributes, this.svg);
    if (chart.upperHalf) {
      add('rect', { x: 0, y: 0, width, height: height / 2, ...chart.upperHalf.attributes });
    }
    if (chart.shade) {
      const from = this.x(chart.shade.from);
      add('rect', { x: from, y: top, width: this.x(chart.shade.to) - from,
        height: height - top - bottom, ...chart.shade.attributes });
    }
    if (chart.axis) {
      add('line', { x1: left, x2: width - right, y1: this.y(0), y2: this.y(0),
        ...chart.axis.attributes });
    }
    for (const value of chart.valueLabels?.values ?? []) {
      add('text', { x: left - 4, y: this.y(value) + 4, 'text-anchor': 'end',
        ...chart.valueLabels.attributes }).textContent = chart.valueLabels.text(value);
    }
    if (chart.plyLabels) {
      const step = chart.plyLabels.step;
      for (let ply = Math.ceil(this.first / step) * step; ply <= this.last; ply += step) {
        add('text', { x: this.x(ply), y: height - 6, 'text-anchor': 'middle',
          ...chart.plyLabels.attributes }).textContent = ply;
      }
    }
    for (const line of chart.lines ?? []) {
      add('polyline', {
        points: line.values.map(([ply, value]) => `${this.x(ply)},${this.y(value)}`).join(' '),
        ...line.attributes,
      });
    }
    this.cursor = chart.cursor
      ? add('line', { y1: top, y2: height - bottom, ...chart.cursor.attributes }) : null;
    if (chart.cursor) this.moveCursor(chart.cursor.ply);
    return (chart.points ?? []).map((point) => {
      const circle = add('circle', { cx: this.x(point.ply), cy: this.y(point.value),
        ...point.attributes, 'data-ply': point.ply });
      if (point.title) element('title', {}, circle).textContent = point.title;
      return circle;
    });
  }

  moveCursor(ply) {
    this.cursor.setAttribute('x1', this.x(ply));
    this.cursor.setAttribute('x2', this.x(ply));
  }
}
