/**
 * The channel picker's boxes that stand for many cameras: a device's, and a GB folder's (a business
 * group, a virtual organisation, a civil code, at any depth). A box is ticked when every camera under
 * it is picked, half-ticked when some are.
 *
 * The cameras under a box are known for sure once its box was ticked (they are read from the server
 * then, all pages). Short of that, the picker knows where a camera sits by walking up from its parent
 * through the folders the tree has loaded: a box shown in the tree has all its ancestors loaded, and a
 * camera ticked in the tree was reached through its folders. So a folder inside a read box knows its
 * cameras from that box's list (those whose walk passes through it), and a box above a read box knows
 * some of its cameras (not all: it has others).
 */
import type { ChannelRow } from '@opencvr/shared';

export type BoxTick = 'all' | 'some' | 'none';

export const deviceKey = (DeviceID: string) => `d:${DeviceID}`;
export const channelKey = (DeviceID: string, ChannelID: string) => `c:${DeviceID}:${ChannelID}`;

type Placed = Pick<ChannelRow, 'ParentDeviceID' | 'ParentID'>;

/** Where each folder the picker has loaded sits (its device, its parent folder or '' at the top), by its key. */
export type FolderParents = ReadonlyMap<string, Placed>;

/**
 * The boxes above a channel: its device's, then each folder up its chain as far as it is loaded.
 * A cycle (A under B under A, possible with hand-made parents) ends the walk.
 */
export function boxesAbove(c: Placed, parents: FolderParents): string[] {
  const keys = [deviceKey(c.ParentDeviceID)];
  const seen = new Set<string>();
  for (let p = c.ParentID; p && !seen.has(p); p = parents.get(channelKey(c.ParentDeviceID, p))?.ParentID ?? '') {
    seen.add(p);
    keys.push(channelKey(c.ParentDeviceID, p));
  }
  return keys;
}

/** How many picked cameras sit under each box, as far as the loaded folders tell. */
export function countUnder(picked: Iterable<Placed>, parents: FolderParents): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of picked) for (const k of boxesAbove(c, parents)) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

/** The boxes above a box: none for a device; a loaded folder's chain (an unloaded one's is unknown). */
function ancestorsOf(box: string, parents: FolderParents): string[] {
  const folder = parents.get(box);
  return folder ? boxesAbove(folder, parents) : [];
}

export interface BoxCameras {
  /** Every camera under the box, read with it or with a box above it (those whose walk passes through it). */
  all: Set<string>;
  /** Cameras under it read with a box below it: knowing some is not knowing all. */
  some: Set<string>;
}

/** What the read boxes (`read`: each ticked box's cameras) tell of every box. */
export function camerasOfBoxes(read: ReadonlyMap<string, readonly ChannelRow[]>, parents: FolderParents): Map<string, BoxCameras> {
  const out = new Map<string, BoxCameras>();
  const at = (k: string) => {
    let b = out.get(k);
    if (!b) out.set(k, (b = { all: new Set(), some: new Set() }));
    return b;
  };
  for (const [box, rows] of read) {
    const above = new Set(ancestorsOf(box, parents));
    at(box);
    for (const r of rows) {
      const key = channelKey(r.ParentDeviceID, r.ChannelID);
      at(box).all.add(key);
      for (const k of boxesAbove(r, parents)) (above.has(k) ? at(k).some : at(k).all).add(key);
      for (const k of above) at(k).some.add(key);
    }
  }
  return out;
}

/** `under`: how many picked cameras sit under the box as far as the tree tells; `isPicked`: whether a channel key is picked. */
export function boxTick(cameras: BoxCameras | undefined, under: number, isPicked: (key: string) => boolean): BoxTick {
  const all = cameras ? [...cameras.all] : [];
  const some = cameras ? [...cameras.some] : [];
  if (all.length && all.every(isPicked) && some.every(isPicked)) return 'all';
  return under > 0 || all.some(isPicked) || some.some(isPicked) ? 'some' : 'none';
}
