/**
 * rtmp:// channels whose audio the hub does not carry (MP3, Speex, Nellymoser) stay on the native RTMP
 * client; only their audio goes through one small ffmpeg that encodes it to AAC (rtmp-audio-encoder.ts).
 * Real peers on loopback: ffmpeg as the RTMP server (H.264 + MP3, served at its own pace) and the RTMP
 * server double (fixtures/rtmp-server.ts) for logins. A WS-fMP4 viewer gets H.264 and AAC in step
 * (ffprobe reads its bytes); the one ffmpeg of ours reads only audio; killing it leaves the video
 * going, and the audio comes back; without ffmpeg the video plays alone and the hub says why.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFlv } from '@opencvr/flv';
import type { Reason } from '@opencvr/shared';
import type { StreamHub } from '../../src/media/hub.js';
import { RtmpPullSource } from '../../src/media/ingest/rtmp-source.js';
import { useAdminApp } from '../api/admin-app.js';
import { startRtmpServer, type RtmpServerDouble } from '../fixtures/rtmp-server.js';
import { freePort } from '../fixtures/camera.js';
import { ffmpegRtmpListen } from '../fixtures/ffmpeg-rtmp-listen.js';
import { collectWs, until } from '../helpers/index.js';
import { addPulledDevice, playWsFmp4 } from './open-stream.js';

const api = useAdminApp({ listen: true });
let dir: string;
const stops: (() => Promise<unknown>)[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rtmp-pull-audio-'));
  // 4 s of H.264 + MP3 (stereo 44.1 kHz), a keyframe every second; the same with Speex and Nellymoser.
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'libmp3lame', '-ac', '2', '-ar', '44100', path.join(dir, 'mp3.flv')]); // prettier-ignore
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', path.join(dir, 'mp3.flv'), '-c:v', 'copy', '-c:a', 'libspeex', '-ar', '16000', '-ac', '1', path.join(dir, 'speex.flv')]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', path.join(dir, 'mp3.flv'), '-c:v', 'copy', '-c:a', 'nellymoser', '-ar', '22050', '-ac', '1', path.join(dir, 'nellymoser.flv')]);
});
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tagsOf = (clip: string) => readFlv(new Uint8Array(fs.readFileSync(path.join(dir, clip)))).tags;

async function double(o: Parameters<typeof startRtmpServer>[0]): Promise<RtmpServerDouble> {
  const d = await startRtmpServer(o);
  stops.push(() => d.close());
  return d;
}

let added = 0;
/** A channel with `url` (and credentials), opened over WS-fMP4: its hub and the viewer's URL. */
async function openChannel(url: string, extra: Record<string, string> = {}) {
  const played = await playWsFmp4(api, await addPulledDevice(api, `RTMP audio ${++added}`, url, extra));
  stops.push(async () => played.hub.stop());
  return played;
}

const sourceOf = (hub: StreamHub) => (hub as unknown as { source?: unknown }).source as RtmpPullSource;
const codecsOf = (hub: StreamHub) => hub.tracks.map((t) => `${t.kind}:${t.codec}`);

/** The ffmpeg processes this test process started, each as its arguments. */
function ourFfmpegs(): string[][] {
  const out: string[][] = [];
  for (const p of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (ppid === process.pid && path.basename(args[0] ?? '') === 'ffmpeg' && !args.includes('-listen')) out.push(args);
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** Each track of a WS-fMP4 recording as ffprobe reads it: codec, first and last packet time (s). */
function probeTracks(file: string): { codec: string; first: number; last: number }[] {
  const streams = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', file], { encoding: 'utf8' }).trim().split('\n');
  const packets = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'packet=stream_index,pts_time', '-of', 'csv=p=0', file], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.split(',').map(Number));
  return streams.map((codec, i) => {
    const times = packets.filter((p) => p[0] === i).map((p) => p[1]);
    return { codec, first: Math.min(...times), last: Math.max(...times) };
  });
}

