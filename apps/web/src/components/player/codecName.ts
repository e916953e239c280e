/**
 * The video codec as the live player shows it, the same whatever the transport: WS-fMP4 and HLS
 * report the MSE codec string (avc1.64001e, hvc1.1.6.L93.B0), WS-FLV mpegts.js's (the same form),
 * WebRTC the negotiated payload's MIME subtype (H264), and the streamstat socket the server's track
 * codec (h264, h265). Only the codec is named, not its profile: a WebRTC player knows the profile of
 * the payload type it negotiated (the server picks one of the same profile when the browser offers
 * it), not the stream's, so a profile would differ by transport again.
 */
const NAMES: [RegExp, string][] = [
  [/^(avc[1-4]|h\.?264)\b/i, 'H.264'],
  [/^(hvc1|hev1|h\.?265|hevc)\b/i, 'H.265'],
  [/^(av01|av1)\b/i, 'AV1'],
  [/^vp0?8\b/i, 'VP8'],
  [/^vp0?9\b/i, 'VP9'],
];

/** "H.264" for avc1.64001e, H264, video/H264 or h264; "H.265" for hvc1/hev1/H265/h265; another codec as reported. */
export function codecName(codec: string | undefined): string {
  const c = (codec ?? '').trim().replace(/^video\//i, '');
  return NAMES.find(([re]) => re.test(c))?.[1] ?? c;
}
