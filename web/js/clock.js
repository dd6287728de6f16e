// A game clock for the two sides: the time left of each, running for the side to move; the
// first to reach zero has lost on time.

export class Clock {
  constructor({ ms, incrementMs = 0 }, onTick, onFlag) {
    this.remaining = { first: ms, second: ms };
    this.incrementMs = incrementMs;
    this.running = null;
    this.since = 0;
    this.flagged = null;
    this.onFlag = onFlag;
    this.timer = setInterval(() => {
      if (this.running && this.left(this.running) <= 0 && !this.flagged) {
        this.flagged = this.running;
        this.stop();
        onFlag(this.flagged);
      }
      onTick();
    }, 250);
  }

  left(side) {
    const running = side === this.running ? performance.now() - this.since : 0;
    return Math.max(0, this.remaining[side] - running);
  }

  // The mover's time stops (with its increment), `side`'s starts.
  switchTo(side) {
    if (this.flagged) return;
    const now = performance.now();
    if (this.running) {
      this.remaining[this.running] -= now - this.since;
      if (this.running !== side) this.remaining[this.running] += this.incrementMs;
    }
    this.running = side;
    this.since = now;
  }

  stop() {
    if (this.running) this.remaining[this.running] -= performance.now() - this.since;
    this.running = null;
    clearInterval(this.timer);
  }

  text(side) {
    const seconds = Math.ceil(this.left(side) / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  }
}
