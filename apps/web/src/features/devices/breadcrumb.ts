/**
 * The device pages' breadcrumb (spec 2 "Device pages breadcrumb") as a pure function of the path,
 * the query and the sub-channel trail, so every rule can be tested without a router.
 *
 * Reading of the rules used here:
 * - Labels: device management (the section), device (the device list), device group, device detail
 *   (the device form), channel list, channel detail (the channel form).
 * - Path segments map to crumbs: /device → device management, then the page segment. The list and
 *   group pages stop at their own crumb: whatever trails the page segment is dropped. The other
 *   pages sit under the device list, and their ID segments are not crumbs.
 * - The device crumbs (device detail, channel list) get "(deviceName)" when the query has it; the
 *   channel detail crumb gets "(channelName)".
 * - In channel views (channel list and channel form) the sub-channel trail follows the channel list
 *   crumb. Only the last crumb has no link. A trail crumb cuts the trail back to itself; any other
 *   crumb clears it.
 * - A segment containing "Edit" (e.g. channelEdit) gives its base crumb plus an edit crumb.
 */

/** One level of the sub-channel trail: the directory opened, and the key listing its children. */
export interface SubChannel {
  uuid: string;
  Name: string;
  subset: string;
}

export type CrumbLabel = 'deviceManagement' | 'device' | 'deviceGroup' | 'deviceDetail' | 'channelList' | 'channelDetail' | 'edit';

/** What clicking a crumb does to the trail, besides navigating. */
export type CrumbEffect = { type: 'clear' } | { type: 'cut'; index: number } | { type: 'none' };

export interface Crumb {
  key: string;
  /** i18n label key (devices.crumb.*); absent for trail entries, which show their Name. */
  label?: CrumbLabel;
  /** Shown after the label in brackets, or alone for trail entries. */
  name?: string;
  /** Absent on the last crumb: it has no link. */
  to?: string;
  effect: CrumbEffect;
}

export interface CrumbQuery {
  deviceName?: string | null;
  deviceType?: string | null;
  channelName?: string | null;
}

const PAGE_LABELS: Record<string, CrumbLabel> = {
  list: 'device',
  group: 'deviceGroup',
  form: 'deviceDetail',
  channel: 'channelList',
  channelform: 'channelDetail',
};

/** Whether a path belongs to the device pages (the trail survives only inside them). */
export function isDevicePath(pathname: string): boolean {
  return pathname === '/device' || pathname.startsWith('/device/');
}

/** The trail to keep after the route changed to `pathname`: cleared outside the device pages. */
export function trailAfterRoute(pathname: string, trail: SubChannel[]): SubChannel[] {
  return isDevicePath(pathname) ? trail : [];
}

/** The trail after a crumb was clicked. */
export function applyCrumbEffect(trail: SubChannel[], effect: CrumbEffect): SubChannel[] {
  if (effect.type === 'clear') return [];
  if (effect.type === 'cut') return trail.slice(0, effect.index + 1);
  return trail;
}

function withQuery(path: string, q: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) params.set(k, v);
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

/** The crumbs for a device page; empty for paths outside /device. */
export function deviceCrumbs(pathname: string, query: CrumbQuery, trail: SubChannel[]): Crumb[] {
  const segs = pathname.split('/').filter(Boolean);
  if (segs[0] !== 'device') return [];
  const rawPage = segs[1] ?? '';
  const editAt = rawPage.indexOf('Edit');
  const page = editAt >= 0 ? rawPage.slice(0, editAt) : rawPage;
  const edit = editAt >= 0;
  const [devid, chnid] = segs.slice(2);
  const deviceName = query.deviceName || undefined;
  const channelName = query.channelName || undefined;
  const deviceQuery = { deviceName: query.deviceName, deviceType: query.deviceType };

  const chain: Omit<Crumb, 'effect'>[] = [{ key: 'root', label: 'deviceManagement', to: '/device/list' }];
  const pageLabel = PAGE_LABELS[page];
  const inChannelViews = page === 'channel' || page === 'channelform';

  if (page === 'list' || page === 'group') {
    chain.push({ key: page, label: pageLabel, to: `/device/${page}` });
  } else if (pageLabel) {
    chain.push({ key: 'list', label: 'device', to: '/device/list' });
    if (page === 'form') {
      chain.push({ key: 'form', label: 'deviceDetail', name: deviceName, to: `/device/form/${devid ?? ''}` });
    } else {
      chain.push({ key: 'channel', label: 'channelList', name: deviceName, to: withQuery(`/device/channel/${devid ?? ''}`, deviceQuery) });
    }
  }
  const base: Crumb[] = chain.map((c) => ({ ...c, effect: { type: 'clear' } }));

  const trailCrumbs: Crumb[] = inChannelViews
    ? trail.map((entry, index) => ({
        key: `sub:${entry.uuid}`,
        name: entry.Name,
        to: withQuery(`/device/channel/${devid ?? ''}`, { ...deviceQuery, subset: entry.subset }),
        effect: { type: 'cut', index },
      }))
    : [];

  const tail: Crumb[] = [];
  if (page === 'channelform') {
    tail.push({
      key: 'channelform',
      label: 'channelDetail',
      name: channelName,
      to: withQuery(`/device/channelform/${devid ?? ''}/${chnid ?? ''}`, { ...deviceQuery, channelName: query.channelName }),
      effect: { type: 'clear' },
    });
  }
  if (edit) tail.push({ key: 'edit', label: 'edit', to: pathname, effect: { type: 'clear' } });

  const all = [...base, ...trailCrumbs, ...tail];
  // Only the last crumb has no link (and so no effect).
  const last = all[all.length - 1];
  if (last) {
    delete last.to;
    last.effect = { type: 'none' };
  }
  return all;
}

/**
 * The trail matching the level the channel list shows (its `subset`), so browser back/forward keep
 * the crumbs right: the top level has no trail, a level on the trail cuts it there, and an unknown
 * level (a pasted link) leaves it as it is.
 */
export function trailForSubset(trail: SubChannel[], subset: string | null | undefined): SubChannel[] {
  if (!subset) return [];
  const at = trail.findIndex((e) => e.subset === subset);
  return at < 0 ? trail : trail.slice(0, at + 1);
}
