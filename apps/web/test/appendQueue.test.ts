import { describe, expect, it } from 'vitest';
import { AppendQueue } from '../src/components/player/appendQueue';

const buf = (...bytes: number[]) => new Uint8Array(bytes).buffer;
const bytesOf = (b: ArrayBuffer | undefined) => (b ? [...new Uint8Array(b)] : undefined);

describe('MSE append queue', () => {
  it('joins the fragments that piled up into one append, in order', () => {
    const q = new AppendQueue<{ type: 'gap' }>();
    q.push(buf(1, 2));
    q.push(buf(3));
    q.push(buf(4, 5, 6));
    expect(q.bytes).toBe(6);
    expect(bytesOf(q.takeMedia(100))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(q.bytes).toBe(0);
    expect(q.takeMedia(100)).toBeUndefined();
  });

  it('a single fragment goes as it is (no copy)', () => {
    const q = new AppendQueue<never>();
    const b = buf(7, 8);
    q.push(b);
    expect(q.takeMedia(100)).toBe(b);
  });

  it('never joins across a marker, and the marker comes out in its place', () => {
    const q = new AppendQueue<{ type: 'gap'; to: number }>();
    q.push(buf(1));
    q.push({ type: 'gap', to: 5 });
    q.push(buf(2));
    expect(q.takeMarker()).toBeUndefined();
    expect(bytesOf(q.takeMedia(100))).toEqual([1]);
    expect(q.takeMedia(100)).toBeUndefined();
    expect(q.takeMarker()).toEqual({ type: 'gap', to: 5 });
    expect(bytesOf(q.takeMedia(100))).toEqual([2]);
  });

  it('takes at most maxBytes at once, but always at least one fragment', () => {
    const q = new AppendQueue<never>();
    q.push(buf(1, 2, 3, 4, 5));
    q.push(buf(6, 7));
    q.push(buf(8, 9));
    expect(bytesOf(q.takeMedia(3))).toEqual([1, 2, 3, 4, 5]);
    expect(bytesOf(q.takeMedia(4))).toEqual([6, 7, 8, 9]);
    q.push(buf(1, 2));
    q.push(buf(3, 4));
    q.push(buf(5));
    expect(bytesOf(q.takeMedia(3))).toEqual([1, 2]);
    expect(q.bytes).toBe(3);
  });

  it('an append that failed is put back in front; clear empties it', () => {
    const q = new AppendQueue<never>();
    q.push(buf(2));
    const first = buf(1);
    q.unshift(first);
    expect(q.bytes).toBe(2);
    expect(bytesOf(q.takeMedia(100))).toEqual([1, 2]);
    q.push(buf(3));
    q.clear();
    expect(q.bytes).toBe(0);
    expect(q.length).toBe(0);
  });
});
