/**
 * A live HLS source for the specs: ffmpeg writes a clip as 1 s MPEG-TS segments once, and a request
 * handler (for an http or https server of the spec's own) serves a live playlist of the last `window`
 * of segments 0..end()-1, so the spec decides how the live edge moves (a segment a second, frozen).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

/** Writes seg0.ts … seg{seconds-1}.ts of a testsrc2 clip (H.264, a keyframe a second) into `dir`. */
export function writeHlsSegments(dir: string, seconds: number, size: string): void {
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p',
    '-f', 'hls', '-hls_time', '1', '-hls_list_size', '0', '-hls_segment_filename', path.join(dir, 'seg%d.ts'), path.join(dir, 'written.m3u8'),
  ]); // prettier-ignore
}

export interface LiveHlsOptions {
  dir: string;
  /** How many segments the playlist lists. */
  window: number;
  /** Segments below this number exist now. */
  end(): number;
  /** Every request's file name, and whether a segment was served for it. */
  onRequest?(name: string, servedSegment: boolean): void;
}

/** Serves /live.m3u8 (the last `window` segments below end()) and the segments below end(); 404 otherwise. */
export function liveHlsHandler(o: LiveHlsOptions) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const name = (req.url ?? '/').split('?')[0].slice(1);
    const end = o.end();
    if (name === 'live.m3u8') {
      o.onRequest?.(name, false);
      const first = end - o.window;
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:1', `#EXT-X-MEDIA-SEQUENCE:${first}`];
      for (let i = first; i < end; i++) lines.push('#EXTINF:1.000000,', `seg${i}.ts`);
      res.writeHead(200, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(lines.join('\n') + '\n');
      return;
    }
    const n = /^seg(\d+)\.ts$/.exec(name);
    if (!n || Number(n[1]) >= end) {
      o.onRequest?.(name, false);
      res.writeHead(404).end();
      return;
    }
    o.onRequest?.(name, true);
    res.writeHead(200, { 'Content-Type': 'video/mp2t' }).end(fs.readFileSync(path.join(o.dir, name)));
  };
}
