// The Divercité board in a page: drawn once from its skeleton, the SVG that C++ draws
// (tools/board_svg: BoardSkeletonSvg, the cells and, in its <defs>, a template of every piece,
// of the last move's outline and of an arrow per colour), then filled in from position strings.
// One module for the app, the review pages (divercite-analyze --html) and the match report's
// replay pages (divercite-match -html); the drawing itself stays in C++: this file places
// clones of the skeleton's templates and knows no colour, size or coordinate of its own.
//
// An ES module with no dependency, exporting DiverciteBoard: the app imports it; the C++ page
// writers inline it, followed by their page's script, into one <script type="module">, so
// that a page stays one self-contained file.
//
//   const board = DiverciteBoard.mount(container, skeletonSvgText);
//   board.show('1/3/5/7/9/7/5/3/1 w', {
//     lastMove: 'RC14',                       // outlined (class last-move); null: none
//     arrows: [{move: 'GR13', mover: 'second', kind: 'best', rank: 1}],
//                                             // class "arrow best|alt"; mover: 'first'|
//                                             // 'second', the side to move if left out; drawn
//                                             // from that player's side; rank (optional): the
//                                             // line's number, shown at the arrow's end (an
//                                             // element of class arrow-head), rank 1 drawn
//                                             // last, on top. Arrows onto one cell end apart.
//     legal: ['RC14', '23'],                  // cells (or moves onto them) given class legal
//     selected: '14',                         // a cell (or a move) given class selected
//     scores: [3, 2]});                       // for the picture's title; optional
//   board.setFlipped(true);                   // turned by 180 degrees, arrows and all
//   board.onCellClick = (cell, event) => {};  // cell: its row and column, "14"
//   DiverciteBoard.parsePosition(text)        // {cells: {"14": {colour: 'R', owner: 'first',
//                                             //   kind: 'city'}, ...}, side: 'first'}
//
// show() leaves in the board one element of class `piece city|resource W|B R|G|B|Y` per piece
// (in cell order, each a clone of its template translated to its cell's data-x, data-y), as
// BoardSvg draws them; tests/board_js_browser_test.py checks that they are the same.

// Position strings (engine/position_string.h): `<rows> <side>`, 9 rows separated by '/',
// row r holding 9 - 2|r - 4| cells from column |r - 4| up; RGBY the first player's pieces,
// rgby the second's, a digit that many empty cells. A cell (r, c) is a city if r + c is odd.
function parsePosition(text) {
  if (typeof text !== 'string') {
    throw new Error('position string: expected a string, not ' + typeof text);
  }
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 2) {
    throw new Error(`position string '${text}' must have 2 fields, '<rows> <side>', not ` +
                    fields.length);
  }
  const rows = fields[0].split('/');
  if (rows.length !== 9) {
    throw new Error(`position string: ${rows.length} rows separated by '/', expected 9`);
  }
  const cells = {};
  let pieces = 0;
  rows.forEach((row, r) => {
    const first = Math.abs(r - 4);
    const width = 9 - 2 * first;
    let filled = 0;
    for (let i = 0; i < row.length; ++i) {
      const letter = row[i];
      if (filled >= width) {
        throw new Error(`position string: row ${r} '${row}' describes more than its ` +
                        `${width} cells`);
      }
      if (letter >= '1' && letter <= '9') {
        filled += Number(letter);
        continue;
      }
      if (!/^[RGBYrgby]$/.test(letter)) {
        throw new Error(`position string: row ${r}, character ${i + 1}: unknown character ` +
                        `'${letter}' (expected RGBY, rgby or a digit 1-9)`);
      }
      const col = first + filled;
      const colour = letter.toUpperCase();
      cells[`${r}${col}`] = {colour, owner: letter === colour ? 'first' : 'second',
                             kind: (r + col) % 2 === 1 ? 'city' : 'resource'};
      ++filled;
      ++pieces;
    }
    if (filled !== width) {
      throw new Error(`position string: row ${r} '${row}' describes ${filled} cells, ` +
                      `expected ${width}`);
    }
  });
  const side = fields[1];
  if (side !== 'w' && side !== 'b') {
    throw new Error(`position string: side to move '${side}' must be 'w' or 'b'`);
  }
  const expected = pieces % 2 === 0 ? 'w' : 'b';
  if (side !== expected) {
    throw new Error(`position string: side to move is '${side}' but with ${pieces} pieces ` +
                    `on the board it must be '${expected}'`);
  }
  return {cells, side: side === 'w' ? 'first' : 'second'};
}

