/**
 * A pass that brings what runs in line with the database (the CDN pushes, the always-on streams): one
 * at a time, and the calls that come while one runs ask for a single pass more after it (the data
 * may have changed after that pass read it), however many they are.
 */
export class CoalescedPass {
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Runs a pass, or asks for one more after the running one; resolves when this call's pass ends. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.run();
        }
      });
    return this.running;
  }

  /** The pass running now, if any (a stop waits for it). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
