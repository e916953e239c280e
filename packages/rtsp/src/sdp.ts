/**
 * A minimal SDP reader (RFC 8866) for what a DESCRIBE answer tells an RTSP client: the media, their
 * payload formats (rtpmap, fmtp) and control URLs. Lenient: lines it does not know are kept in
 * `attributes` or ignored, and it never throws.
 */

export interface RtpMap {
  payloadType: number;
  /** As written ("H264", "MPEG4-GENERIC", "PCMA"). */
  encoding: string;
  clockRate: number;
  channels?: number;
}

export interface SdpMedia {
  type: string;
  port: number;
  protocol: string;
  formats: string[];
  control?: string;
  rtpmap: RtpMap[];
  /** fmtp parameters by payload type. */
  fmtp: Record<string, Record<string, string>>;
  /** Every a= line of the media, name then value ('' for flags). */
  attributes: [string, string][];
}

export interface Sdp {
  version?: number;
  origin?: string;
  sessionName?: string;
  control?: string;
  range?: string;
  attributes: [string, string][];
  media: SdpMedia[];
}

/** Static RTP payload types of RFC 3551 that a camera may announce without an rtpmap. */
const STATIC: Record<number, RtpMap> = {
  0: { payloadType: 0, encoding: 'PCMU', clockRate: 8000, channels: 1 },
  8: { payloadType: 8, encoding: 'PCMA', clockRate: 8000, channels: 1 },
  14: { payloadType: 14, encoding: 'MPA', clockRate: 90000 },
  26: { payloadType: 26, encoding: 'JPEG', clockRate: 90000 },
  32: { payloadType: 32, encoding: 'MPV', clockRate: 90000 },
  33: { payloadType: 33, encoding: 'MP2T', clockRate: 90000 },
};

export function parseSdp(text: string): Sdp {
  const sdp: Sdp = { attributes: [], media: [] };
  let media: SdpMedia | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.length < 2 || line[1] !== '=') continue;
    const k = line[0];
    const v = line.slice(2);
    if (k === 'v' && !media) sdp.version = Number(v.trim());
    else if (k === 'o' && !media) sdp.origin = v;
    else if (k === 's' && !media) sdp.sessionName = v;
    else if (k === 'm') {
      const [type = '', port = '', protocol = '', ...formats] = v.trim().split(/\s+/);
      media = { type, port: Number(port.split('/')[0]) || 0, protocol, formats, rtpmap: [], fmtp: {}, attributes: [] };
      sdp.media.push(media);
    } else if (k === 'a') {
      const colon = v.indexOf(':');
      const name = colon < 0 ? v : v.slice(0, colon);
      const value = colon < 0 ? '' : v.slice(colon + 1);
      if (!media) {
        sdp.attributes.push([name, value]);
        if (name === 'control') sdp.control = value.trim();
        else if (name === 'range') sdp.range = value.trim();
        continue;
      }
      media.attributes.push([name, value]);
      if (name === 'control') media.control = value.trim();
      else if (name === 'rtpmap') {
        const m = /^\s*(\d+)\s+([^/\s]+)\/(\d+)(?:\/(\d+))?/.exec(value);
        if (m) media.rtpmap.push({ payloadType: Number(m[1]), encoding: m[2], clockRate: Number(m[3]), ...(m[4] ? { channels: Number(m[4]) } : {}) });
      } else if (name === 'fmtp') {
        const m = /^\s*(\S+)\s*(.*)$/.exec(value);
        if (m) {
          const params: Record<string, string> = {};
          for (const part of m[2].split(';')) {
            const p = part.trim();
            if (!p) continue;
            const eq = p.indexOf('=');
            if (eq < 0) params[p] = '';
            else params[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
          }
          media.fmtp[m[1]] = params;
        }
      }
    }
  }
  return sdp;
}

/** The encodings of a media, by its format list: rtpmap names, else the static payload types. */
export function mediaCodecs(m: SdpMedia): string[] {
  const out: string[] = [];
  for (const f of m.formats) {
    const pt = Number(f);
    const map = m.rtpmap.find((r) => r.payloadType === pt) ?? (Number.isInteger(pt) ? STATIC[pt] : undefined);
    if (map) out.push(map.encoding.toUpperCase());
  }
  return out;
}

/** Every codec of the description, in order, without repeats ("H264", "PCMA", ...). */
export function sdpCodecs(sdp: Sdp): string[] {
  return [...new Set(sdp.media.flatMap(mediaCodecs))];
}

/**
 * The URL to SETUP a media: its control attribute resolved against the Content-Base (or the request
 * URL). "*" or no control means the base itself.
 */
export function resolveControl(base: string, control: string | undefined): string {
  if (!control || control === '*') return base;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(control)) return control;
  return base.endsWith('/') ? base + control : `${base}/${control}`;
}