// A move, `<colour><kind><row><col>` ("RC14"), as its colour and cell.
function parseMove(move) {
  const parts = /^([RGBY])([CR])([0-8])([0-8])$/.exec(move);
  if (!parts) throw new Error(`board: '${move}' is not a move like 'RC14'`);
  return {colour: parts[1], cell: parts[3] + parts[4]};
}

// A cell given as "14" or as a move onto it, "RC14".
function cellOf(value) {
  return /^[0-8][0-8]$/.test(value) ? value : parseMove(value).cell;
}

function point(text) {
  const [x, y] = String(text).split(',').map(Number);
  return {x, y};
}

class Board {
  constructor(container, svg) {
    this.container = container;
    this.svg = svg;
    this.view = svg.querySelector('g.view');
    this.cells = new Map();  // "14" -> its polygon, in cell order (row, then column)
    for (const cell of this.view.querySelectorAll('.cell')) {
      this.cells.set(cell.dataset.cell, cell);
    }
    const defs = svg.querySelector('defs');
    const templates = (attribute) => new Map(
        [...defs.querySelectorAll(`[${attribute}]`)].map((e) => [e.getAttribute(attribute), e]));
    this.pieces = templates('data-piece');
    this.marks = templates('data-mark');
    this.arrows = templates('data-arrow');
    this.arrowStart = {first: point(svg.dataset.arrowFirst),
                       second: point(svg.dataset.arrowSecond)};
    this.arrowStop = Number(svg.dataset.arrowStop);
    this.arrowSpread = Number(svg.dataset.arrowSpread ?? 0);
    this.placed = [];
    this.flipped = false;
    this.position = null;
    this.onCellClick = null;
    svg.addEventListener('click', (event) => {
      if (!this.onCellClick) return;
      const cell = this.cellAt(event);
      if (cell !== null) this.onCellClick(cell, event);
    });
  }

  cell(cell) {
    const polygon = this.cells.get(cell);
    if (!polygon) throw new Error(`board: no cell '${cell}'`);
    return polygon;
  }

  // A clone of `template`, of class `className`, translated to the centre of `cell`.
  place(template, attribute, className, cell) {
    const polygon = this.cell(cell);
    const element = template.cloneNode(true);
    element.removeAttribute(attribute);
    element.setAttribute('class', className);
    element.setAttribute('transform', `translate(${polygon.dataset.x},${polygon.dataset.y})`);
    return element;
  }

  // An arrow from the mover's side onto the move's cell, ending where BoardArrowSvg's ends;
  // `spread` moves its end across its direction (arrows sharing a cell), by that many units.
  arrow({move, mover, kind = 'best'}, side, spread = 0) {
    const {colour, cell} = parseMove(move);
    const start = this.arrowStart[mover || side];
    if (!start) throw new Error(`board: an arrow's mover is 'first' or 'second', not '${mover}'`);
    const template = this.arrows.get(colour);
    const group = template.cloneNode(true);
    group.removeAttribute('data-arrow');
    group.setAttribute('class', `arrow ${kind}`);
    group.setAttribute('data-move', move);
    const polygon = this.cell(cell);
    group.querySelector('polygon').setAttribute(
        'transform', `translate(${polygon.dataset.x},${polygon.dataset.y})`);
    const centre = {x: Number(polygon.dataset.x), y: Number(polygon.dataset.y)};
    let length = Math.hypot(centre.x - start.x, centre.y - start.y);
    if (length === 0) length = 1;
    const to = {x: centre.x - (centre.y - start.y) / length * spread,
                y: centre.y + (centre.x - start.x) / length * spread};
    length = Math.hypot(to.x - start.x, to.y - start.y) || 1;
    const stop = Math.max(0, length - this.arrowStop) / length;
    const end = {x: (start.x + (to.x - start.x) * stop).toFixed(1),
                 y: (start.y + (to.y - start.y) * stop).toFixed(1)};
    const line = group.querySelector('line');
    line.setAttribute('x1', start.x.toFixed(1));
    line.setAttribute('y1', start.y.toFixed(1));
    line.setAttribute('x2', end.x);
    line.setAttribute('y2', end.y);
    return {group, end};
  }

  // The numbered disc of a ranked arrow, at its end.
  arrowHead(move, rank, end) {
    const head = this.marks.get('arrow-head').cloneNode(true);
    head.removeAttribute('data-mark');
    head.setAttribute('class', 'arrow-head');
    head.setAttribute('data-move', move);
    head.setAttribute('data-rank', rank);
    head.setAttribute('transform', `translate(${end.x},${end.y})`);
    head.querySelector('text').textContent = String(rank);
    return head;
  }

