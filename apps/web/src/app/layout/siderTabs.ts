/** Order of the video sidebar tabs (spgc square video, fzlb group list, sc favourites), kept in nav_sider_tabs. */
import { STORAGE_KEYS } from '@opencvr/shared';

export interface SiderTab {
  key: 'spgc' | 'fzlb' | 'sc';
  /** i18n key */
  label: string;
  name: string;
}

export const DEFAULT_SIDER_TABS: SiderTab[] = [
  { key: 'spgc', label: 'sider.spgc', name: 'spgc' },
  { key: 'fzlb', label: 'sider.fzlb', name: 'fzlb' },
  { key: 'sc', label: 'sider.sc', name: 'sc' },
];

export function loadSiderTabs(): SiderTab[] {
  try {
    const keys = JSON.parse(localStorage.getItem(STORAGE_KEYS.navSiderTabs) ?? 'null') as unknown;
    if (Array.isArray(keys)) {
      const order = keys.map((k: unknown) => (typeof k === 'object' && k && 'key' in k ? (k as { key: string }).key : k));
      const known = DEFAULT_SIDER_TABS.filter((t) => order.includes(t.key)).sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
      // Tabs missing from an old saved order are appended, so all three always exist.
      return [...known, ...DEFAULT_SIDER_TABS.filter((t) => !known.includes(t))];
    }
  } catch {
    // A damaged value falls back to the default order.
  }
  return DEFAULT_SIDER_TABS;
}

export function saveSiderTabs(tabs: SiderTab[]): void {
  localStorage.setItem(STORAGE_KEYS.navSiderTabs, JSON.stringify(tabs));
}

export function moveTab<T>(list: T[], from: number, to: number): T[] {
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}
