/**
 * The RTMP chunk codec of the stream checker's RTMP probe (access/rtmp/chunks.ts), on bytes written
 * out by hand from the RTMP 1.0 specification (5.2 handshake, 5.3 chunk headers, 5.4.1 Set Chunk Size):
 * the four header formats, 2-byte chunk stream ids, extended timestamps, a message cut into chunks,
 * any cut of the input, and what it refuses; on garbage and mutated streams (a server's bytes are not
 * trusted) it returns messages or throws RtmpError, nothing else.
 */
import { describe, expect, it } from 'vitest';
import {
  encodeChunks,
  handshakeC0C1,
  handshakeC2,
  HANDSHAKE_SIZE,
  RtmpChunkReader,
  RtmpError,
  RtmpType,
  setBufferLength,
  u32Payload,
  type RtmpMessage,
} from '../../src/access/rtmp/chunks.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const bytes = (n: number, from = 0) => Uint8Array.from({ length: n }, (_, i) => (from + i) & 0xff);

/** Every message of `data`, fed whole and fed one byte at a time: both must agree. */
function read(data: Uint8Array): RtmpMessage[] {
  const whole = new RtmpChunkReader().push(data);
  const byByte = new RtmpChunkReader();
  const pieces: RtmpMessage[] = [];
  for (const b of data) pieces.push(...byByte.push(Uint8Array.of(b)));
  expect(pieces).toEqual(whole);
  return whole;
}

