/**
 * The live WebSocket fMP4 output sends one fragment per access unit: a real RTSP camera (GStreamer,
 * H.264 + AAC) → hub → a viewer that joins a running stream. Its first media fragment is the cached
 * GOP (starting on a keyframe, both tracks), every later one carries exactly one sample of one track,
 * sequence numbers and decode times run on without gaps, and ffprobe decodes what it got.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readFragments } from '../../../../packages/fmp4/test/helpers/boxes.js';
import { useAdminApp } from '../api/admin-app.js';
import { useCamera } from '../fixtures/use-camera.js';

const cam = useCamera({ audio: 'aac' });
const api = useAdminApp({ listen: true });

/** Binary messages of a WebSocket viewer until `count` arrived (or the deadline). */
function viewer(url: string, count: number, ms = 20000) {
  return new Promise<Buffer[]>((resolve, reject) => {
    const ws = new WebSocket(url);
    const binary: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      ws.close();
      resolve(binary);
    };
    const timer = setTimeout(done, ms);
    ws.on('message', (data, isBinary) => {
      // Messages that came in the same read as the count-th are still emitted after close(): not asked for.
      if (!isBinary || binary.length >= count) return;
      binary.push(data as Buffer);
      if (binary.length >= count) done();
    });
    ws.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

describe('live WS-fMP4: one fragment per access unit', () => {
  it('a viewer joining a running stream gets the GOP in one fragment, then a fragment per unit', async () => {
    const res = await api.t.app.inject({ method: 'POST', url: '/api/v1/adddevice', headers: { token: api.admin }, payload: { DeviceName: 'Cam', DeviceType: 'RTSP', RtspUrl: cam.url } });
    const dev = res.json().EasyDarwin.Body.DeviceID as string;
    const body = (await api.t.app.inject({ url: `/api/v1/devices/channelstream?device=${dev}&channel=1&protocol=ws_m4s`, headers: { token: api.admin } })).json().EasyDarwin.Body;
    const url = `${api.t.baseUrl!.replace('http', 'ws')}${body.URL}`;
    // A first viewer runs the stream until the hub has cached more than a keyframe.
    await viewer(url, 12);
    const hub = api.t.ctx.streams.get(body.Stream)!;
    const keep = hub.subscribe({ tracks: () => undefined, unit: () => undefined });
    try {
      const got = await viewer(url, 1 + 1 + 40);
      expect(got.length).toBe(42);
      const [init, gop, ...live] = got;
      expect(init.subarray(4, 8).toString()).toBe('ftyp');
      const first = readFragments(gop)[0];
      expect(first.trafs[0].trackId).toBe(1);
      expect(first.trafs[0].samples[0].flags).toBe(0x02000000); // a keyframe
      const next = new Map<number, number>();
      let seq = first.sequence;
      for (const traf of first.trafs) next.set(traf.trackId, traf.baseDecodeTime + traf.samples.reduce((n, s) => n + s.duration!, 0));
      const perTrack = new Map<number, number>();
      for (const msg of live) {
        const frags = readFragments(msg);
        expect(frags).toHaveLength(1);
        const [f] = frags;
        expect(f.sequence).toBe(++seq);
        expect(f.trafs).toHaveLength(1);
        const [traf] = f.trafs;
        expect(traf.samples).toHaveLength(1);
        if (next.has(traf.trackId)) expect(traf.baseDecodeTime).toBe(next.get(traf.trackId));
        next.set(traf.trackId, traf.baseDecodeTime + traf.samples[0].duration!);
        perTrack.set(traf.trackId, (perTrack.get(traf.trackId) ?? 0) + 1);
      }
      // Both the video (15 fps) and the AAC track came as their own fragments.
      expect(perTrack.get(1)).toBeGreaterThan(5);
      expect(perTrack.get(2)).toBeGreaterThan(5);
      const file = path.join(api.t.settings.dataDir, 'live-per-unit.mp4');
      fs.writeFileSync(file, Buffer.concat(got));
      const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-count_frames', '-of', 'json', file], { encoding: 'utf8' }));
      expect(probe.streams.map((s: { codec_name: string }) => s.codec_name)).toEqual(['h264', 'aac']);
      execFileSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']);
    } finally {
      keep();
    }
  });
});
