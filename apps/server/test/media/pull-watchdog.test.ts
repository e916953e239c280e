/**
 * The no-media watchdog of the RTMP source (rtmp-source.ts) and of the ffmpeg pull source
 * (ffmpeg-pull-source.ts): one timeout pushed back by each message / each read of ffmpeg's output,
 * not a timer looking every second (issue 4). Both are driven here by ffmpeg serving a clip over RTMP
 * at its own pace (fixtures/ffmpeg-rtmp-listen.ts); the media "stops" by freezing that ffmpeg
 * (SIGSTOP), which keeps the connection open and sends nothing more, as a camera whose encoder hung.
 *
 * With fake timeouts (the media and the sockets stay real): media flowing across several
 * mediaTimeoutMs of timer time keeps the source; once it stops, the source ends exactly mediaTimeoutMs
 * after the last media, not a millisecond before. And with real timers, a short mediaTimeoutMs: the
 * stream plays on past several of them and ends with streamNoMedia once frozen.
 * (A server that never sends media: rtmp-pull.test.ts and ffmpeg-pull.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaSource } from '../../src/media/hub.js';
import { FfmpegPullSource } from '../../src/media/ingest/ffmpeg-pull-source.js';
import { RtmpPullSource } from '../../src/media/ingest/rtmp-source.js';
import { freePort } from '../fixtures/camera.js';
import { ffmpegRtmpListen, type FfmpegRtmpListener } from '../fixtures/ffmpeg-rtmp-listen.js';

/** Real time, whatever vi.useFakeTimers does to the global setTimeout during a test. */
const realSetTimeout = globalThis.setTimeout;
const realSleep = (ms: number) => new Promise<void>((r) => realSetTimeout(r, ms));
async function realUntil(check: () => boolean, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await realSleep(20);
  }
}
/** Until `count()` has not moved for `quietMs` of real time (what was on its way has come). */
async function settled(count: () => number, quietMs: number) {
  for (let n = -1; n !== count(); ) {
    n = count();
    await realSleep(quietMs);
  }
}

let dir: string;
const cleanup: (() => Promise<unknown> | unknown)[] = [];
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pull-watchdog-'));
  // 4 s of H.264 + AAC, keyframe every second, for ffmpeg to serve in a loop.
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', path.join(dir, 'clip.flv')]); // prettier-ignore
});
afterEach(async () => {
  vi.useRealTimers();
  for (const c of cleanup.splice(0).reverse()) await c();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Make = (url: string, mediaTimeoutMs: number) => MediaSource;
/**
 * Each source, and a short mediaTimeoutMs it mostly starts within (ffmpeg reads a second or two of
 * the stream before its first output; on a loaded machine a start may take longer, and play() tries again).
 */
const SOURCES: [string, Make, number][] = [
  ['the RTMP source', (url, mediaTimeoutMs) => new RtmpPullSource(url, { mediaTimeoutMs }), 500],
  ['the ffmpeg pull source', (url, mediaTimeoutMs) => new FfmpegPullSource(url, { mediaTimeoutMs, hevcInFlv: async () => true }), 2000],
];

interface Played {
  server: FfmpegRtmpListener;
  source: MediaSource;
  got: { units: number; failures: { words: string; key?: string }[] };
}

/**
 * ffmpeg serving the clip and a source playing it (started again while ffmpeg is not listening yet:
 * a refused connect before any media), once media comes.
 */
async function play(make: Make, mediaTimeoutMs: number): Promise<Played> {
  const port = await freePort();
  const server = ffmpegRtmpListen(path.join(dir, 'clip.flv'), port);
  cleanup.push(() => server.stop());
  // A frozen ffmpeg is let go before it is killed (SIGKILL ends a stopped process too; this is for tidiness).
  cleanup.push(() => {
    const pid = server.pid();
    if (pid) process.kill(pid, 'SIGCONT');
  });
  for (let attempt = 0; ; attempt++) {
    const got: Played['got'] = { units: 0, failures: [] };
    const source = make(`rtmp://127.0.0.1:${port}/live/x`, mediaTimeoutMs);
    cleanup.push(() => source.stop());
    source.start({ tracks: () => undefined, unit: () => void got.units++, failed: (words, why) => void got.failures.push({ words, key: why?.key }) });
    await realUntil(() => got.units > 0 || got.failures.length > 0, 20_000, 'media or a failure');
    if (got.units > 0) return { server, source, got };
    if (attempt >= 20) throw new Error(`no media from ffmpeg's RTMP server: ${JSON.stringify(got.failures)}`);
    await realSleep(200);
  }
}

/** The server's ffmpeg frozen: the connection stays, nothing more comes. */
const freeze = (server: FfmpegRtmpListener) => process.kill(server.pid()!, 'SIGSTOP');

describe.each(SOURCES)('%s: the no-media watchdog', (_name, make, shortMs) => {
  it('with fake timeouts: media coming across several mediaTimeoutMs keeps the source; once it stops, the source ends exactly mediaTimeoutMs after the last media', async () => {
    const LIMIT = 2000;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { server, got } = await play(make, LIMIT);
    // Four times: new media, then timer time to 1 ms short of the timeout (each counted from that media).
    for (let i = 0; i < 4; i++) {
      const n = got.units;
      await realUntil(() => got.units > n, 10_000, 'more media');
      vi.advanceTimersByTime(LIMIT - 1);
      expect(got.failures).toEqual([]);
    }
    // 4 x 1999 ms of timer time have passed with media coming: nearly four timeouts. Media once more
    // (with the timer time where it is now), then none: what was on its way comes at that same time.
    const n = got.units;
    await realUntil(() => got.units > n, 10_000, 'more media');
    freeze(server);
    await settled(() => got.units, 300);
    vi.advanceTimersByTime(LIMIT - 1);
    expect(got.failures).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(got.failures).toEqual([{ words: 'no media for 2 s', key: 'streamNoMedia' }]);
  }, 60_000);

  it('with real timers and a short mediaTimeoutMs: the stream plays on for three of them, and ends with streamNoMedia once its media stops', async () => {
    const { server, got } = await play(make, shortMs);
    const before = got.units;
    await realSleep(3 * shortMs);
    expect(got.failures).toEqual([]);
    // 25 pictures a second and the sound.
    expect(got.units - before).toBeGreaterThan((3 * shortMs * 25) / 1000);
    freeze(server);
    await realUntil(() => got.failures.length > 0, 20_000, 'the failure');
    expect(got.failures).toEqual([{ words: `no media for ${Math.round(shortMs / 1000)} s`, key: 'streamNoMedia' }]);
  }, 60_000);
});