describe('handshake', () => {
  it('C0+C1 is version 3, time 0, zero, then the random part; C2 echoes S1', () => {
    const random = bytes(HANDSHAKE_SIZE - 8, 1);
    const c = handshakeC0C1(random);
    expect(c.length).toBe(1537);
    expect([...c.subarray(0, 9)]).toEqual([3, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(c.subarray(9)).toEqual(random);
    const s1 = bytes(HANDSHAKE_SIZE, 9);
    expect(handshakeC2(s1)).toEqual(s1);
    expect(() => handshakeC2(s1.subarray(1))).toThrow(RtmpError);
  });
});

describe('encodeChunks', () => {
  it('a 200-byte command in 128-byte chunks: a type 0 header, then one type 3 header', () => {
    const payload = bytes(200);
    const out = encodeChunks({ csid: 3, type: RtmpType.commandAmf0, streamId: 0, timestamp: 0, payload });
    expect(out.subarray(0, 12)).toEqual(hex('03 000000 0000c8 14 00000000'));
    expect(out.subarray(12, 140)).toEqual(payload.subarray(0, 128));
    expect(out[140]).toBe(0xc3);
    expect(out.subarray(141)).toEqual(payload.subarray(128));
    expect(out.length).toBe(12 + 200 + 1);
  });

  it('the message stream id is little-endian; an extended timestamp follows every header', () => {
    const out = encodeChunks({ csid: 8, type: RtmpType.video, streamId: 1, timestamp: 0x01000000, payload: bytes(5) }, 4);
    expect(out).toEqual(hex('08 ffffff 000005 09 01000000 01000000 00010203 c8 01000000 04'));
  });

  it('reads back what it writes', () => {
    const m: RtmpMessage = { csid: 5, type: RtmpType.audio, streamId: 7, timestamp: 123456, payload: bytes(1000) };
    expect(read(encodeChunks(m))).toEqual([m]);
    // A larger chunk size, told first as the peer must.
    const size: RtmpMessage = { csid: 2, type: RtmpType.setChunkSize, streamId: 0, timestamp: 0, payload: u32Payload(300) };
    expect(read(Buffer.concat([encodeChunks(size), encodeChunks(m, 300)]))).toEqual([size, m]);
    expect(() => encodeChunks({ ...m, csid: 64 })).toThrow(RtmpError);
  });
});

describe('RtmpChunkReader', () => {
  it('formats 1, 2 and 3 take what they leave out from the chunk stream’s last header', () => {
    const data = hex(`
      04 0003e8 000003 09 01000000 aabbcc
      84 000028 ddeeff
      c4 112233
      44 000014 000002 08 4455
    `);
    expect(read(data)).toEqual([
      { csid: 4, type: 9, streamId: 1, timestamp: 1000, payload: hex('aabbcc') },
      { csid: 4, type: 9, streamId: 1, timestamp: 1040, payload: hex('ddeeff') },
      // Format 3 starting a message: the last delta again.
      { csid: 4, type: 9, streamId: 1, timestamp: 1080, payload: hex('112233') },
      { csid: 4, type: 8, streamId: 1, timestamp: 1100, payload: hex('4455') },
    ]);
  });

  it('2- and 3-byte chunk stream ids', () => {
    const data = hex(`
      00 06 000000 000001 14 00000000 01
      01 0001 000000 000001 14 00000000 02
    `);
    expect(read(data).map((m) => [m.csid, m.payload[0]])).toEqual([
      [70, 1],
      [320, 2],
    ]);
  });

  it('a message in chunks with an extended timestamp, interleaved with another chunk stream', () => {
    const data = hex(`
      06 ffffff 0000c8 09 01000000 02000000 ${Buffer.from(bytes(128)).toString('hex')}
      02 000000 000004 05 00000000 00001000
      c6 02000000 ${Buffer.from(bytes(72, 128)).toString('hex')}
    `);
    const [ack, video] = read(data);
    expect(ack).toMatchObject({ csid: 2, type: RtmpType.windowAckSize, payload: hex('00001000') });
    expect(video).toMatchObject({ csid: 6, type: 9, streamId: 1, timestamp: 0x02000000 });
    expect(video.payload).toEqual(bytes(200));
  });

  it('follows the peer’s Set Chunk Size for the chunks after it', () => {
    const data = hex(`
      02 000000 000004 01 00000000 00000100
      03 000000 000100 14 00000000 ${Buffer.from(bytes(256)).toString('hex')}
    `);
    const [size, big] = read(data);
    expect(size.type).toBe(RtmpType.setChunkSize);
    expect(big.payload).toEqual(bytes(256));
  });

  it('refuses a chunk stream that starts without a full header, a length past its bound and a chunk size of 0', () => {
    expect(() => new RtmpChunkReader().push(hex('44 000014 000002 08 4455'))).toThrow(/starts without a full header/);
    expect(() => new RtmpChunkReader(1000).push(hex('03 000000 0003e9 14 00000000'))).toThrow(/at most 1000/);
    expect(() => new RtmpChunkReader().push(hex('02 000000 000004 01 00000000 00000000'))).toThrow(/Set Chunk Size 0/);
  });

  it('a message announced larger than what came holds only what came (a server cannot make the reader allocate what it only claims)', () => {
    const reader = new RtmpChunkReader();
    // 300 chunk streams each announcing a 16 MB message, with one chunk (128 bytes) of it.
    for (let id = 0; id < 300; id++) {
      expect(reader.push(Uint8Array.of(0x01, id & 0xff, id >> 8, 0, 0, 0, 0xff, 0xff, 0xff, 9, 1, 0, 0, 0, ...bytes(128)))).toEqual([]);
    }
    const held = (reader as unknown as { streams: Map<number, { body?: Uint8Array[] }> }).streams;
    expect(held.size).toBe(300);
    expect([...held.values()].reduce((n, st) => n + (st.body ?? []).reduce((m, b) => m + b.buffer.byteLength, 0), 0)).toBe(300 * 128);
  });

  it('Set Buffer Length: event 3, the stream id, the milliseconds', () => {
    expect(setBufferLength(1, 1000)).toEqual(hex('0003 00000001 000003e8'));
  });
});

describe('RtmpChunkReader on bytes it cannot trust', () => {
  /** A small deterministic generator (xorshift32), so a failure can be replayed. */
  const rng = (seed: number) => () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };

  it('random bytes and mutated valid streams: messages or RtmpError, never another exception', () => {
    const next = rng(0x5eed);
    const valid = Buffer.concat([
      encodeChunks({ csid: 2, type: RtmpType.setChunkSize, streamId: 0, timestamp: 0, payload: u32Payload(64) }),
      encodeChunks({ csid: 3, type: RtmpType.commandAmf0, streamId: 0, timestamp: 0, payload: bytes(150) }, 64),
      encodeChunks({ csid: 6, type: RtmpType.video, streamId: 1, timestamp: 0x1000000, payload: bytes(300) }, 64),
    ]);
    for (let round = 0; round < 2000; round++) {
      let data: Uint8Array;
      if (round % 2) {
        data = Uint8Array.from({ length: 1 + Math.floor(next() * 400) }, () => Math.floor(next() * 256));
      } else {
        data = Uint8Array.from(valid);
        for (let k = 0; k < 1 + Math.floor(next() * 6); k++) data[Math.floor(next() * data.length)] = Math.floor(next() * 256);
      }
      const reader = new RtmpChunkReader();
      try {
        for (let at = 0; at < data.length; ) {
          const n = 1 + Math.floor(next() * 50);
          reader.push(data.subarray(at, at + n));
          at += n;
        }
      } catch (err) {
        expect(err, `round ${round}`).toBeInstanceOf(RtmpError);
      }
    }
  });
});
