/**
 * Where catalog items hang (gb/catalog/tree.ts), on catalogs as devices send them (the manscdp
 * package's fixtures: a Dahua NVR relayed by a cascaded platform, a Uniview dome that lists itself)
 * and on the awkward cases: ParentID paths, business groups, civil-code directories, cycles.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeManscdp, type CatalogItem } from '@opencvr/manscdp';
import { placeItems } from '../../src/gb/catalog/tree.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../packages/manscdp/test/fixtures');
function fixtureItems(name: string): CatalogItem[] {
  const d = decodeManscdp(fs.readFileSync(path.join(FIXTURES, name)));
  if (!d.ok || d.message.kind !== 'catalog') throw new Error(`${name} is not a catalog`);
  return d.message.items;
}
const item = (deviceId: string, o: Partial<CatalogItem> = {}): CatalogItem => ({ deviceId, typeCode: deviceId.length === 20 ? Number(deviceId.slice(10, 13)) : undefined, info: {}, ...o });
const byId = (placed: ReturnType<typeof placeItems>) => new Map(placed.map((p) => [p.item.deviceId, p]));

describe('catalog tree', () => {
  it('Dahua NVR through a cascaded platform: the directory on top, the cameras under it', () => {
    const placed = byId(placeItems('44010200492000000120', fixtureItems('dahua-nvr-cascade-catalog-gb2312.xml')));
    expect(placed.get('00000000080000000008')).toMatchObject({ parentId: '', parental: 1, subCount: 6 });
    expect(placed.get('34020000001310000151')).toMatchObject({ parentId: '00000000080000000008', parental: 0 });
  });

  it('a Uniview dome listing itself with Parental 1 under the platform is a camera at the top', () => {
    const [p] = placeItems('34020000001320000002', fixtureItems('uniview-ipc-catalog.xml'));
    expect(p).toMatchObject({ parentId: '', parental: 0, subCount: 0 });
  });

  it('ParentID paths (nearest last), business groups and civil-code directories', () => {
    const dev = '34020000002000000001';
    const placed = byId(
      placeItems(dev, [
        item('3402'),
        item('340200', { parentId: '3402' }),
        item('34020000002150000001', { parentId: dev }),
        item('34020000002160000001', { parentId: `${dev}/34020000002150000001` }),
        item('34020000001310000001', { parentId: `${dev}/34020000002150000001/34020000002160000001` }),
        item('34020000001310000002', { businessGroupId: '34020000002150000001' }),
        item('34020000001310000003', { civilCode: '340200' }),
        item('34020000001310000004', { parentId: '99999999992000000001', civilCode: '110000' }),
        item('34020000002160000002'),
      ]),
    );
    expect(placed.get('3402')).toMatchObject({ parentId: '', parental: 1 });
    expect(placed.get('340200')).toMatchObject({ parentId: '3402', parental: 1, subCount: 1 });
    expect(placed.get('34020000002160000001')).toMatchObject({ parentId: '34020000002150000001', parental: 1 });
    expect(placed.get('34020000001310000001')).toMatchObject({ parentId: '34020000002160000001', parental: 0 });
    expect(placed.get('34020000001310000002')!.parentId).toBe('34020000002150000001');
    expect(placed.get('34020000001310000003')!.parentId).toBe('340200');
    // A parent nobody lists: the top level.
    expect(placed.get('34020000001310000004')!.parentId).toBe('');
    // An empty virtual organisation is still a directory.
    expect(placed.get('34020000002160000002')).toMatchObject({ parental: 1, subCount: 0 });
  });

  it('a cycle is cut so every item stays reachable from the top', () => {
    const placed = placeItems('34020000002000000001', [
      item('34020000002160000001', { parentId: '34020000002160000003' }),
      item('34020000002160000002', { parentId: '34020000002160000001' }),
      item('34020000002160000003', { parentId: '34020000002160000002' }),
      item('34020000001310000001', { parentId: '34020000001310000001' }),
    ]);
    const parent = new Map(placed.map((p) => [p.item.deviceId, p.parentId]));
    for (const start of parent.keys()) {
      let cur = start;
      for (let i = 0; i < 10 && cur; i++) cur = parent.get(cur)!;
      expect(cur, `walk from ${start}`).toBe('');
    }
    expect(placed.filter((p) => p.parentId === '').length).toBeGreaterThanOrEqual(2);
  });

  it('a part of a catalog (NOTIFY) hangs under stored channels and keeps a stored directory a directory', () => {
    const [p] = placeItems('34020000002000000001', [item('34020000002150000001', { name: 'renamed' })], new Set(), new Map([['34020000002150000001', 3]]));
    expect(p).toMatchObject({ parental: 1, subCount: 3 });
    const [c] = placeItems('34020000002000000001', [item('34020000001310000009', { parentId: '34020000002150000001' })], new Set(['34020000002150000001']));
    expect(c.parentId).toBe('34020000002150000001');
  });

  it('on random catalogs: every parent is another listed item or the top, every walk reaches the top, directories hold what hangs under them', () => {
    const DEV = '34020000002000000001';
    const ids = Array.from({ length: 12 }, (_, i) => `340200000021${i % 2 ? '5' : '3'}${String(i).padStart(7, '0')}`);
    const ref = fc.oneof(fc.constantFrom(...ids, DEV, '99999999990000000000'), fc.constant(undefined));
    const arbItem = fc.record({
      id: fc.constantFrom(...ids),
      parentId: fc.oneof(ref, fc.tuple(ref, ref).map(([a, b]) => [a, b].filter(Boolean).join('/'))),
      businessGroupId: ref,
      civilCode: ref,
      parental: fc.constantFrom(0, 1, undefined),
    });
    fc.assert(
      fc.property(fc.uniqueArray(arbItem, { selector: (i) => i.id, maxLength: 12 }), (raw) => {
        const items = raw.map((r) => item(r.id, { parentId: r.parentId || undefined, businessGroupId: r.businessGroupId, civilCode: r.civilCode, parental: r.parental }));
        const placed = placeItems(DEV, items);
        const listed = new Set(items.map((i) => i.deviceId));
        const parent = new Map(placed.map((p) => [p.item.deviceId, p.parentId]));
        for (const p of placed) {
          expect(p.parentId === '' || (listed.has(p.parentId) && p.parentId !== p.item.deviceId)).toBe(true);
          let cur = p.item.deviceId;
          for (let n = 0; n <= items.length && cur; n++) cur = parent.get(cur)!;
          expect(cur).toBe('');
          const children = placed.filter((c) => c.parentId === p.item.deviceId).length;
          expect(p.subCount).toBe(children);
          if (children) expect(p.parental).toBe(1);
        }
      }),
      { numRuns: 300 },
    );
  });
});
