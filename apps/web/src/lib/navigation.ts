/**
 * Lets non-React code (the request layer, session cleanup) change the route. The router registers
 * its navigate function at start-up; before that (and in tests) the browser location is used.
 */
type Navigate = (to: string) => void | Promise<void>;

let navigateFn: Navigate | null = null;

export function setNavigator(fn: Navigate | null): void {
  navigateFn = fn;
}

/** Resolves once the router has moved (react-router navigations are asynchronous). */
export async function navigateTo(to: string): Promise<void> {
  if (navigateFn) await navigateFn(to);
  else window.location.assign(to);
}

/** Loads the console again from the server (after a chunk failed to load: the build may be newer). */
export function reloadPage(): void {
  window.location.reload();
}

export function currentPath(): string {
  return window.location.pathname;
}

/** Pages that work without a logged-in user and must never be sent to /login. */
export function isPublicPlayerPath(path: string): boolean {
  return path.startsWith('/players/') || path.startsWith('/share/');
}
