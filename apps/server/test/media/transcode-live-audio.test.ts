/**
 * The live H.264 leg of an H.265 camera carries the camera's sound: the leg's hub has the original's
 * audio track after its video, and the audio units as they are (no transcoding), on the same clock as
 * the leg's video (which takes the original's picture times). A WS-fMP4 viewer of the leg gets an init
 * of avc1 + mp4a, and what it received holds both streams starting together. G.711 is carried too
 * (WS-fMP4 leaves it out as for any hub: browsers' MSE cannot play it; FLV, RTSP and WebRTC take it).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccessUnit, Track } from '@opencvr/codec';
import { H264_VARIANT } from '../../src/media/transcode.js';
import { collectWs, until } from '../helpers/index.js';
import { useCamera } from '../fixtures/use-camera.js';
import { useAdminApp } from '../api/admin-app.js';
import { openCameraStream } from './open-stream.js';

const cam = useCamera({ codec: 'h265', audio: 'aac' });
const api = useAdminApp({ listen: true });

/** ffprobe of a viewer's bytes: each stream's codec and the time of its first packet. */
function streamsOf(file: string, bytes: Buffer[]) {
  fs.writeFileSync(file, Buffer.concat(bytes));
  const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_packets', '-show_entries', 'stream=index,codec_type,codec_name:packet=stream_index,pts_time', '-of', 'json', file], { encoding: 'utf8' }));
  const packets = probe.packets as { stream_index: number; pts_time: string }[];
  return (probe.streams as { index: number; codec_type: string; codec_name: string }[]).map((s) => ({
    type: s.codec_type,
    codec: s.codec_name,
    first: Math.min(...packets.filter((p) => p.stream_index === s.index).map((p) => Number(p.pts_time))),
    packets: packets.filter((p) => p.stream_index === s.index).length,
  }));
}

describe('live H.265 with sound through the H.264 transcoder', () => {
  it('a WS-fMP4 viewer of the leg gets avc1 + mp4a, audio and video starting together', async () => {
    const opened = await openCameraStream(api, cam.url, 'ws_m4s');
    const base = api.t.baseUrl!.replace('http', 'ws');
    // The leg has a cached GOP (with its audio) before the viewer that starts from it opens.
    await until(() => (api.t.ctx.streams.get(opened.Stream)?.stats.keyframes ?? 0) >= 1, 20000);
    const first = await collectWs(`${base}${opened.URLs.WS_FMP4_H264}`, (b) => b.length >= 3, 20000);
    await until(() => (api.t.ctx.streams.get(opened.Stream + H264_VARIANT)?.stats.keyframes ?? 0) >= 2, 20000);
    expect(first.text.find((m) => m.type === 'init')).toMatchObject({ mime: expect.stringMatching(/avc1\..*mp4a\.40\.2/) });

    const got = await collectWs(`${base}${opened.URLs.WS_FMP4_H264}`, () => false, 5000);
    const init = got.text.find((m) => m.type === 'init');
    expect(init).toMatchObject({ mime: expect.stringMatching(/avc1\..*mp4a\.40\.2/) });
    const streams = streamsOf(path.join(api.t.settings.dataDir, 'leg-audio.mp4'), got.binary);
    const video = streams.find((s) => s.type === 'video');
    const audio = streams.find((s) => s.type === 'audio');
    expect(video).toMatchObject({ codec: 'h264' });
    expect(audio).toMatchObject({ codec: 'aac' });
    expect(video!.packets).toBeGreaterThan(30);
    expect(audio!.packets).toBeGreaterThan(60);
    expect(Math.abs(audio!.first - video!.first)).toBeLessThan(0.2);
    execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', path.join(api.t.settings.dataDir, 'leg-audio.mp4'), '-f', 'null', '-']);
  }, 60000);

  it('G.711 goes through the leg as it is, from the start of its cached GOP, on the clock of its video', async () => {
    await cam.start({ codec: 'h265', audio: 'pcma' });
    const opened = await openCameraStream(api, cam.url, 'ws_m4s');
    const original = api.t.ctx.streams.get(opened.Stream)!;
    await until(() => original.stats.keyframes >= 1, 20000);
    // The camera's sound as the original hub gives it, by time.
    const sent = new Map<number, string>();
    const stopOriginal = original.subscribe({
      tracks: () => undefined,
      unit: (_t, u) => {
        if (u.kind === 'audio') sent.set(u.pts, Buffer.from(u.data).toString('hex'));
      },
    });
    const leg = api.t.ctx.streams.get(opened.Stream + H264_VARIANT)!;
    let tracks: Track[] = [];
    const stopLeg = leg.subscribe({ tracks: (t) => (tracks = t), unit: () => undefined });
    try {
      await until(() => leg.stats.keyframes >= 2, 20000);
      // Half a second into that GOP (the camera's are longer).
      await new Promise((r) => setTimeout(r, 500));
      // A viewer arriving now starts from the leg's cached GOP.
      const units: { track: number; unit: AccessUnit }[] = [];
      leg.subscribe({ tracks: () => undefined, unit: (track, u) => units.push({ track, unit: u.kind === 'audio' ? { ...u, data: Uint8Array.from(u.data) } : u }) })();
      expect(tracks).toMatchObject([{ kind: 'video', codec: 'h264' }, { kind: 'audio', codec: 'pcma', clockRate: 8000 }]);
      const audio = units.filter((u) => u.track === 1).map((u) => u.unit);
      const video = units.filter((u) => u.track === 0).map((u) => u.unit);
      expect(video[0]).toMatchObject({ kind: 'video', keyframe: true });
      expect(audio.length).toBeGreaterThan(3);
      for (const u of audio) expect(u.kind === 'audio' && Buffer.from(u.data).toString('hex')).toBe(sent.get(u.pts));
      // Seconds: the video in 90 kHz, the audio in its own clock.
      const audioStart = audio[0].pts / 8000;
      const videoStart = video[0].pts / 90000;
      expect(Math.abs(audioStart - videoStart)).toBeLessThan(0.2);
    } finally {
      stopLeg();
      stopOriginal();
    }
  }, 60000);
});
