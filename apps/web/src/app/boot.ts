/**
 * Start-up work done before React renders, so that it runs in parallel instead of one step after
 * another (boot calls → frame chunk → page chunk → tree call):
 * - the boot calls of useBootstrap (home config; with a session: other config, user info,
 *   switches, diagnostics switch, network prompt for admins), all at once;
 * - the chunks of the page the guard will show (and the console frame around it);
 * - on a video page, for an admin, the video tree's first page of devices.
 * Everything started here is taken over by the code that would have started it (lib/early.ts).
 */
import { access } from '../lib/access';
import { isAdminRole } from '../lib/session';
import { useSession } from '../lib/stores/session';
import { useUi } from '../lib/stores/ui';
import { prefetchTreeDevices } from '../features/video/api';
import { Shell, UnavailablePage } from './frames';
import { findRoute, isKnownPath } from './routes';
import { startBootCalls } from './useBootstrap';

function preload(page: unknown): void {
  const p = (page as { preload?: () => Promise<unknown> } | undefined)?.preload;
  // A chunk that fails here fails again when the page renders, and is reported there.
  if (p) p().catch(() => undefined);
}

/** Where the guard will most likely land for `path` (RecordVersion assumed, as the guard does at first). */
export function landingPath(path: string, token: string, role: string | undefined): string {
  const decision = access(token ? { role: role ?? '' } : null, path, {}, isKnownPath);
  return decision.allow ? path : decision.redirect.split('?')[0]!;
}

export function startBoot(path: string): void {
  const { token, userinfo } = useSession.getState();
  const role = userinfo?.role;
  startBootCalls(token, role);

  const route = findRoute(landingPath(path, token, role));
  if (!route) return;
  // The video sidebar opens on the tree tab for admins (VideoSider); nobody else sees the tree.
  // Asked before the chunks, so it does not queue behind them for a connection.
  if (route.sider && token && isAdminRole(role) && useUi.getState().siderTabPane === 'spgc') prefetchTreeDevices();
  const page = route.page ?? UnavailablePage;
  // The frame (top bar, sidebar) first: the page renders in its own Suspense boundary inside it,
  // so its chunks follow the frame's rather than compete with them.
  if (route.layout === 'main') void Shell.preload().then(() => preload(page), () => undefined);
  else preload(page);
}
