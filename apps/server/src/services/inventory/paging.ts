/**
 * The number of matches: a short last page tells it without a second scan (the sidebar search asks
 * for 9999 at once), otherwise count.
 */
export async function totalOf(
  got: number,
  window: { start: number; limit: number },
  count: () => Promise<{ n: string | number }>,
): Promise<number> {
  if (got < window.limit && (got > 0 || window.start === 0)) return window.start + got;
  return Number((await count()).n);
}
