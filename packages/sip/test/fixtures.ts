/** The fixture messages (see fixtures/README.md for where each comes from). */
import fs from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, 'fixtures');
export const FIXTURES: { name: string; bytes: Uint8Array }[] = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.sip'))
  .sort()
  .map((f) => ({ name: f, bytes: new Uint8Array(fs.readFileSync(path.join(dir, f))) }));

export function fixture(name: string): Uint8Array {
  const f = FIXTURES.find((x) => x.name === name);
  if (!f) throw new Error(`no fixture ${name}`);
  return f.bytes;
}

/** A clock for transaction tests: timers fire when advance() passes them, in order. */
export class FakeClock {
  now = 0;
  private seq = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.seq;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers.delete(h as number);
  };
  get pending() {
    return this.timers.size;
  }
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= until && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.now = next[1].at;
      next[1].fn();
    }
    this.now = until;
  }
}
