/**
 * The direct SRTP path of WebRTC video (webrtc-srtp-direct.ts), for both profiles it takes (AES-GCM,
 * and AES-CM with HMAC-SHA1-80, which Chromium picks): its packets are byte for byte what werift's own
 * SrtpSession makes from the same keys (random payloads and headers, across a sequence
 * number wrap, where the rollover counter steps), a werift receiver decrypts them, and the path is only
 * taken where it applies (those profiles over a plain UDP pair): on a real UDP socket the receiver
 * gets whole packets; another profile, a TURN pair, a new nomination, a closed socket or expired
 * consent give the packet back to werift's path.
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProtectionProfileAeadAes128Gcm, ProtectionProfileAes128CmHmacSha1_80, RtpHeader, RtpPacket, SrtpSession } from 'werift';
import { directSrtp, SrtpCmWriter, SrtpGcmWriter, type SrtpContextLike } from '../../src/media/outputs/webrtc-srtp-direct.js';
import { until } from '../helpers/index.js';

const keys = () => ({
  localMasterKey: crypto.randomBytes(16),
  localMasterSalt: crypto.randomBytes(12),
  remoteMasterKey: crypto.randomBytes(16),
  remoteMasterSalt: crypto.randomBytes(12),
});
type Keys = ReturnType<typeof keys>;
const session = (k: Keys, profile: number = ProtectionProfileAeadAes128Gcm) => new SrtpSession({ keys: k, profile });
/** The other end: its local keys are our remote ones. */
const peer = (k: Keys, profile: number = ProtectionProfileAeadAes128Gcm) =>
  session({ localMasterKey: k.remoteMasterKey, localMasterSalt: k.remoteMasterSalt, remoteMasterKey: k.localMasterKey, remoteMasterSalt: k.localMasterSalt }, profile);
const contextOf = (s: SrtpSession) => (s as unknown as { localContext: SrtpContextLike }).localContext;

const PROFILES = [
  { name: 'AEAD_AES_128_GCM', profile: ProtectionProfileAeadAes128Gcm, Writer: SrtpGcmWriter, tag: 16 },
  { name: 'AES_CM_128_HMAC_SHA1_80', profile: ProtectionProfileAes128CmHmacSha1_80, Writer: SrtpCmWriter, tag: 10 },
];