  // The arrows' elements: the lowest ranked first, so that the best lies on top, the
  // numbered ends above every line; arrows onto one cell spread apart.
  arrowElements(arrows, side) {
    const ordered = arrows.map((arrow, k) => [arrow, k])
        .sort(([a, i], [b, j]) => (b.rank ?? 0) - (a.rank ?? 0) || i - j).map(([a]) => a);
    const cells = ordered.map((arrow) => parseMove(arrow.move).cell);
    const onCell = new Map();
    for (const cell of cells) onCell.set(cell, (onCell.get(cell) ?? 0) + 1);
    const seen = new Map();
    const lines = [];
    const heads = [];
    for (const [i, arrow] of ordered.entries()) {
      const cell = cells[i];
      const k = seen.get(cell) ?? 0;
      seen.set(cell, k + 1);
      const spread = (k - (onCell.get(cell) - 1) / 2) * this.arrowSpread;
      const {group, end} = this.arrow(arrow, side, spread);
      lines.push(group);
      if (arrow.rank !== undefined) heads.push(this.arrowHead(arrow.move, arrow.rank, end));
    }
    return [...lines, ...heads];
  }

  show(text, {lastMove = null, arrows = [], legal = [], selected = null, scores = null} = {}) {
    const position = parsePosition(text);
    const elements = [];
    for (const cell of this.cells.keys()) {
      const piece = position.cells[cell];
      if (!piece) continue;
      const look = `${piece.kind} ${piece.owner === 'first' ? 'W' : 'B'} ${piece.colour}`;
      elements.push(this.place(this.pieces.get(look), 'data-piece', 'piece ' + look, cell));
    }
    if (lastMove) {
      const mark = this.place(this.marks.get('last-move'), 'data-mark', 'last-move',
                              parseMove(lastMove).cell);
      mark.setAttribute('data-move', lastMove);
      elements.push(mark);
    }
    elements.push(...this.arrowElements(arrows, position.side));
    const legalCells = new Set(legal.map(cellOf));
    const selectedCell = selected ? cellOf(selected) : null;
    // Nothing changes before every part is known good: a bad argument leaves the board.
    for (const element of this.placed) element.remove();
    this.view.append(...elements);
    this.placed = elements;
    for (const [cell, polygon] of this.cells) {
      polygon.classList.toggle('legal', legalCells.has(cell));
      polygon.classList.toggle('selected', cell === selectedCell);
    }
    const title = this.svg.querySelector('title');
    if (title) title.textContent = text + (scores ? ` (scores ${scores[0]}-${scores[1]})` : '');
    this.position = text;
    return this;
  }

  // Turns the board by 180 degrees about its centre (a player who plays second), or back.
  setFlipped(flipped) {
    this.flipped = Boolean(flipped);
    const box = this.svg.viewBox.baseVal;
    if (this.flipped) {
      this.view.setAttribute('transform', `rotate(180 ${box.x + box.width / 2} ` +
                                          `${box.y + box.height / 2})`);
    } else {
      this.view.removeAttribute('transform');
    }
    return this;
  }

  // The cell under a pointer event, or null: the cell itself, or the one whose diamond
  // holds the point (a piece, a mark or an arrow may lie over it).
  cellAt(event) {
    const hit = event.target.closest ? event.target.closest('.cell') : null;
    if (hit && this.cells.get(hit.dataset.cell) === hit) return hit.dataset.cell;
    const matrix = this.view.getScreenCTM();
    if (!matrix) return null;
    const at = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    for (const [cell, polygon] of this.cells) {
      if (polygon.isPointInFill(at)) return cell;
    }
    return null;
  }
}

// Puts the skeleton's SVG into `container` (its only child), sized by its viewBox alone so
// that it fills the container; returns the board.
function mount(container, skeletonSvgText) {
  const holder = document.createElement('template');
  holder.innerHTML = String(skeletonSvgText).trim();
  const svg = holder.content.querySelector('svg.divercite-board');
  if (!svg || !svg.querySelector('g.view') || !svg.querySelector('defs [data-piece]')) {
    throw new Error('DiverciteBoard.mount: not a board skeleton (BoardSkeletonSvg, ' +
                    'tools/board_svg)');
  }
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  container.replaceChildren(svg);
  return new Board(container, svg);
}

export const DiverciteBoard = Object.freeze({mount, parsePosition});
