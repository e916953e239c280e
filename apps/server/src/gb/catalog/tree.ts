/**
 * Where each catalog item hangs in the device's tree, as the sidebar shows it: `parent_id` is the
 * channel ID of the directory above, '' for the device's top level (channels.list reads it so).
 *
 * A GB catalog says where an item belongs in several ways, tried nearest first:
 * - ParentID: the parent item's ID; -2022 allows a path "a/b/c" (the last is the nearest);
 * - BusinessGroupID: a business group (type 215) the item belongs to;
 * - CivilCode: an administrative-region directory (2/4/6/8-digit ID) when the catalog lists one.
 * A candidate counts only when it names another item of the same device (a parent naming the device
 * itself, or the platform above it, means the top level). A cycle (A under B under A) is cut at the
 * item where it is found, so every item stays reachable from the top.
 *
 * Whether an item is a directory: it is when anything hangs under it, or its ID says so (a civil
 * code, a business group 215, a virtual organisation 216); a camera (131/132) without children is
 * a camera whatever its Parental says (a Uniview dome lists itself with Parental 1); otherwise Parental.
 */
import type { CatalogItem } from '@opencvr/manscdp';

export interface PlacedItem {
  item: CatalogItem;
  parentId: string;
  parental: 0 | 1;
  /** Items directly under this one. */
  subCount: number;
}

const DIRECTORY_TYPES = new Set([215, 216]);
const CAMERA_TYPES = new Set([131, 132]);

/**
 * Places every item. For a part of a catalog (a NOTIFY, a timed-out answer) `known` holds the IDs of the
 * device's stored channels (possible parents) and `storedChildren` how many stored channels hang under each.
 */
export function placeItems(
  deviceId: string,
  items: readonly CatalogItem[],
  known: ReadonlySet<string> = new Set(),
  storedChildren: ReadonlyMap<string, number> = new Map(),
): PlacedItem[] {
  const ids = new Set(items.map((i) => i.deviceId));
  const exists = (id: string) => ids.has(id) || known.has(id);
  const parentOf = new Map<string, string>();
  for (const item of items) parentOf.set(item.deviceId, pickParent(deviceId, item, exists));
  cutCycles(parentOf);
  const subCount = new Map<string, number>();
  for (const p of parentOf.values()) if (p) subCount.set(p, (subCount.get(p) ?? 0) + 1);
  return items.map((item) => {
    const subs = Math.max(subCount.get(item.deviceId) ?? 0, storedChildren.get(item.deviceId) ?? 0);
    return { item, parentId: parentOf.get(item.deviceId) ?? '', parental: isDirectory(item, subs) ? 1 : 0, subCount: subs };
  });
}

function pickParent(deviceId: string, item: CatalogItem, exists: (id: string) => boolean): string {
  const candidates: string[] = [];
  if (item.parentId) candidates.push(...item.parentId.split('/').map((s) => s.trim()).filter(Boolean).reverse());
  if (item.businessGroupId) candidates.push(item.businessGroupId.trim());
  if (item.civilCode) candidates.push(item.civilCode.trim());
  for (const c of candidates) {
    if (c === item.deviceId) continue;
    // The device itself is the top level, unless it also lists a channel of its own ID (a camera that is its own channel).
    if (c === deviceId && !exists(c)) return '';
    if (exists(c)) return c;
  }
  return '';
}

/** Walks up from every item; an item whose walk comes back to it is moved to the top level. */
function cutCycles(parentOf: Map<string, string>) {
  const settled = new Set<string>();
  for (const start of parentOf.keys()) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: string | undefined = start;
    while (cur && !settled.has(cur)) {
      if (onPath.has(cur)) {
        // `cur` closes a loop: cut the edge from the item before it in the walk.
        parentOf.set(path[path.length - 1], '');
        break;
      }
      onPath.add(cur);
      path.push(cur);
      cur = parentOf.get(cur);
    }
    for (const p of path) settled.add(p);
  }
}

function isDirectory(item: CatalogItem, subs: number): boolean {
  if (subs > 0) return true;
  if (item.deviceId.length !== 20) return true;
  if (item.typeCode !== undefined && DIRECTORY_TYPES.has(item.typeCode)) return true;
  if (item.typeCode !== undefined && CAMERA_TYPES.has(item.typeCode)) return false;
  return item.parental === 1;
}