describe.each(PROFILES)('$name writer', ({ profile, Writer, tag }) => {
  it("makes werift's packets from werift's keys, across a sequence number wrap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.array(fc.tuple(fc.uint8Array({ minLength: 0, maxLength: 1300 }), fc.boolean()), { minLength: 1, maxLength: 40 }),
        (firstSeq, ssrc, timestamp, packets) => {
          const k = keys();
          const ours = new Writer(contextOf(session(k, profile)), ssrc, 96);
          const theirs = session(k, profile);
          const receiver = peer(k, profile);
          // Start near the wrap half the time, so the rollover counter steps inside the run.
          let seq = firstSeq % 2 ? 0xffff - (firstSeq % 20) : firstSeq;
          for (const [payload, marker] of packets) {
            const parts = ours.encrypt(seq, timestamp, marker, payload);
            const packet = Buffer.concat(parts);
            const expected = theirs.encrypt(Buffer.from(payload), new RtpHeader({ payloadType: 96, sequenceNumber: seq, timestamp, ssrc, marker }));
            expect(packet.equals(expected)).toBe(true);
            expect(parts[0].length).toBe(12);
            expect(parts[2].length).toBe(tag);
            const plain = RtpPacket.deSerialize(receiver.decrypt(packet));
            expect(plain.payload.equals(Buffer.from(payload))).toBe(true);
            expect(plain.header.sequenceNumber).toBe(seq);
            seq = (seq + 1) & 0xffff;
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('changes the packet if any header field or the rollover counter differs (the IV and the authentication cover them)', () => {
    const k = keys();
    const payload = crypto.randomBytes(200);
    const make = (ssrc: number, pt: number, seq: number, ts: number, marker: boolean, roc = 0) => {
      const ctx = contextOf(session(k, profile));
      if (roc) {
        ctx.getSrtpSsrcState(ssrc).rolloverCounter = roc;
        ctx.updateRolloverCount(seq - 1, ctx.getSrtpSsrcState(ssrc));
      }
      return Buffer.concat(new Writer(ctx, ssrc, pt).encrypt(seq, ts, marker, payload));
    };
    const base = make(7, 96, 10, 1000, false);
    const variants = [make(8, 96, 10, 1000, false), make(7, 97, 10, 1000, false), make(7, 96, 11, 1000, false), make(7, 96, 10, 1001, false), make(7, 96, 10, 1000, true), make(7, 96, 10, 1000, false, 1)];
    for (const v of variants) {
      expect(v.length).toBe(base.length);
      // The encrypted payload or the tag differ, not only the header.
      expect(v.subarray(12).equals(base.subarray(12))).toBe(false);
    }
  });
});

/** A werift DTLS transport as far as directSrtp reads it. */
function fakeTransport(s: SrtpSession, socket: { send: (...a: never[]) => void }, remote: readonly [string, number], type = 'stun') {
  const transport = { closed: false, socket };
  const pair = { protocol: { type, transport }, remoteAddr: remote, packetsSent: 0, bytesSent: 0 };
  const connection = { nominated: pair as typeof pair | undefined, consent: true, canSendApplicationData: () => connection.consent };
  return { t: { srtp: s, iceTransport: { connection }, bytesSent: 0, packetsSent: 0 }, pair, connection, transport };
}

describe('directSrtp', () => {
  it.each(PROFILES)('$name: sends [header, ciphertext, tag] on the pair’s UDP socket; the peer decrypts every packet', async ({ profile }) => {
    const k = keys();
    const rx = dgram.createSocket('udp4');
    const tx = dgram.createSocket('udp4');
    await new Promise<void>((r) => rx.bind(0, '127.0.0.1', r));
    const got: Buffer[] = [];
    rx.on('message', (m) => got.push(m));
    try {
      const f = fakeTransport(session(k, profile), tx as never, ['127.0.0.1', rx.address().port]);
      const direct = directSrtp(f.t, 1234, 96)!;
      expect(direct).toBeDefined();
      const payloads = Array.from({ length: 20 }, (_, i) => crypto.randomBytes(100 + i * 50));
      payloads.forEach((p, i) => expect(direct.send(100 + i, 5000, i === payloads.length - 1, p)).toBe(true));
      await until(() => got.length >= payloads.length, 1000, { everyMs: 10 });
      expect(got.length).toBe(payloads.length);
      const receiver = peer(k, profile);
      const sizes = got.map((m) => m.length);
      got.forEach((m, i) => {
        const { header, payload } = RtpPacket.deSerialize(receiver.decrypt(m));
        expect(header.sequenceNumber).toBe(100 + i);
        expect(header.marker).toBe(i === payloads.length - 1);
        expect(header.ssrc).toBe(1234);
        expect(payload.equals(payloads[i])).toBe(true);
      });
      const total = sizes.reduce((a, b) => a + b, 0);
      expect(f.t.bytesSent).toBe(total);
      expect(f.t.packetsSent).toBe(payloads.length);
      expect(f.pair.packetsSent).toBe(payloads.length);
    } finally {
      rx.close();
      tx.close();
    }
  });

  it('a send the kernel refuses (no route from a loopback socket) neither throws nor emits an error', async () => {
    const tx = dgram.createSocket('udp4');
    await new Promise<void>((r) => tx.bind(0, '127.0.0.1', r));
    const errors: Error[] = [];
    tx.on('error', (err) => errors.push(err));
    try {
      const direct = directSrtp(fakeTransport(session(keys()), tx as never, ['192.0.2.1', 9]).t, 1, 96)!;
      expect(direct.send(1, 0, true, new Uint8Array(100))).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(errors).toEqual([]);
    } finally {
      tx.close();
    }
  });

  it("is not taken for another profile, a TURN pair or no nominated pair", () => {
    const socket = { send: () => undefined };
    const other = fakeTransport(session(keys()), socket, ['127.0.0.1', 9]);
    (other.t.srtp as unknown as { localContext: { profile: number } }).localContext.profile = 0x0002; // AES128_CM_HMAC_SHA1_32
    expect(directSrtp(other.t, 1, 96)).toBeUndefined();
    expect(directSrtp(fakeTransport(session(keys(), ProtectionProfileAes128CmHmacSha1_80), socket, ['127.0.0.1', 9]).t, 1, 96)).toBeDefined();
    expect(directSrtp(fakeTransport(session(keys()), socket, ['127.0.0.1', 9], 'turn').t, 1, 96)).toBeUndefined();
    const none = fakeTransport(session(keys()), socket, ['127.0.0.1', 9]);
    none.connection.nominated = undefined;
    expect(directSrtp(none.t, 1, 96)).toBeUndefined();
    expect(directSrtp({ bytesSent: 0, packetsSent: 0 }, 1, 96)).toBeUndefined();
    // a host name: werift's send resolves it
    expect(directSrtp(fakeTransport(session(keys()), socket, ['abc.local', 9]).t, 1, 96)).toBeUndefined();
  });

  it('gives the packet back (sends nothing) after new SRTP keys, a new nomination, a closed socket or expired consent', () => {
    for (const change of ['keys', 'nomination', 'closed', 'consent'] as const) {
      const sent: unknown[] = [];
      const f = fakeTransport(session(keys()), { send: (...a: never[]) => void sent.push(a) }, ['127.0.0.1', 9]);
      const direct = directSrtp(f.t, 1, 96)!;
      expect(direct.send(1, 0, false, new Uint8Array(10))).toBe(true);
      if (change === 'keys') f.t.srtp = session(keys());
      if (change === 'nomination') f.connection.nominated = { ...f.pair };
      if (change === 'closed') f.transport.closed = true;
      if (change === 'consent') f.connection.consent = false;
      expect(direct.send(2, 0, false, new Uint8Array(10))).toBe(false);
      expect(sent.length).toBe(1);
    }
  });
});
