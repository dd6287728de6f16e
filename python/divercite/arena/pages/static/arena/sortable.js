// Sorts a table.sortable by the column whose heading is clicked (again: the other way).
// A heading's data-sort says how its cells compare: "number" (a dash sorts last) or "text".

function cellValue(row, column, kind) {
  const text = row.cells[column].textContent.trim();
  if (kind !== 'number') return text.toLowerCase();
  const value = parseFloat(text.replace('∞', 'Infinity'));
  return Number.isNaN(value) ? null : value;
}

function sortBy(table, column, kind, descending) {
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  rows.sort((a, b) => {
    const x = cellValue(a, column, kind);
    const y = cellValue(b, column, kind);
    if (x === null || y === null) return (x === null) - (y === null);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return descending ? -order : order;
  });
  rows.forEach((row) => body.appendChild(row));
}

for (const table of document.querySelectorAll('table.sortable')) {
  Array.from(table.tHead.rows[0].cells).forEach((heading, column) => {
    heading.tabIndex = 0;
    heading.setAttribute('role', 'button');
    const sort = () => {
      const descending = heading.getAttribute('aria-sort') !== 'descending';
      for (const other of table.tHead.rows[0].cells) other.removeAttribute('aria-sort');
      heading.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      sortBy(table, column, heading.dataset.sort, descending);
    };
    heading.addEventListener('click', sort);
    heading.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        sort();
      }
    });
  });
}
