/**
 * Calls started at start-up, before React renders (app/boot.ts), and taken over by the code that
 * would have made them once it runs: the boot queries and the video tree's first page then travel
 * in parallel with the download and execution of the console's code instead of after it.
 *
 * A started call is handed out once; an unclaimed one expires, so nothing stale is ever used.
 */
const MAX_AGE_MS = 15_000;

interface Early {
  promise: Promise<unknown>;
  at: number;
  /** Set once the call has succeeded: its answer can be taken without waiting (takeSettled). */
  settled?: { value: unknown };
}

const started = new Map<string, Early>();

/** Starts `call` under `key` unless one is already waiting. */
export function startEarly<T>(key: string, call: () => Promise<T>): void {
  const prev = started.get(key);
  if (prev && Date.now() - prev.at < MAX_AGE_MS) return;
  const promise = call();
  const early: Early = { promise, at: Date.now() };
  promise.then(
    (value) => {
      early.settled = { value };
    },
    // Its failure is handled (and told) by the request layer and by whoever takes it.
    () => undefined,
  );
  started.set(key, early);
}

/**
 * The answer of the call started under `key` if it has already succeeded and is fresh (handed out
 * once, like takeEarly), else undefined and the call stays for takeEarly: a component can then
 * render that answer in its first render instead of one render later.
 */
export function takeSettled<T>(key: string): T | undefined {
  const early = started.get(key);
  if (!early?.settled || Date.now() - early.at >= MAX_AGE_MS) return undefined;
  started.delete(key);
  return early.settled.value as T;
}

/**
 * The answer of the call started under `key` if it has already succeeded and is fresh, without
 * handing it out: for a component's first render, which React may run and throw away (a sibling
 * suspends) before it runs it again. The component hands it out with forgetEarly once mounted.
 */
export function peekSettled<T>(key: string): T | undefined {
  const early = started.get(key);
  if (!early?.settled || Date.now() - early.at >= MAX_AGE_MS) return undefined;
  return early.settled.value as T;
}

/** Forgets the call started under `key` (its answer has been used: see peekSettled). */
export function forgetEarly(key: string): void {
  started.delete(key);
}

/** The call started under `key` if there is a fresh one (handed out once), else `call()`. */
export function takeEarly<T>(key: string, call: () => Promise<T>): Promise<T> {
  const early = started.get(key);
  started.delete(key);
  if (early && Date.now() - early.at < MAX_AGE_MS) return early.promise as Promise<T>;
  return call();
}

/** Forgets every waiting call (logout, tests). */
export function clearEarly(): void {
  started.clear();
}
