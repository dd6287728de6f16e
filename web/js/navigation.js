// Walking a game's plies, the same on every page that shows one (the app, the review and
// replay pages, the arena's games): the buttons to the first, previous, next and last ply,
// the keys (← →, Home, End), a slider, and the ply named in the address.

// Binds the buttons and the slider given (any may be absent) and the keys to `go(ply)`, which
// gets the ply asked for, possibly out of range; `at()` is the ply shown, `first()` and
// `last()` the game's ends. A key typed into a field (a move box, the slider) is the field's.
export function bindNavigation({ at, first, last, go, buttons = {}, slider = null }) {
  const steps = {
    first: () => first(), previous: () => at() - 1, next: () => at() + 1, last: () => last(),
  };
  for (const [name, button] of Object.entries(buttons)) {
    button?.addEventListener('click', () => go(steps[name]()));
  }
  slider?.addEventListener('input', () => go(Number(slider.value)));
  const keys = { ArrowLeft: 'previous', ArrowRight: 'next', Home: 'first', End: 'last' };
  document.addEventListener('keydown', (event) => {
    const step = keys[event.key];
    if (step === undefined || event.target.closest?.('input, textarea, select')) return;
    event.preventDefault();
    go(steps[step]());
  });
}

// The ply an address names (`#ply=12` on the review pages, `#ply-12` on the arena's, as
// `separator` says), or null.
export function plyOfHash(hash, separator = '=') {
  const match = new RegExp(`^#ply${separator}(\\d+)$`).exec(hash);
  return match ? Number(match[1]) : null;
}
