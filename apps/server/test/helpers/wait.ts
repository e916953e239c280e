/**
 * Waiting in tests: for a condition (until), never for a guessed time, unless a test must let time
 * pass to see that nothing happens (sleep).
 *
 *   await until(() => hub.state === 'live');
 *   const row = await until(() => db.selectFrom('recordings').selectAll().executeTakeFirst(), 20_000);
 *   await until(() => r.media.byes.length === 1, 12_000, { what: 'the BYE' });
 */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a check gives back once it holds: anything but false, 0, '', null or undefined. */
export type Held<T> = Exclude<T, false | 0 | '' | null | undefined>;

export interface UntilOptions {
  /** Named in the error (a function: worded when it fails, with what is known then); by default the check's own source. */
  what?: string | (() => string);
  /**
   * Time between checks. Short, so a test goes on as soon as the condition holds; a check is a read of
   * memory or a local query, cheap beside the time it saves.
   */
  everyMs?: number;
}

/**
 * Calls `check` until it returns something truthy and returns that; after `timeoutMs` without, throws
 * an error naming the condition and the check's last answer.
 */
export async function until<T>(check: () => T | Promise<T>, timeoutMs = 15_000, { what, everyMs = 25 }: UntilOptions = {}): Promise<Held<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Held<T>;
    if (Date.now() > end) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : (what ?? sourceOf(check))} (last: ${shortly(value)})`);
    }
    await sleep(everyMs);
  }
}

function sourceOf(check: () => unknown): string {
  return clip(String(check).replace(/\s+/g, ' '));
}

function shortly(value: unknown): string {
  try {
    return clip(JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
