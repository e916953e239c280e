/**
 * The order in which WebRTC viewers' units are encrypted and sent, with room for I/O in between.
 *
 * A keyframe of a 1080p stream is about 300 RTP packets, and each viewer encrypts its own: with 50
 * viewers of one camera that is a few hundred milliseconds of work fanned out in one tick, during
 * which no STUN check, DTLS handshake or WHEP request is read. New sessions then failed ICE (their
 * checks time out after ~3 s of retransmissions) on a busy machine. Sending goes through this queue:
 * jobs run at once while the current burst is under BUDGET_MS, later ones after the event loop has
 * polled for I/O (setImmediate), in the order they came. One unit of one viewer is never split, so a
 * single viewer's units leave exactly as before.
 */

/** How long one burst of sends may hold the event loop before I/O is read. */
export const BUDGET_MS = 5;

export class SendQueue {
  private readonly jobs: (() => void)[] = [];
  private head = 0;
  private scheduled = false;
  private running = false;

  constructor(
    private readonly budgetMs = BUDGET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get pending(): number {
    return this.jobs.length - this.head;
  }

  /** Runs the job now if nothing waits and the burst has room, otherwise after what waits. */
  push(job: () => void): void {
    this.jobs.push(job);
    if (!this.scheduled && !this.running) this.drain();
  }

  private drain = () => {
    this.scheduled = false;
    this.running = true;
    const start = this.now();
    try {
      while (this.head < this.jobs.length) {
        const job = this.jobs[this.head];
        this.jobs[this.head++] = noop; // let the job's buffers go
        try {
          job();
        } catch {
          /* one viewer's failure is not the others' */
        }
        if (this.head < this.jobs.length && this.now() - start >= this.budgetMs) {
          this.scheduled = true;
          setImmediate(this.drain);
          return;
        }
      }
      this.jobs.length = 0;
      this.head = 0;
    } finally {
      this.running = false;
    }
  };
}

const noop = () => undefined;

/** The process's queue for every WebRTC viewer of every stream. */
export const webrtcSendQueue = new SendQueue();
