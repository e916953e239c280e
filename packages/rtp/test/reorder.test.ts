import { describe, expect, it } from 'vitest';
import { ReorderBuffer, seqDiff, TimestampUnwrapper, type RtpPacket } from '../src/index.js';

const pkt = (seq: number): RtpPacket => ({ marker: false, payloadType: 96, sequenceNumber: seq & 0xffff, timestamp: 0, ssrc: 1, csrc: [], padding: 0, payload: new Uint8Array(0) });

function run(buf: ReorderBuffer, seqs: number[], now = () => 0) {
  return seqs.flatMap((s) => buf.push(pkt(s), now())).map((r) => (r.lost ? `${r.packet.sequenceNumber}(-${r.lost})` : `${r.packet.sequenceNumber}`));
}

describe('ReorderBuffer', () => {
  it('passes packets in order straight through', () => {
    expect(run(new ReorderBuffer(), [1, 2, 3])).toEqual(['1', '2', '3']);
  });
  it('reorders within the window', () => {
    expect(run(new ReorderBuffer(), [1, 3, 2, 5, 4])).toEqual(['1', '2', '3', '4', '5']);
  });
  it('wraps around 65535', () => {
    expect(run(new ReorderBuffer(), [65534, 0, 65535, 1])).toEqual(['65534', '65535', '0', '1']);
  });
  it('drops late and duplicate packets', () => {
    const b = new ReorderBuffer();
    expect(run(b, [10, 11, 9, 11, 13, 13, 12])).toEqual(['10', '11', '12', '13']);
    expect(b.stats).toMatchObject({ late: 2, duplicate: 1 });
  });
  it('gives up a gap after maxDelayMs and reports it on the next packet', () => {
    const b = new ReorderBuffer({ maxDelayMs: 100 });
    expect(b.push(pkt(1), 0).length).toBe(1);
    expect(b.push(pkt(4), 10)).toEqual([]);
    expect(b.drain(50)).toEqual([]);
    expect(b.drain(110).map((r) => [r.packet.sequenceNumber, r.lost])).toEqual([[4, 2]]);
    expect(b.stats.lost).toBe(2);
  });
  it('gives up a gap when the window is full', () => {
    const b = new ReorderBuffer({ size: 4 });
    expect(run(b, [1, 3, 4, 5, 6])).toEqual(['1', '3(-1)', '4', '5', '6']);
  });
  it('starts over after a jump far behind (a restarted source)', () => {
    expect(run(new ReorderBuffer(), [5000, 5001, 10, 11])).toEqual(['5000', '5001', '10', '11']);
  });
  it('flush gives everything with its gaps', () => {
    const b = new ReorderBuffer();
    run(b, [1, 3, 6]);
    expect(b.flush().map((r) => [r.packet.sequenceNumber, r.lost])).toEqual([[3, 1], [6, 2]]);
  });
});

describe('seqDiff and TimestampUnwrapper', () => {
  it('seqDiff is signed across the wrap', () => {
    expect([seqDiff(1, 65535), seqDiff(65535, 1), seqDiff(5, 5), seqDiff(32767, 0), seqDiff(32768, 0)]).toEqual([2, -2, 0, 32767, -32768]);
  });
  const cases: { name: string; input: number[]; output: number[] }[] = [
    { name: 'monotonic', input: [100, 200, 300], output: [100, 200, 300] },
    { name: 'across 2^32', input: [0xfffffff0, 0x10, 0x20], output: [0xfffffff0, 0x100000010, 0x100000020] },
    { name: 'small step back (B-frames)', input: [1000, 4000, 2000], output: [1000, 4000, 2000] },
    { name: 'back across the wrap', input: [0x10, 0xfffffff0], output: [0x10, -0x10] },
    { name: 'twice around', input: [0, 0x70000000, 0xe0000000, 0x50000000, 0xc0000000, 0x30000000], output: [0, 0x70000000, 0xe0000000, 0x150000000, 0x1c0000000, 0x230000000] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const u = new TimestampUnwrapper();
      expect(c.input.map((t) => u.unwrap(t))).toEqual(c.output);
    });
  }
});
