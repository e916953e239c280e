/** probeRtsp against TCP servers that answer with random garbage: a result with a reason, never a throw. */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReasonKey } from '@opencvr/shared';
import { probeRtsp } from '../../src/access/rtsp/probe.js';

describe('probeRtsp with hostile servers', () => {
  let server: net.Server;
  const open = new Set<net.Socket>();
  let port = 0;
  /** What the next connection receives, and whether the server then hangs up. */
  let script: { chunks: Uint8Array[]; hangUp: boolean } = { chunks: [], hangUp: true };
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    process.on('uncaughtException', onUnhandled);
    server = net.createServer((s) => {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => {});
      const { chunks, hangUp } = script;
      s.once('data', () => {
        for (const c of chunks) s.write(c);
        if (hangUp) s.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    process.off('uncaughtException', onUnhandled);
    for (const s of open) s.destroy();
    await new Promise((r) => server.close(r));
  });

  const rtspish = fc.oneof(
    fc.uint8Array({ maxLength: 512 }),
    fc
      .array(
        fc.oneof(
          fc.constantFrom('RTSP/1.0 200 OK', 'RTSP/1.0 401 Unauthorized', 'CSeq: 1', 'CSeq: 2', 'Content-Length: 10', 'Content-Length: zz',
            'WWW-Authenticate: Digest realm="x", nonce="y"', 'WWW-Authenticate: Basic', 'Content-Type: application/sdp', 'v=0', 'm=video 0 RTP/AVP 96', '$\x00\x00\x02ab', ''),
          fc.string({ maxLength: 30 }),
        ),
        { maxLength: 12 },
      )
      .map((lines) => new TextEncoder().encode(lines.join('\r\n'))),
  );

  it('never throws and always gives a reason, and a failure its catalogue reason', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rtspish, { minLength: 1, maxLength: 3 }), fc.boolean(), async (chunks, hangUp) => {
        script = { chunks, hangUp };
        const r = await probeRtsp(`rtsp://u:p@127.0.0.1:${port}/cam`, { timeoutMs: 200 });
        expect(typeof r.reason).toBe('string');
        expect(r.reason.length).toBeGreaterThan(0);
        if (!r.ok) expect(r.codecs).toEqual([]);
        if (!r.ok) expect(isReasonKey(r.why?.key ?? ''), r.reason).toBe(true);
      }),
      { numRuns: 60 },
    );
    expect(unhandled).toEqual([]);
  });

  it('a server that resets at once', async () => {
    const rst = net.createServer((s) => s.resetAndDestroy());
    await new Promise<void>((r) => rst.listen(0, '127.0.0.1', r));
    const r = await probeRtsp(`rtsp://127.0.0.1:${(rst.address() as net.AddressInfo).port}/`, { timeoutMs: 1000 });
    expect(r.ok).toBe(false);
    expect(['connection reset', 'connection closed by the camera']).toContain(r.reason);
    await new Promise((res) => rst.close(res));
  });
});