describe('rtmp:// channels with audio the hub does not carry: the audio alone through ffmpeg', () => {
  it('H.264 + MP3 from ffmpeg’s RTMP server plays to a WS-fMP4 viewer as H.264 + AAC in step; the one ffmpeg of ours reads only audio; killing it leaves the video going and the audio comes back', async () => {
    const port = await freePort();
    const server = ffmpegRtmpListen(path.join(dir, 'mp3.flv'), port);
    stops.push(server.stop);
    const { hub, wsUrl } = await openChannel(`rtmp://127.0.0.1:${port}/live/x`);
    await until(() => hub.state === 'live', 20_000, { what: `the stream live (${hub.reason})` });
    expect(sourceOf(hub)).toBeInstanceOf(RtmpPullSource);
    expect(codecsOf(hub)).toEqual(['video:h264', 'audio:aac']);
    expect(hub.tracks[1]).toMatchObject({ sampleRate: 44100, channels: 2 });

    // 6 s of a viewer: both tracks, starting and ending together (within a few frames).
    const got = await collectWs(wsUrl, () => false, 6000);
    const file = path.join(dir, 'viewer.mp4');
    fs.writeFileSync(file, Buffer.concat(got.binary));
    const [video, audio] = probeTracks(file);
    expect([video.codec, audio.codec]).toEqual(['h264', 'aac']);
    expect(video.last - video.first).toBeGreaterThan(4);
    expect(Math.abs(audio.first - video.first)).toBeLessThan(0.25);
    expect(Math.abs(audio.last - video.last)).toBeLessThan(0.3);

    // One ffmpeg of ours: audio only in (FLV on stdin), AAC out; no video codec, no address.
    const ffmpegs = ourFfmpegs();
    expect(ffmpegs).toHaveLength(1);
    const args = ffmpegs[0];
    expect(args.join(' ')).toContain('-f flv -i pipe:0 -map 0:a:0 -vn');
    expect(args.join(' ')).toContain('-c:a aac');
    expect(args.some((a) => /^-(c|codec):v$|^-vcodec$|rtmp:/.test(a))).toBe(false);
    expect(sourceOf(hub).audioEncoderPid).toBeDefined();

    // The encoder is killed: the video goes on, the hub says the audio is missing, then ffmpeg is back with the audio.
    const killed = sourceOf(hub).audioEncoderPid!;
    const keyframes = hub.stats.keyframes;
    process.kill(killed, 'SIGKILL');
    await until(() => hub.why?.key === 'streamAudioEncoderFailed', 5000, { what: 'the note of the failed encoder' });
    expect(hub.state).toBe('live');
    expect(hub.why).toEqual({ key: 'streamAudioEncoderFailed', vars: { codec: 'MP3' } });
    await until(() => hub.stats.keyframes >= keyframes + 2, 10_000, { what: 'the video going on' });
    await until(() => sourceOf(hub).audioEncoderPid !== undefined && sourceOf(hub).audioEncoderPid !== killed && !hub.why, 10_000, {
      what: `the encoder back (${hub.reason})`,
    });
    const after = await collectWs(wsUrl, () => false, 3000);
    const again = path.join(dir, 'viewer-again.mp4');
    fs.writeFileSync(again, Buffer.concat(after.binary));
    const tracks = probeTracks(again);
    expect(tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
    expect(tracks[1].last - tracks[1].first).toBeGreaterThan(1.5);
  }, 120_000);

  it.each([
    ['adobe', 'adobeAuth'],
    ['llnw', 'llnwAuth'],
  ] as const)('with MP3 audio a password with slash, question mark, hash and percent logs in (%s): the login is the native client’s', async (_method, option) => {
    const password = 'p/a?s#s%w';
    const server = await double({ app: 'live', published: ['cam'], [option]: { user: 'viewer', password }, stream: tagsOf('mp3.flv') });
    const inUrl = server.url('live/cam').replace('rtmp://', `rtmp://viewer:${encodeURIComponent(password)}@`);
    const { hub } = await openChannel(inUrl);
    await until(() => hub.tracks.length === 2, 15_000, { what: `H.264 + AAC (${hub.reason})` });
    expect(codecsOf(hub)).toEqual(['video:h264', 'audio:aac']);
    expect(server.connects.at(-1)).toMatch(/&response=/);
    expect(JSON.stringify(hub.reason)).not.toMatch(/p\/a|s%w/);
  }, 60_000);

  it.each([
    ['speex.flv', 16000],
    ['nellymoser.flv', 22050],
  ] as const)('%s: its audio comes as AAC at the source’s rate', async (clip, rate) => {
    const server = await double({ app: 'live', published: ['cam'], stream: tagsOf(clip) });
    const source = new RtmpPullSource(server.url('live/cam'));
    stops.push(async () => source.stop());
    const tracks = await new Promise<string>((resolve) =>
      source.start({
        tracks: (t) => resolve(t.map((x) => (x.kind === 'audio' ? `${x.codec}@${x.sampleRate}/${x.channels}` : x.codec)).join('+')),
        unit: () => undefined,
        failed: (words) => resolve(`failed: ${words}`),
      }),
    );
    expect(tracks).toBe(`h264+aac@${rate}/1`);
  }, 30_000);

  it('without ffmpeg the video plays alone at once, and the source says why (streamAudioEncoderMissing)', async () => {
    const server = await double({ app: 'live', published: ['cam'], stream: tagsOf('mp3.flv') });
    const source = new RtmpPullSource(server.url('live/cam'), { ffmpeg: path.join(dir, 'no-such-ffmpeg') });
    stops.push(async () => source.stop());
    const notes: { words: string; why?: Reason }[] = [];
    const units: number[] = [];
    const tracks = await new Promise<string>((resolve) =>
      source.start({
        tracks: (t) => resolve(t.map((x) => x.codec).join('+')),
        unit: (i) => units.push(i),
        failed: (words) => resolve(`failed: ${words}`),
        note: (words, why) => notes.push({ words, why }),
      }),
    );
    expect(tracks).toBe('h264');
    expect(notes).toHaveLength(1);
    expect(notes[0].why).toEqual({ key: 'streamAudioEncoderMissing', vars: { codec: 'MP3' } });
    expect(notes[0].words).toMatch(/no-such-ffmpeg not found/);
    await until(() => units.length >= 100, 5000, { what: 'the clip’s 100 pictures' });
    expect(new Set(units)).toEqual(new Set([0]));
    expect(source.audioEncoderPid).toBeUndefined();
  }, 30_000);
});
