/**
 * A tiny supervisor for one external process (mediamtx's externalcmd habit): spawn with an argument
 * array (never a shell), restart after an exit with a back-off that doubles up to a maximum (reset
 * once a run lasted long enough), kill on stop (SIGTERM, then SIGKILL), and keep the tail of stderr so
 * an exit has a reason to show.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export interface SupervisorOptions {
  /** The program (default: ffmpeg on PATH). */
  bin?: string;
  args: string[];
  restartMinMs?: number;
  restartMaxMs?: number;
  /** A run this long resets the back-off. */
  stableMs?: number;
  /** Bytes of stderr kept. */
  stderrTail?: number;
  /** How long SIGTERM has before SIGKILL. */
  killTimeoutMs?: number;
  /**
   * Written to each run's stdin, which is then closed: what the process must be told but not on its
   * command line, which every local user can read (a pull's address with its credentials).
   */
  stdin?: string;
  /** The process's environment (default: the server's). */
  env?: NodeJS.ProcessEnv;
  /** Each run's process, once spawned. */
  onStart?(run: SupervisedRun): void;
  onStdout?(chunk: Buffer): void;
  /** Each exit: its reason (code or signal, and the stderr tail) and the delay before the next run. */
  onExit?(reason: string, restartInMs: number | undefined): void;
}

export interface SupervisedRun {
  readonly pid: number | undefined;
  /** Writes to the process's stdin; false when it is gone or its pipe is full (the caller may drop data). */
  write(data: Uint8Array): boolean;
  /** Bytes written to stdin that the process has not read yet. */
  buffered(): number;
}

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

export class Supervisor {
  private child?: Child;
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private delay: number;
  private tail = '';
  /** Runs started and exits seen; the last exit's reason. */
  readonly stats = { starts: 0, exits: 0, lastReason: '' };

  constructor(private readonly o: SupervisorOptions) {
    this.delay = o.restartMinMs ?? 500;
  }

  get running() {
    return !!this.child;
  }
  get pid() {
    return this.child?.pid;
  }
  /** The last bytes the process wrote to stderr. */
  get stderr() {
    return this.tail;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.spawn();
  }

  private spawn() {
    if (this.stopped) return;
    this.tail = '';
    const startedAt = Date.now();
    let child: Child;
    try {
      child = spawn(this.o.bin ?? 'ffmpeg', this.o.args, { stdio: ['pipe', 'pipe', 'pipe'], ...(this.o.env ? { env: this.o.env } : {}) });
    } catch (err) {
      this.exited(`cannot start: ${err instanceof Error ? err.message : String(err)}`, startedAt);
      return;
    }
    this.child = child;
    this.stats.starts++;
    let done = false;
    const exit = (reason: string) => {
      if (done) return;
      done = true;
      if (this.child === child) this.child = undefined;
      this.exited(reason, startedAt);
    };
    child.on('error', (err: NodeJS.ErrnoException) => exit(err.code === 'ENOENT' ? `${this.o.bin ?? 'ffmpeg'} not found` : err.message));
    child.on('close', (code, signal) => exit(signal ? `killed by ${signal}` : `exited with code ${code}`));
    // EPIPE when the process dies while we write: the close event reports it.
    child.stdin.on('error', () => undefined);
    if (this.o.stdin !== undefined) child.stdin.end(this.o.stdin);
    child.stdout.on('data', (chunk: Buffer) => this.o.onStdout?.(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      const max = this.o.stderrTail ?? 2000;
      this.tail = (this.tail + chunk.toString('utf8')).slice(-max);
    });
    this.o.onStart?.({
      pid: child.pid,
      write: (data) => {
        if (this.child !== child || !child.stdin.writable) return false;
        if (child.stdin.writableLength > 4 << 20) return false;
        child.stdin.write(data);
        return true;
      },
      buffered: () => child.stdin.writableLength,
    });
  }

  private exited(why: string, startedAt: number) {
    this.stats.exits++;
    const lastLine = this.tail.trim().split('\n').pop()?.trim();
    const reason = lastLine ? `${why}: ${lastLine}` : why;
    this.stats.lastReason = reason;
    if (this.stopped) {
      this.o.onExit?.(reason, undefined);
      return;
    }
    if (Date.now() - startedAt >= (this.o.stableMs ?? 10_000)) this.delay = this.o.restartMinMs ?? 500;
    const delay = this.delay;
    this.delay = Math.min(this.delay * 2, this.o.restartMaxMs ?? 30_000);
    this.o.onExit?.(reason, delay);
    this.timer = setTimeout(() => this.spawn(), delay);
    this.timer.unref();
  }

  /**
   * Ends the process's input and lets it write out what it holds, then exit (no restart): the end of
   * a finite input (a recording played back through the transcoder). stop() still kills it.
   */
  finish() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.child?.stdin.end();
  }

  /** Stops the process (SIGTERM, SIGKILL after a while) and any pending restart. */
  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const child = this.child;
    if (!child) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), this.o.killTimeoutMs ?? 2000);
      kill.unref();
      child.once('close', () => {
        clearTimeout(kill);
        resolve();
      });
      child.stdin.end();
      child.kill('SIGTERM');
    });
  }
}
