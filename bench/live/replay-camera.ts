/**
 * The live benchmark's cheap camera: an RTSP server that replays a pre-encoded H.264 clip as
 * pre-packetised RTP over TCP (interleaved), to every client from one clock.
 *
 *     node --import tsx bench/live/replay-camera.ts CLIP.h264 PORT [FPS] [PACE]
 *
 * PACE (default 1) skews the camera's clock: frames are sent PACE × FPS times a wall-clock second
 * while their timestamps stay 1/FPS apart, as a real camera's crystal is never exact (1.005: frames
 * arrive 0.5 % faster than their timestamps say; the live player's drift soak, drift.ts).
 *
 * Why not GStreamer (camera.py): its shared media still writes every RTP packet to every client
 * with a GLib source per client, about 1.2% of a core per stream here, so 256 streams (and the 256
 * ffmpeg processes of the baseline) would need three cores for the camera alone on a 2-core host.
 * Here the clip (an Annex-B stream with an access unit delimiter before each access unit, no
 * B-frames: run.ts makes it) is split into access units and packetised ONCE at start-up (RFC 6184
 * packetization-mode=1, 1400-byte payloads, STAP-A for the parameter sets with their picture), each
 * access unit kept as one buffer of back-to-back interleaved frames. Every 1/FPS s (absolute
 * deadlines, so the rate stays FPS) the next unit gets its sequence numbers and timestamp written in
 * and that one buffer is written to every playing client: one write per client per frame, the
 * frame's packets back to back, as a camera sends a frame at line rate. Like a shared media, every
 * client gets the same sequence numbers and timestamps (PLAY's RTP-Info says where they are), and
 * one that joins mid-GOP starts at the next keyframe.
 *
 * RTSP: OPTIONS, DESCRIBE (SDP with sprop-parameter-sets), SETUP with RTP/AVP/TCP interleaved (UDP
 * is answered 461 Unsupported Transport), PLAY, GET_PARAMETER/SET_PARAMETER (keep-alive), TEARDOWN.
 * Any path and query string serve the same stream (run.ts tells clients apart with ?n=K). A client
 * more than 32 MB behind is dropped (said on stderr). Prints READY once it listens; exits on
 * SIGTERM/SIGINT or when stdin closes.
 */
import fs from 'node:fs';
import net from 'node:net';
import { h264Payloads } from '@opencvr/rtp';
import { base64, getHeader, RtspParser, serialize, type Header, type RtspMessage, type RtspRequest } from '@opencvr/rtsp';

const [clipPath, portArg, fpsArg, paceArg] = process.argv.slice(2);
if (!clipPath || !portArg) {
  process.stderr.write('usage: replay-camera.ts CLIP.h264 PORT [FPS] [PACE]\n');
  process.exit(2);
}
const FPS = Number(fpsArg ?? 25);
/** Frames sent per wall-clock second / FPS (timestamps do not follow it). */
const PACE = Number(paceArg ?? 1);
if (!(PACE > 0.5 && PACE < 2)) {
  process.stderr.write(`replay camera: PACE ${paceArg} is not between 0.5 and 2\n`);
  process.exit(2);
}
const CLOCK = 90_000;
const TICKS_PER_FRAME = Math.round(CLOCK / FPS);
const MAX_PAYLOAD = 1400;
const PAYLOAD_TYPE = 96;
const SSRC = 0x0c0ffee0;
const MAX_BACKLOG = 32 << 20;

/** NAL units of an Annex-B stream (start codes of 3 or 4 bytes). */
function nalUnits(data: Uint8Array): Uint8Array[] {
  const starts: { at: number; code: number }[] = [];
  for (let i = 0; i + 2 < data.length; i++) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      const four = i > 0 && data[i - 1] === 0;
      starts.push({ at: four ? i - 1 : i, code: four ? 4 : 3 });
      i += 2;
    }
  }
  return starts.map((s, k) => data.subarray(s.at + s.code, k + 1 < starts.length ? starts[k + 1].at : data.length));
}

interface Frame {
  /** Interleaved frames back to back; channel, sequence numbers and timestamp are written per tick. */
  bytes: Buffer;
  /** Offsets of each packet's RTP header in `bytes`. */
  headers: number[];
}

