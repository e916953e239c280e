/**
 * The picker's device and folder boxes (pickerBoxes.ts): which cameras a box stands for, from the
 * boxes read from the server and the folders the tree has loaded, and whether it is ticked.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelRow } from '@opencvr/shared';
import { boxesAbove, boxTick, camerasOfBoxes, channelKey, countUnder, deviceKey } from '../src/components/pickerBoxes';

const at = (ChannelID: string, ParentID: string) => ({ ParentDeviceID: 'D', ChannelID, ParentID }) as ChannelRow;
// D: G (top) → O → P → cameras p1, p2; O → o1; G → g1. Loaded folders: G and O (P is not).
const parents = new Map([
  [channelKey('D', 'G'), at('G', '')],
  [channelKey('D', 'O'), at('O', 'G')],
]);
const [G, O, P, DEV] = [channelKey('D', 'G'), channelKey('D', 'O'), channelKey('D', 'P'), deviceKey('D')];
const cams = { g1: at('g1', 'G'), o1: at('o1', 'O'), p1: at('p1', 'P'), p2: at('p2', 'P') };
const key = (c: ChannelRow) => channelKey(c.ParentDeviceID, c.ChannelID);

describe('pickerBoxes', () => {
  it('walks up from a camera through the loaded folders, to its device; a cycle ends the walk', () => {
    expect(boxesAbove(cams.o1, parents)).toEqual([DEV, O, G]);
    // P is not loaded: the walk knows P and stops there.
    expect(boxesAbove(cams.p1, parents)).toEqual([DEV, P]);
    const loop = new Map([
      [channelKey('D', 'A'), at('A', 'B')],
      [channelKey('D', 'B'), at('B', 'A')],
    ]);
    expect(boxesAbove(at('x', 'A'), loop)).toEqual([DEV, channelKey('D', 'A'), channelKey('D', 'B')]);
    expect(countUnder([cams.o1, cams.g1], parents)).toEqual(new Map([[DEV, 2], [O, 1], [G, 2]]));
  });

  it('a folder inside a read box is whole when its cameras are; the device above it only partly known', () => {
    const read = new Map([[G, [cams.g1, cams.o1]]]);
    const boxes = camerasOfBoxes(read, parents);
    const picked = new Set([key(cams.o1)]);
    const isPicked = (k: string) => picked.has(k);
    expect(boxTick(boxes.get(O), countUnder([cams.o1], parents).get(O) ?? 0, isPicked)).toBe('all');
    expect(boxTick(boxes.get(G), 1, isPicked)).toBe('some');
    // The device has other cameras than G's: G's all picked is not the device's.
    picked.add(key(cams.g1));
    expect(boxTick(boxes.get(G), 2, isPicked)).toBe('all');
    expect(boxTick(boxes.get(DEV), 2, isPicked)).toBe('some');
    expect(boxTick(undefined, 0, isPicked)).toBe('none');
  });

  it('a box above a read box is not whole while a camera read with the box below is unpicked', () => {
    // G read whole (its P cameras sit behind an unloaded folder), then P read and unpicked.
    const read = new Map<string, ChannelRow[]>([
      [G, [cams.g1, cams.o1, cams.p1, cams.p2]],
      [P, [cams.p1, cams.p2]],
    ]);
    const boxes = camerasOfBoxes(read, parents);
    const picked = new Set([key(cams.g1), key(cams.o1)]);
    expect(boxTick(boxes.get(G), 2, (k) => picked.has(k))).toBe('some');
    expect(boxTick(boxes.get(P), 0, (k) => picked.has(k))).toBe('none');
  });
});
