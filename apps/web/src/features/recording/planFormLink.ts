/**
 * The recording plan form returns, after saving or cancelling, to the page it was opened from: a
 * new plan added on /config/recording went on to the plans list (/config/program), away from where
 * the user was working. The spec names the form (/config/program/form) but not where it returns,
 * so the opener passes its own location in the router state; without one (the form's URL opened
 * directly) the form returns to the plans list.
 */
import type { NavigateFunction } from 'react-router-dom';

export const PLAN_LIST = '/config/program';

/** Opens the form for a new plan, or plan `id`, to return to `from` (the opener's path and query). */
export function openPlanForm(navigate: NavigateFunction, from: string, id?: number) {
  navigate(id ? `/config/program/form?id=${id}` : '/config/program/form', { state: { from } });
}

/** Where the form returns: the opener's path from the router state when it is one of this console's, else the plans list. */
export function planFormReturn(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : PLAN_LIST;
}
