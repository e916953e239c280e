/**
 * A small packetiser for the tests only (the hub never sends RTP from these packages yet): H.264 /
 * H.265 units as single NAL packets, STAP-A/AP aggregates and FU-A/FU fragments; AAC frames with
 * RFC 3640 AU-headers (several per packet, or one fragmented).
 */
import { serializeRtp } from '../src/index.js';

export interface PacketiseOptions {
  /** Largest RTP payload. */
  mtu: number;
  aggregate?: boolean;
  seq0?: number;
  ts0?: number;
  ssrc?: number;
  payloadType?: number;
}

interface Unit {
  pts: number;
  nalus: Uint8Array[];
}

function rtp(payload: Uint8Array, marker: boolean, ts: number, seq: number, o: PacketiseOptions): Uint8Array {
  return serializeRtp({ marker, payloadType: o.payloadType ?? 96, sequenceNumber: seq & 0xffff, timestamp: (ts + (o.ts0 ?? 0)) >>> 0, ssrc: o.ssrc ?? 0x1234, csrc: [], padding: 0, payload });
}

export function packetiseNal(codec: 'h264' | 'h265', units: Unit[], o: PacketiseOptions): Uint8Array[] {
  const hl = codec === 'h264' ? 1 : 2;
  const out: Uint8Array[] = [];
  let seq = o.seq0 ?? 0;
  for (const u of units) {
    const payloads: Uint8Array[] = [];
    let agg: Uint8Array[] = [];
    const flushAgg = () => {
      if (agg.length === 1) payloads.push(agg[0]);
      else if (agg.length > 1) {
        const head = codec === 'h264' ? [agg.reduce((m, n) => Math.max(m, n[0] & 0x60), 0) | 24] : [48 << 1, 1];
        const parts = agg.flatMap((n) => [n.length >> 8, n.length & 0xff, ...n]);
        payloads.push(Uint8Array.from([...head, ...parts]));
      }
      agg = [];
    };
    for (const nal of u.nalus) {
      if (nal.length <= o.mtu) {
        const aggSize = hl + agg.reduce((s, n) => s + 2 + n.length, 0);
        if (o.aggregate && aggSize + 2 + nal.length <= o.mtu) {
          agg.push(nal);
          continue;
        }
        flushAgg();
        if (o.aggregate) agg.push(nal);
        else payloads.push(nal);
        continue;
      }
      flushAgg();
      const data = nal.subarray(hl);
      const room = o.mtu - hl - 1;
      for (let at = 0; at < data.length; at += room) {
        const s = at === 0 ? 0x80 : 0;
        const e = at + room >= data.length ? 0x40 : 0;
        const head = codec === 'h264' ? [(nal[0] & 0xe0) | 28, s | e | (nal[0] & 0x1f)] : [(nal[0] & 0x81) | (49 << 1), nal[1], s | e | ((nal[0] >> 1) & 0x3f)];
        payloads.push(Uint8Array.from([...head, ...data.subarray(at, at + room)]));
      }
    }
    flushAgg();
    payloads.forEach((p, i) => out.push(rtp(p, i === payloads.length - 1, u.pts, seq++, o)));
  }
  return out;
}

/** AAC frames (raw), `frameLength` samples apart, as mpeg4-generic AAC-hbr packets. */
export function packetiseAac(frames: Uint8Array[], o: PacketiseOptions & { frameLength?: number }): Uint8Array[] {
  const out: Uint8Array[] = [];
  let seq = o.seq0 ?? 0;
  const fl = o.frameLength ?? 1024;
  const packet = (group: Uint8Array[], sizes: number[], marker: boolean, ts: number) => {
    const headers = sizes.flatMap((s) => [(s << 3) >> 8, (s << 3) & 0xff]);
    const body = Uint8Array.from([(sizes.length * 16) >> 8, (sizes.length * 16) & 0xff, ...headers, ...group.flatMap((g) => [...g])]);
    out.push(rtp(body, marker, ts, seq++, o));
  };
  let group: Uint8Array[] = [];
  let groupTs = 0;
  const flush = () => {
    if (group.length) packet(group, group.map((g) => g.length), true, groupTs);
    group = [];
  };
  frames.forEach((f, i) => {
    const ts = i * fl;
    if (4 + f.length > o.mtu) {
      flush();
      const room = o.mtu - 4;
      for (let at = 0; at < f.length; at += room) packet([f.subarray(at, at + room)], [f.length], at + room >= f.length, ts);
      return;
    }
    const size = 2 + group.reduce((s, g) => s + 2 + g.length, 0);
    if (size + 2 + f.length > o.mtu) flush();
    if (group.length === 0) groupTs = ts;
    group.push(f);
  });
  flush();
  return out;
}
