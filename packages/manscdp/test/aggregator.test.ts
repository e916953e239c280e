import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CatalogAggregator,
  decodeManscdp,
  encodeCatalogPages,
  RecordInfoAggregator,
  type CatalogItem,
  type CatalogResponse,
  type RecordItem,
} from '../src/index.js';

const DEV_A = '34020000001320000001';
const DEV_B = '34020000001320000002';
const item = (n: number, dev = DEV_A): CatalogItem => ({
  deviceId: `${dev.slice(0, 10)}131${String(n).padStart(7, '0')}`,
  name: `cam ${n}`,
  info: {},
});

function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const page = (deviceId: string, sn: number, sumNum: number, items: CatalogItem[]): CatalogResponse => ({
  root: 'Response',
  cmdType: 'Catalog',
  kind: 'catalog',
  deviceId,
  sn,
  sumNum,
  items,
  rejected: [],
});

describe('catalog aggregation', () => {
  it('completes when SumNum items arrived, whatever the order and the duplicates', () => {
    const c = clock();
    const agg = new CatalogAggregator({ now: c.now });
    agg.start(DEV_A, 7);
    const all = Array.from({ length: 10 }, (_, i) => item(i));
    expect(agg.addResponse(page(DEV_A, 7, 10, all.slice(4, 8))).done).toBeUndefined();
    expect(agg.addResponse(page(DEV_A, 7, 10, all.slice(4, 8))).received).toBe(4); // resent page
    expect(agg.addResponse(page(DEV_A, 7, 10, all.slice(0, 4))).done).toBeUndefined();
    const done = agg.addResponse(page(DEV_A, 7, 10, all.slice(8))).done;
    expect(done).toMatchObject({
      complete: true,
      reason: 'complete',
      received: 10,
      sumNum: 10,
      duplicates: 4,
      pages: 4,
    });
    expect(done?.items.map((i) => i.deviceId).sort()).toEqual(all.map((i) => i.deviceId).sort());
    expect(agg.openCount).toBe(0);
  });

  it('keeps devices and SNs apart when their pages interleave', () => {
    const c = clock();
    const agg = new CatalogAggregator({ now: c.now });
    const a = agg.addResponse(page(DEV_A, 1, 2, [item(1)]));
    const b = agg.addResponse(page(DEV_B, 1, 1, [item(1, DEV_B)]));
    const a2 = agg.addResponse(page(DEV_A, 2, 1, [item(9)]));
    expect(a.done).toBeUndefined();
    expect(b.done?.items.map((i) => i.deviceId)).toEqual([item(1, DEV_B).deviceId]);
    expect(a2.done?.items).toHaveLength(1);
    expect(agg.addResponse(page(DEV_A, 1, 2, [item(2)])).done?.received).toBe(2);
  });

  it('an answer that stops short times out with how many of SumNum arrived', () => {
    const c = clock();
    const agg = new CatalogAggregator({ now: c.now, idleTimeoutMs: 5000 });
    agg.start(DEV_A, 3);
    agg.addResponse(page(DEV_A, 3, 300, [item(1), item(2)]));
    c.advance(4999);
    expect(agg.expire()).toEqual([]);
    expect(agg.nextDeadline()).toBe(5000);
    c.advance(1);
    const [r] = agg.expire();
    expect(r).toMatchObject({
      complete: false,
      reason: 'idle-timeout',
      received: 2,
      sumNum: 300,
      deviceId: DEV_A,
      sn: 3,
    });
  });

  it('a query with no answer at all times out too; total time-out bounds a trickle', () => {
    const c = clock();
    const agg = new CatalogAggregator({ now: c.now, idleTimeoutMs: 1000, totalTimeoutMs: 3000 });
    agg.start(DEV_A, 1);
    agg.start(DEV_B, 1);
    for (let i = 0; i < 5; i++) {
      c.advance(900);
      agg.addResponse(page(DEV_B, 1, 100, [item(i, DEV_B)]));
    }
    const ended = agg.expire();
    expect(ended.map((r) => [r.deviceId, r.reason, r.received])).toEqual([
      [DEV_A, 'total-timeout', 0],
      [DEV_B, 'total-timeout', 5],
    ]);
  });

  it('SumNum 0 completes at once; rejected items count toward SumNum', () => {
    const c = clock();
    const agg = new CatalogAggregator({ now: c.now });
    expect(agg.addResponse(page(DEV_A, 5, 0, [])).done?.complete).toBe(true);
    const withBad = { ...page(DEV_A, 6, 2, [item(1)]), rejected: [{ index: 1, deviceId: 'x', reason: 'bad' }] };
    expect(agg.addResponse(withBad).done).toMatchObject({ complete: true, received: 2, rejected: [{ deviceId: 'x' }] });
  });

  it('bounds memory: items per answer and answers open', () => {
    const c = clock();
    const agg = new CatalogAggregator({ now: c.now, maxItems: 3, maxOpen: 2 });
    expect(agg.addResponse(page(DEV_A, 1, 1_000_000_000, [item(1), item(2), item(3), item(4)])).done).toMatchObject({
      received: 3,
      complete: true,
    });
    agg.start(DEV_A, 2);
    agg.start(DEV_A, 3);
    expect(agg.start(DEV_A, 4)).toMatchObject({ sn: 2, reason: 'overflow' });
  });

  it('refuses unsolicited pages when asked to', () => {
    const agg = new CatalogAggregator({ now: () => 0, acceptUnsolicited: false });
    expect(agg.addResponse(page(DEV_A, 1, 1, [item(1)])).accepted).toBe(false);
  });

  it('property: any split, order and duplication of a catalog ends complete with exactly its items', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: 0, max: 1e6 }),
        (n, per, shuffle, seed) => {
          const items = Array.from({ length: n }, (_, i) => item(i));
          const bodies = encodeCatalogPages({ sn: seed, deviceId: DEV_A, items, perPage: per });
          // Resend some pages, then reorder by the random keys.
          const sent = [...bodies, ...shuffle.slice(0, 5).map((k) => bodies[k % bodies.length])];
          const order = sent
            .map((b, i) => ({ b, k: shuffle[i % Math.max(1, shuffle.length)] ?? i }))
            .sort((x, y) => x.k - y.k);
          const agg = new CatalogAggregator({ now: () => 0 });
          let done;
          for (const { b } of order) {
            const r = decodeManscdp(b.bytes);
            if (!r.ok || r.message.kind !== 'catalog') throw new Error('page does not decode');
            done = agg.addResponse(r.message).done ?? done;
          }
          expect(done?.complete).toBe(true);
          expect(done?.items.map((i) => i.deviceId).sort()).toEqual(items.map((i) => i.deviceId).sort());
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('record info aggregation', () => {
  it('pages keyed by recording, results sorted by start time', () => {
    const agg = new RecordInfoAggregator({ now: () => 0 });
    const rec = (h: number): RecordItem => ({
      deviceId: DEV_A,
      startTime: `2024-05-04T${String(h).padStart(2, '0')}:00:00`,
      endTime: `2024-05-04T${String(h).padStart(2, '0')}:59:59`,
      type: 'time',
    });
    const base = {
      root: 'Response' as const,
      cmdType: 'RecordInfo',
      kind: 'record-info' as const,
      deviceId: DEV_A,
      sn: 18,
      sumNum: 3,
      rejected: [],
    };
    agg.addResponse({ ...base, items: [rec(9), rec(3)] });
    agg.addResponse({ ...base, items: [rec(3)] });
    const done = agg.addResponse({ ...base, items: [rec(1)] }).done;
    expect(done?.items.map((r) => r.startTime)).toEqual([
      '2024-05-04T01:00:00',
      '2024-05-04T03:00:00',
      '2024-05-04T09:00:00',
    ]);
    expect(done?.duplicates).toBe(1);
  });
});

describe('aggregator under random operations', () => {
  it('never throws; each answer ends once; counts stay within bounds', () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant('start' as const), dev: fc.nat(2), sn: fc.nat(3) }),
      fc.record({
        t: fc.constant('add' as const),
        dev: fc.nat(2),
        sn: fc.nat(3),
        sum: fc.integer({ min: -1, max: 12 }),
        ids: fc.array(fc.nat(15), { maxLength: 5 }),
      }),
      fc.record({ t: fc.constant('tick' as const), ms: fc.nat(4000) }),
      fc.record({ t: fc.constant('cancel' as const), dev: fc.nat(2), sn: fc.nat(3) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        let now = 0;
        const agg = new CatalogAggregator({
          now: () => now,
          idleTimeoutMs: 1000,
          totalTimeoutMs: 5000,
          maxOpen: 5,
          maxItems: 8,
        });
        const ended: { deviceId: string; sn: number; received: number; sumNum: number; items: CatalogItem[] }[] = [];
        const dev = (d: number) => `3402000000132000000${d}`;
        for (const o of ops) {
          if (o.t === 'start') {
            const dropped = agg.start(dev(o.dev), o.sn);
            if (dropped) ended.push(dropped);
          } else if (o.t === 'add') {
            const r = agg.addResponse(
              page(
                dev(o.dev),
                o.sn,
                o.sum,
                o.ids.map((i) => item(i)),
              ),
            );
            if (r.done) ended.push(r.done);
          } else if (o.t === 'tick') {
            now += o.ms;
            ended.push(...agg.expire());
          } else {
            const c = agg.cancel(dev(o.dev), o.sn);
            if (c) ended.push(c);
          }
          expect(agg.openCount).toBeLessThanOrEqual(5);
        }
        for (const r of ended) {
          expect(r.items.length).toBeLessThanOrEqual(8);
          expect(new Set(r.items.map((i) => i.deviceId)).size).toBe(r.items.length);
          expect(r.received).toBe(r.items.length);
        }
      }),
      { numRuns: 500 },
    );
  });
});
