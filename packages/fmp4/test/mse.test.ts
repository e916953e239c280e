/**
 * The real consumer: Debian's Chromium (the e2e browser) appends the init segment and the fragments
 * to a MediaSource SourceBuffer, which must take them without an error, buffer the whole stream in
 * one range and play it. Skipped when Chromium is not installed or lacks the codecs.
 */
import fs from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playInPage, type MseResult } from './helpers/mse-page.js';
import { mux, type Input } from './helpers/mux.js';
import { aacStream, videoStream } from './helpers/streams.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'];

const hasChromium = fs.existsSync(CHROMIUM);

describe.skipIf(!hasChromium)('Chromium MSE takes the fragments', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }, 30000);
  afterAll(async () => {
    await browser?.close();
  });

  async function play(inputs: Input[], maxFragmentDuration: number): Promise<MseResult> {
    const r = await append(inputs, maxFragmentDuration);
    if (process.env.FMP4_MSE_LOG) console.log(inputs.map((i) => i.track.codecString).join(','), JSON.stringify(r));
    return r;
  }

  async function append(inputs: Input[], maxFragmentDuration: number): Promise<MseResult> {
    const { init, fragments } = mux(inputs, { maxFragmentDuration });
    const mime = `${inputs.some((i) => i.track.kind === 'video') ? 'video' : 'audio'}/mp4; codecs="${inputs.map((i) => i.track.codecString).join(',')}"`;
    const page = await browser.newPage();
    try {
      const segments = [init, ...fragments.map((f) => f.data)].map((b) => Buffer.from(b).toString('base64'));
      return await page.evaluate(playInPage, { mime, segments });
    } finally {
      await page.close();
    }
  }

  it('H.264 + AAC in 500 ms fragments: one buffered range, no error, plays', async (ctx) => {
    const r = await play(
      [videoStream('h264', 'h264-320x240-25fps-bf2.h264'), aacStream('aac-48k-stereo.adts', 1.4 * 48000)],
      0.5,
    );
    if (!r.supported) ctx.skip();
    expect(r.error).toBeUndefined();
    expect(r.videoError).toBeNull();
    expect(r.ranges).toHaveLength(1);
    expect(r.ranges![0][1] - r.ranges![0][0]).toBeGreaterThan(1.9);
    expect(r.played).toBeGreaterThan(0.5);
  });

  it('H.265 + AAC (when this Chromium decodes HEVC)', async (ctx) => {
    const r = await play(
      [videoStream('h265', 'h265-320x240-25fps-bf2.hevc'), aacStream('aac-48k-stereo.adts', 1.4 * 48000)],
      2,
    );
    if (!r.supported) ctx.skip();
    expect(r.error).toBeUndefined();
    expect(r.videoError).toBeNull();
    expect(r.ranges).toHaveLength(1);
    expect(r.played).toBeGreaterThan(0.5);
  });

  it('AAC only', async (ctx) => {
    const r = await play([aacStream('aac-48k-stereo.adts')], 0.5);
    if (!r.supported) ctx.skip();
    expect(r.error).toBeUndefined();
    expect(r.ranges).toHaveLength(1);
    expect(r.ranges![0][1] - r.ranges![0][0]).toBeGreaterThan(1.9);
  });
});
