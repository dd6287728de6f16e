// The page's API, for embedding and tests: window.divercite. Its calls run one at a time.
//
//   await divercite.load({moves: [...]} | {fen: '...', moves: [...]})
//   divercite.state()           {fen, start, moves, ply, scores: [first, second], result}
//   await divercite.play(move)  a move by hand; rejects with the rules' reason, nothing changed
//   await divercite.analyse({depth|movetime|nodes, multipv})   {move, score, bound, exact,
//                               proven, pv, depth, ...} (python's divercite.engine analyse);
//                               a list of them, best first, for multipv > 1
//   await divercite.engineMove({depth|movetime|nodes})        the engine's move, played
//   await divercite.save('moves' | 'fen' | 'recording')       the game as text

export function publish(app) {
  const serial = (task) => {
    const run = (publish.queue ?? Promise.resolve()).then(task, task);
    publish.queue = run.catch(() => {});
    return run;
  };
  window.divercite = {
    load: (game) => serial(() => app.load(game ?? {})),
    state: () => app.state(),
    play: (move) => serial(() => app.humanMove(String(move)).then(() => app.state())),
    analyse: (limits) => serial(() => app.analyse(limits ?? {})),
    engineMove: (limits) => serial(() => app.engineMove(limits ?? { movetime: 1000 })),
    save: (format) => serial(async () => app.exportText(format)),
    engine: app.engine,
    ready: false,
  };
}
