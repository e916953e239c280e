/** The lazy console frame and the placeholder page, shared by the router and start-up (boot.ts). */
import { lazyPage } from '../lib/lazy';

// The console frame (top bar, menus, sidebar, antd's App context) is its own chunk: /login never loads it.
export const Shell = lazyPage(() => import('./layout/Shell'));
export const UnavailablePage = lazyPage(() => import('../components/UnavailablePage'));