/** The clip as access units (split at AUD NAL units, which are dropped), each packetised once. */
function loadClip(file: string): { frames: Frame[]; sps: Uint8Array; pps: Uint8Array } {
  const units: Uint8Array[][] = [];
  let sps: Uint8Array | undefined;
  let pps: Uint8Array | undefined;
  // A new access unit at each AUD once the current one has a picture (an SEI before the first AUD
  // belongs to the first unit).
  let hasPicture = false;
  for (const nal of nalUnits(fs.readFileSync(file))) {
    if (nal.length === 0) continue;
    const type = nal[0] & 0x1f;
    if (type === 9 && hasPicture) {
      units.push([]);
      hasPicture = false;
    }
    if (units.length === 0) units.push([]);
    if (type === 9) continue;
    if (type >= 1 && type <= 5) hasPicture = true;
    if (type === 7) sps ??= nal;
    if (type === 8) pps ??= nal;
    units[units.length - 1].push(nal);
  }
  if (!sps || !pps) throw new Error(`${file}: no SPS/PPS`);
  const frames = units
    .filter((u) => u.length)
    .map((nalus) => {
      const payloads = h264Payloads(nalus, MAX_PAYLOAD);
      const bytes = Buffer.alloc(payloads.reduce((n, p) => n + 4 + 12 + p.length, 0));
      const headers: number[] = [];
      let at = 0;
      payloads.forEach((p, i) => {
        const size = 12 + p.length;
        bytes[at] = 0x24;
        bytes.writeUInt16BE(size, at + 2);
        const h = at + 4;
        headers.push(h);
        bytes[h] = 0x80;
        bytes[h + 1] = (i === payloads.length - 1 ? 0x80 : 0) | PAYLOAD_TYPE;
        bytes.writeUInt32BE(SSRC, h + 8);
        bytes.set(p, h + 12);
        at += 4 + size;
      });
      return { bytes, headers };
    });
  return { frames, sps, pps };
}

const clip = loadClip(clipPath);
process.stderr.write(`replay camera: ${clip.frames.length} access units from ${clipPath}\n`);

const profileLevelId = Buffer.from(clip.sps.subarray(1, 4)).toString('hex');
const sdp = [
  'v=0',
  'o=- 0 0 IN IP4 127.0.0.1',
  's=OpenCVR bench replay camera',
  'c=IN IP4 0.0.0.0',
  't=0 0',
  'a=control:*',
  'm=video 0 RTP/AVP 96',
  `a=rtpmap:${PAYLOAD_TYPE} H264/${CLOCK}`,
  `a=fmtp:${PAYLOAD_TYPE} packetization-mode=1;profile-level-id=${profileLevelId};sprop-parameter-sets=${base64(clip.sps)},${base64(clip.pps)}`,
  `a=framerate:${FPS}`,
  'a=control:trackID=0',
  '',
].join('\r\n');

interface Client {
  socket: net.Socket;
  session: string;
  channel: number;
  playing: boolean;
}
const clients = new Set<Client>();
let sessions = 0;

/** Where the stream is: the next frame's number (its sequence numbers and timestamp follow from it). */
let frameNo = 0;
let nextSeq = 0;
const rtpTime = (n: number) => (n * TICKS_PER_FRAME) >>> 0;

function respond(c: Client, req: RtspRequest, status: number, reason: string, headers: Header[] = [], body = '') {
  const all: Header[] = [['CSeq', getHeader(req, 'CSeq') ?? '0'], ...headers];
  if (body) all.push(['Content-Length', String(Buffer.byteLength(body))]);
  const msg: RtspMessage = { kind: 'response', version: 'RTSP/1.0', status, reason, headers: all, body: Buffer.from(body) };
  c.socket.write(serialize(msg));
}

