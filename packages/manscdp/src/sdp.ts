/**
 * The SDP of a GB/T 28181 INVITE (-2016 annex C / 9.2; -2022 adds a=downloadspeed, a=streamnumber).
 * The platform offers where the device should send (c=/m=), which stream (s=Play|Playback|Download,
 * u= for a recording), the time range (t=, Unix seconds), the payload types, y= the SSRC and f= media
 * parameters. The device answers with where it sends from and (often) the SSRC it really uses.
 */
import { isIP } from 'node:net';
import { ManscdpError } from './errors.js';
import { ssrcNumber } from './ssrc.js';

export type GbSessionName = 'Play' | 'Playback' | 'Download';
/** udp: RTP/AVP; tcp-passive: the platform listens (a=setup:passive), the device connects; tcp-active: the platform connects. */
export type GbTransport = 'udp' | 'tcp-passive' | 'tcp-active';

export interface GbPayload {
  pt: number;
  encoding: string;
  clock: number;
}

/** What the platform offers: PS first (what devices send), then H.264 and MPEG-4 as the standard lists them. */
export const DEFAULT_PAYLOADS: readonly GbPayload[] = [
  { pt: 96, encoding: 'PS', clock: 90000 },
  { pt: 98, encoding: 'H264', clock: 90000 },
  { pt: 97, encoding: 'MPEG4', clock: 90000 },
];

export interface GbOffer {
  session: GbSessionName;
  /** o= user: the platform's 20-digit SIP ID. */
  platformId: string;
  /** The channel asked for: u= <channel>:0 for Playback/Download. */
  channelId: string;
  /** Where the device must send (or, for tcp-active, where the platform connects from). */
  mediaIp: string;
  mediaPort: number;
  transport: GbTransport;
  /** 10-digit SSRC from SsrcAllocator. */
  ssrc: string;
  /** Unix seconds, Playback/Download only. */
  startTime?: number;
  endTime?: number;
  /** Download only: 1, 2, 4 or 8 times real time. */
  downloadSpeed?: number;
  /** -2022 a=streamnumber: 0 main, 1 sub … (also read by Hikvision as a=streamprofile). */
  streamNumber?: number;
  payloads?: readonly GbPayload[];
  /** f= value; empty (device's default) when not given. */
  f?: string;
}

const DEVICE_ID = /^\d{20}$/;
const PORT_OK = (p: number) => Number.isInteger(p) && p > 0 && p <= 65535;
const ipLine = (ip: string) => `IN ${isIP(ip) === 6 ? 'IP6' : 'IP4'} ${ip}`;

/** The offer text (CRLF lines). Throws ManscdpError 'bad-argument' on a value out of range. */
export function buildGbOffer(o: GbOffer): string {
  if (!['Play', 'Playback', 'Download'].includes(o.session))
    throw new ManscdpError('bad-argument', `s=${o.session} is not Play, Playback or Download`);
  if (!DEVICE_ID.test(o.platformId))
    throw new ManscdpError('bad-argument', `platform ID "${o.platformId}" is not 20 digits`);
  if (!DEVICE_ID.test(o.channelId))
    throw new ManscdpError('bad-argument', `channel ID "${o.channelId}" is not 20 digits`);
  if (!isIP(o.mediaIp)) throw new ManscdpError('bad-argument', `media IP "${o.mediaIp}" is not an IP address`);
  if (!PORT_OK(o.mediaPort)) throw new ManscdpError('bad-argument', `media port ${o.mediaPort} is not in 1..65535`);
  if (!/^\d{10}$/.test(o.ssrc)) throw new ManscdpError('bad-argument', `SSRC "${o.ssrc}" is not 10 digits`);
  const history = o.session !== 'Play';
  if (history) {
    const { startTime: s, endTime: e } = o;
    if (s === undefined || e === undefined || !Number.isInteger(s) || !Number.isInteger(e) || s < 0 || e <= s) {
      throw new ManscdpError('bad-argument', `${o.session} needs t= start < end in whole Unix seconds`);
    }
  }
  if (o.downloadSpeed !== undefined && (o.session !== 'Download' || ![1, 2, 4, 8].includes(o.downloadSpeed))) {
    throw new ManscdpError('bad-argument', 'downloadspeed is 1, 2, 4 or 8 and only for Download');
  }
  const payloads = o.payloads ?? DEFAULT_PAYLOADS;
  if (
    payloads.length === 0 ||
    payloads.some((p) => !Number.isInteger(p.pt) || p.pt < 0 || p.pt > 127 || !/^[A-Za-z0-9.-]{1,32}$/.test(p.encoding))
  ) {
    throw new ManscdpError('bad-argument', 'payload types must be 0..127 with an encoding name');
  }
  if (o.f !== undefined && /[\r\n]/.test(o.f))
    throw new ManscdpError('bad-argument', 'f= may not contain a line break');
  const tcp = o.transport !== 'udp';
  const lines = [
    'v=0',
    `o=${o.platformId} 0 0 ${ipLine(o.mediaIp)}`,
    `s=${o.session}`,
    history ? `u=${o.channelId}:0` : undefined,
    `c=${ipLine(o.mediaIp)}`,
    history ? `t=${o.startTime} ${o.endTime}` : 't=0 0',
    `m=video ${o.mediaPort} ${tcp ? 'TCP/RTP/AVP' : 'RTP/AVP'} ${payloads.map((p) => p.pt).join(' ')}`,
    'a=recvonly',
    ...payloads.map((p) => `a=rtpmap:${p.pt} ${p.encoding}/${p.clock}`),
    tcp ? `a=setup:${o.transport === 'tcp-passive' ? 'passive' : 'active'}` : undefined,
    tcp ? 'a=connection:new' : undefined,
    o.downloadSpeed !== undefined ? `a=downloadspeed:${o.downloadSpeed}` : undefined,
    o.streamNumber !== undefined ? `a=streamnumber:${o.streamNumber}` : undefined,
    `y=${o.ssrc}`,
    `f=${o.f ?? ''}`,
  ];
  return `${lines.filter((l) => l !== undefined).join('\r\n')}\r\n`;
}

