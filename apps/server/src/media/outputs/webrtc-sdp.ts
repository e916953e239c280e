/**
 * SDP pieces of the WHEP output, as pure functions of text (tested on browser offers): which H.264
 * payload type of an offer fits the stream (packetization-mode=1, the stream's profile if offered),
 * the offer cut down to that one video payload type before the WebRTC stack answers it, and the
 * answer's candidates limited to the configured addresses.
 */

export interface H264Offer {
  payloadType: number;
  /** The fmtp parameters as offered (empty when none). */
  fmtp: string;
  profileLevelId?: string;
  packetizationMode: number;
}

const lines = (sdp: string) => sdp.split(/\r?\n/).filter((l, i, all) => l !== '' || i < all.length - 1);

/** Splits an SDP into the session part and one block of lines per m= section. */
function sections(sdp: string): { session: string[]; media: string[][] } {
  const session: string[] = [];
  const media: string[][] = [];
  for (const l of lines(sdp)) {
    if (l.startsWith('m=')) media.push([l]);
    else if (media.length) media[media.length - 1].push(l);
    else session.push(l);
  }
  return { session, media };
}

const join = (s: { session: string[]; media: string[][] }) => [...s.session, ...s.media.flat()].filter((l) => l !== '').join('\r\n') + '\r\n';

/** The H.264 payload types offered in the first video section, with their fmtp parameters. */
export function offeredH264(sdp: string): H264Offer[] {
  const video = sections(sdp).media.find((m) => m[0].startsWith('m=video'));
  if (!video) return [];
  const out: H264Offer[] = [];
  for (const l of video) {
    const m = /^a=rtpmap:(\d+) H264\/90000/i.exec(l);
    if (!m) continue;
    const pt = Number(m[1]);
    const fmtp = video.find((x) => x.startsWith(`a=fmtp:${pt} `))?.slice(`a=fmtp:${pt} `.length).trim() ?? '';
    const params = new Map(
      fmtp
        .split(';')
        .map((p) => p.trim().split('='))
        .filter((kv) => kv.length === 2)
        .map(([k, v]) => [k.trim().toLowerCase(), v.trim()]),
    );
    out.push({
      payloadType: pt,
      fmtp,
      profileLevelId: params.get('profile-level-id')?.toLowerCase(),
      packetizationMode: Number(params.get('packetization-mode') ?? 0),
    });
  }
  return out;
}

/**
 * The offered H.264 payload type for a stream whose SPS starts `sps` (NAL header, profile_idc,
 * constraint flags, level_idc): packetization-mode=1 is required (FU-A); the same profile and
 * constraints first, then the same profile, then any. Undefined when the peer offers no usable H.264.
 */
export function chooseH264(offers: H264Offer[], sps?: Uint8Array): H264Offer | undefined {
  const usable = offers.filter((o) => o.packetizationMode === 1);
  if (!usable.length) return undefined;
  const want = sps && sps.length >= 4 ? Array.from(sps.subarray(1, 3), (b) => b.toString(16).padStart(2, '0')).join('') : undefined;
  const score = (o: H264Offer) => {
    const plid = o.profileLevelId ?? '42e01f';
    if (!want) return plid.startsWith('42e0') ? 2 : plid.startsWith('42') ? 1 : 0;
    if (plid.slice(0, 4) === want) return 3;
    if (plid.slice(0, 2) === want.slice(0, 2)) return 2;
    // Constrained Baseline decoders take the other baseline-compatible profiles' streams poorly;
    // any profile still plays in browsers, which decode up to High whatever they offer.
    return 1;
  };
  return usable.reduce((best, o) => (score(o) > score(best) ? o : best));
}

/**
 * The offer with its first video section reduced to one payload type (and the lines that name the
 * others removed), so the stack answers exactly that codec. Other sections are left as they are.
 */
export function keepVideoPayloadType(sdp: string, pt: number): string {
  const s = sections(sdp);
  const i = s.media.findIndex((m) => m[0].startsWith('m=video'));
  if (i < 0) return sdp;
  const [head, ...rest] = s.media[i];
  const parts = head.split(' ');
  const other = new Set(parts.slice(3).filter((p) => p !== String(pt)));
  s.media[i] = [
    [...parts.slice(0, 3), String(pt)].join(' '),
    ...rest.filter((l) => {
      const m = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+|\*)[ ]/.exec(l);
      return !m || !other.has(m[1]);
    }),
  ];
  return join(s);
}

/** The candidate lines of an SDP whose address is not in `allowed` removed (the others kept as they are). */
export function keepCandidates(sdp: string, allowed: ReadonlySet<string>): string {
  const s = sections(sdp);
  const keep = (l: string) => {
    if (!l.startsWith('a=candidate:')) return true;
    const address = l.split(' ')[4];
    return address !== undefined && allowed.has(address);
  };
  return join({ session: s.session.filter(keep), media: s.media.map((m) => m.filter(keep)) });
}

/** The addresses of an SDP's candidate lines. */
export function candidateAddresses(sdp: string): string[] {
  return lines(sdp)
    .filter((l) => l.startsWith('a=candidate:'))
    .map((l) => l.split(' ')[4]);
}

/** Encoding names (upper case) of the first audio section's rtpmap lines, with their clock rates. */
export function offeredAudio(sdp: string): { name: string; clockRate: number; payloadType: number }[] {
  const audio = sections(sdp).media.find((m) => m[0].startsWith('m=audio'));
  if (!audio) return [];
  return audio
    .map((l) => /^a=rtpmap:(\d+) ([\w-]+)\/(\d+)/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ payloadType: Number(m[1]), name: m[2].toUpperCase(), clockRate: Number(m[3]) }));
}

/**
 * G.711 audio goes to the browser as it is (every WebRTC browser decodes PCMA and PCMU): the codec
 * to answer for a stream's audio codec when the offer has it at 8 kHz; undefined otherwise.
 */
export function passthroughAudio(sdp: string, codec: string | undefined): 'PCMA' | 'PCMU' | undefined {
  const want = codec === 'pcma' ? 'PCMA' : codec === 'pcmu' ? 'PCMU' : undefined;
  if (!want) return undefined;
  return offeredAudio(sdp).some((c) => c.name === want && c.clockRate === 8000) ? want : undefined;
}