function onRequest(c: Client, req: RtspRequest) {
  switch (req.method) {
    case 'OPTIONS':
      return respond(c, req, 200, 'OK', [['Public', 'OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN, GET_PARAMETER, SET_PARAMETER']]);
    case 'DESCRIBE': {
      const base = req.uri.split('?')[0].replace(/\/?$/, '/');
      return respond(c, req, 200, 'OK', [['Content-Type', 'application/sdp'], ['Content-Base', base]], sdp);
    }
    case 'SETUP': {
      const transport = getHeader(req, 'Transport') ?? '';
      const m = /interleaved=(\d+)(?:-(\d+))?/.exec(transport);
      if (!/RTP\/AVP\/TCP/i.test(transport) || !m) return respond(c, req, 461, 'Unsupported Transport');
      c.channel = Number(m[1]) & 0xff;
      return respond(c, req, 200, 'OK', [
        ['Transport', `RTP/AVP/TCP;unicast;interleaved=${c.channel}-${(c.channel + 1) & 0xff};ssrc=${SSRC.toString(16).toUpperCase()}`],
        ['Session', `${c.session};timeout=60`],
      ]);
    }
    case 'PLAY': {
      const track = `${req.uri.split('?')[0].replace(/\/?$/, '/')}trackID=0`;
      respond(c, req, 200, 'OK', [
        ['Session', c.session],
        ['Range', 'npt=0.000-'],
        ['RTP-Info', `url=${track};seq=${nextSeq};rtptime=${rtpTime(frameNo)}`],
      ]);
      c.playing = true;
      return;
    }
    case 'TEARDOWN':
      respond(c, req, 200, 'OK', [['Session', c.session]]);
      c.socket.end();
      return;
    case 'GET_PARAMETER':
    case 'SET_PARAMETER':
      return respond(c, req, 200, 'OK', [['Session', c.session]]);
    default:
      return respond(c, req, 405, 'Method Not Allowed');
  }
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  const c: Client = { socket, session: `${Date.now().toString(16)}${(++sessions).toString(16)}`, channel: 0, playing: false };
  clients.add(c);
  const parser = new RtspParser();
  socket.on('data', (chunk: Buffer) => {
    try {
      // RTCP receiver reports from the client arrive as interleaved frames: not needed.
      parser.feed(chunk, { interleaved: () => undefined, message: (msg) => msg.kind === 'request' && onRequest(c, msg) });
    } catch {
      socket.destroy();
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => clients.delete(c));
});
server.maxConnections = 4096;

/** One frame to every playing client: numbered, then one write each (a copy per tick: a write the
 * kernel could not take at once keeps its buffer, which the next lap of the clip must not touch). */
function tick() {
  const f = clip.frames[frameNo % clip.frames.length];
  const out = Buffer.from(f.bytes);
  for (const h of f.headers) {
    out.writeUInt16BE(nextSeq, h + 2);
    out.writeUInt32BE(rtpTime(frameNo), h + 4);
    nextSeq = (nextSeq + 1) & 0xffff;
  }
  frameNo++;
  let other: Map<number, Buffer> | undefined;
  for (const c of clients) {
    if (!c.playing || c.socket.destroyed) continue;
    if (c.socket.writableLength > MAX_BACKLOG) {
      process.stderr.write(`replay camera: dropped a client ${MAX_BACKLOG >> 20} MB behind (it stopped reading)\n`);
      c.socket.destroy();
      continue;
    }
    let bytes: Buffer = out;
    if (c.channel !== 0) {
      // Clients asked for another channel (rare): their own copy with it written in.
      other ??= new Map();
      let b = other.get(c.channel);
      if (!b) {
        b = Buffer.from(out);
        for (const h of f.headers) b[h - 3] = c.channel;
        other.set(c.channel, b);
      }
      bytes = b;
    }
    c.socket.write(bytes);
  }
}

const t0 = performance.now();
let ticks = 0;
function schedule() {
  // Absolute deadlines: a late tick is followed by a quicker one, the rate stays FPS × PACE.
  const delay = t0 + (ticks * 1000) / (FPS * PACE) - performance.now();
  setTimeout(() => {
    while (performance.now() >= t0 + (ticks * 1000) / (FPS * PACE)) {
      tick();
      ticks++;
    }
    schedule();
  }, Math.max(0, delay));
}

const stop = () => {
  for (const c of clients) c.socket.destroy();
  server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();

server.listen(Number(portArg), '127.0.0.1', 4096, () => {
  schedule();
  process.stdout.write(`READY rtsp://127.0.0.1:${portArg}/cam\n`);
});