export interface GbAnswer {
  /** s= as written (devices write Play, or their own name such as "Network Video Recorder"). */
  session: string;
  /** o= user (the device or channel ID), when present. */
  originId?: string;
  /** The device's media address: media-level c= or else session-level c=. */
  connectionIp: string;
  port: number;
  transport: 'udp' | 'tcp';
  /** a=setup of a TCP answer. */
  setup?: 'active' | 'passive' | 'actpass';
  direction?: 'sendonly' | 'recvonly' | 'sendrecv' | 'inactive';
  payloads: GbPayload[];
  /** y= as written, and its number for matching RTP. */
  ssrc?: string;
  ssrcNumber?: number;
  /** t= as answered (Unix seconds). Some NVRs shift it by their time zone: do not trust it over the offer. */
  startTime?: number;
  endTime?: number;
  f?: string;
  /** a=filesize (Download), bytes. */
  fileSize?: number;
  downloadSpeed?: number;
}

const MAX_SDP = 16 * 1024;

/** Parses the device's SDP answer. Throws ManscdpError 'bad-sdp' with the reason. */
export function parseGbAnswer(sdp: string): GbAnswer {
  if (sdp.length > MAX_SDP) throw new ManscdpError('bad-sdp', `SDP longer than ${MAX_SDP} characters`);
  let session = '';
  let originId: string | undefined;
  let sessionIp: string | undefined;
  let mediaIp: string | undefined;
  let media: { port: number; proto: string; pts: number[] } | undefined;
  let inMedia = false;
  let videoSeen = false;
  const rtpmap = new Map<number, GbPayload>();
  const a: Record<string, string> = {};
  let direction: GbAnswer['direction'];
  let y: string | undefined;
  let f: string | undefined;
  let t: [number, number] | undefined;
  for (const raw of sdp.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.length < 2 || line[1] !== '=') continue;
    const key = line[0];
    const value = line.slice(2).trim();
    if (key === 'm') {
      inMedia = true;
      const m = /^(\w+)\s+(\d+)(?:\/\d+)?\s+(\S+)\s*([\d\s]*)$/.exec(value);
      if (!m) throw new ManscdpError('bad-sdp', `m= line "${value.slice(0, 60)}" is malformed`);
      // Only the first video (or, from audio-less NVRs, the first) media section describes the stream.
      if (!videoSeen && (m[1].toLowerCase() === 'video' || !media)) {
        media = {
          port: Number(m[2]),
          proto: m[3].toUpperCase(),
          pts: m[4].trim() ? m[4].trim().split(/\s+/).map(Number) : [],
        };
        videoSeen = m[1].toLowerCase() === 'video';
        mediaIp = undefined;
      }
      continue;
    }
    switch (key) {
      case 's':
        session = value;
        break;
      case 'o':
        originId = value.split(/\s+/)[0] || undefined;
        break;
      case 'c': {
        const c = /^IN\s+IP[46]\s+([^\s/]+)/i.exec(value);
        if (!c) throw new ManscdpError('bad-sdp', `c= line "${value.slice(0, 60)}" is malformed`);
        if (inMedia) mediaIp = c[1];
        else sessionIp = c[1];
        break;
      }
      case 't': {
        const m = /^(\d{1,12})\s+(\d{1,12})$/.exec(value);
        if (m) t = [Number(m[1]), Number(m[2])];
        break;
      }
      case 'y':
        y = value;
        break;
      case 'f':
        f = value;
        break;
      case 'a': {
        if (value === 'sendonly' || value === 'recvonly' || value === 'sendrecv' || value === 'inactive')
          direction = value;
        const r = /^rtpmap:(\d{1,3})\s+([^/\s]+)\/(\d+)/i.exec(value);
        if (r) rtpmap.set(Number(r[1]), { pt: Number(r[1]), encoding: r[2], clock: Number(r[3]) });
        const i = value.indexOf(':');
        if (i > 0) {
          const name = value.slice(0, i).toLowerCase();
          if (!Object.hasOwn(a, name)) a[name] = value.slice(i + 1).trim();
        }
        break;
      }
    }
  }
  if (!media) throw new ManscdpError('bad-sdp', 'SDP answer has no m= line');
  if (!PORT_OK(media.port))
    throw new ManscdpError('bad-sdp', `the device refused the stream or sent port ${media.port}`);
  const ip = mediaIp ?? sessionIp;
  if (!ip || !isIP(ip)) throw new ManscdpError('bad-sdp', `SDP answer has no usable c= address (${ip ?? 'none'})`);
  const transport = media.proto.startsWith('TCP/')
    ? 'tcp'
    : media.proto === 'RTP/AVP' || media.proto === 'RTP/AVPF'
      ? 'udp'
      : undefined;
  if (!transport)
    throw new ManscdpError('bad-sdp', `transport "${media.proto.slice(0, 20)}" is neither RTP/AVP nor TCP/RTP/AVP`);
  const setupRaw = a['setup']?.toLowerCase();
  const setup = setupRaw === 'active' || setupRaw === 'passive' || setupRaw === 'actpass' ? setupRaw : undefined;
  let ssrcNum: number | undefined;
  if (y !== undefined && y !== '') ssrcNum = ssrcNumber(y);
  const payloads = media.pts
    .filter((pt) => pt >= 0 && pt <= 127)
    .map((pt) => rtpmap.get(pt) ?? { pt, encoding: pt === 96 ? 'PS' : 'unknown', clock: 90000 });
  const intAttr = (name: string) => (a[name] !== undefined && /^\d{1,15}$/.test(a[name]) ? Number(a[name]) : undefined);
  return {
    session,
    originId,
    connectionIp: ip,
    port: media.port,
    transport,
    setup,
    direction,
    payloads,
    ssrc: y || undefined,
    ssrcNumber: ssrcNum,
    startTime: t?.[0],
    endTime: t?.[1],
    f,
    fileSize: intAttr('filesize'),
    downloadSpeed: intAttr('downloadspeed'),
  };
}

/**
 * The INVITE's Subject header (GB/T 28181-2016 8.1.2): `sender:senderSeq,receiver:receiverSeq`, where
 * the sender is the channel, its sequence the SSRC (0… live, 1… history), the receiver the platform.
 */
export function gbSubject(s: { channelId: string; ssrc: string; platformId: string; receiverSeq?: string }): string {
  if (!DEVICE_ID.test(s.channelId) || !DEVICE_ID.test(s.platformId))
    throw new ManscdpError('bad-argument', 'Subject needs 20-digit channel and platform IDs');
  if (!/^\d{1,20}$/.test(s.ssrc) || (s.receiverSeq !== undefined && !/^[\w-]{1,20}$/.test(s.receiverSeq))) {
    throw new ManscdpError('bad-argument', 'Subject sequence numbers are up to 20 characters');
  }
  return `${s.channelId}:${s.ssrc},${s.platformId}:${s.receiverSeq ?? '0'}`;
}
