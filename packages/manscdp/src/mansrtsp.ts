/**
 * MANSRTSP (GB/T 28181-2016 annex B): RTSP-like bodies carried in SIP INFO within a Playback dialog to
 * pause, resume, seek and change speed. Content-Type: Application/MANSRTSP.
 *   PLAY RTSP/1.0 · CSeq · [Scale: 2.0] · [Range: npt=<seconds from the start of the file>-]
 *   PAUSE RTSP/1.0 · CSeq · PauseTime: now
 *   TEARDOWN RTSP/1.0 · CSeq
 */
import { ManscdpError } from './errors.js';

export const MANSRTSP_CONTENT_TYPE = 'Application/MANSRTSP';

/** Speeds the standard's examples use and devices accept; others are refused. */
export const MANSRTSP_SCALES = [0.25, 0.5, 1, 2, 4, 8] as const;

export type MansrtspRequest =
  | { method: 'PLAY'; cseq: number; scale?: number; rangeStart?: number }
  | { method: 'PAUSE'; cseq: number }
  | { method: 'TEARDOWN'; cseq: number };

function checkCseq(cseq: number): void {
  if (!Number.isInteger(cseq) || cseq < 0 || cseq > 0xffffffff)
    throw new ManscdpError('bad-argument', `CSeq ${cseq} is not an integer in 0..4294967295`);
}

/** Scale written as devices expect it (Hikvision and Dahua both read `2.000000`). */
const scaleText = (s: number) => s.toFixed(6);

export function encodeMansrtsp(r: MansrtspRequest): string {
  checkCseq(r.cseq);
  const lines = [`${r.method} RTSP/1.0`, `CSeq: ${r.cseq}`];
  if (r.method === 'PLAY') {
    if (r.scale !== undefined) {
      if (!(MANSRTSP_SCALES as readonly number[]).includes(r.scale))
        throw new ManscdpError('bad-argument', `Scale ${r.scale} is not one of ${MANSRTSP_SCALES.join(', ')}`);
      lines.push(`Scale: ${scaleText(r.scale)}`);
    }
    if (r.rangeStart !== undefined) {
      if (!Number.isFinite(r.rangeStart) || r.rangeStart < 0)
        throw new ManscdpError('bad-argument', `Range start ${r.rangeStart} is not a non-negative number of seconds`);
      lines.push(`Range: npt=${Number.isInteger(r.rangeStart) ? r.rangeStart : r.rangeStart.toFixed(3)}-`);
    }
  } else if (r.method === 'PAUSE') lines.push('PauseTime: now');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Resume where it paused (PLAY without Range). */
export const mansrtspResume = (cseq: number) => encodeMansrtsp({ method: 'PLAY', cseq });
export const mansrtspPause = (cseq: number) => encodeMansrtsp({ method: 'PAUSE', cseq });
export const mansrtspSeek = (cseq: number, secondsFromStart: number) =>
  encodeMansrtsp({ method: 'PLAY', cseq, rangeStart: secondsFromStart });
export const mansrtspScale = (cseq: number, scale: number) => encodeMansrtsp({ method: 'PLAY', cseq, scale });
export const mansrtspTeardown = (cseq: number) => encodeMansrtsp({ method: 'TEARDOWN', cseq });

const MAX = 4096;

function headerLines(text: string, what: string): { first: string; headers: Map<string, string> } {
  if (text.length > MAX) throw new ManscdpError('bad-rtsp', `${what} longer than ${MAX} characters`);
  const lines = text.split(/\r?\n/);
  const headers = new Map<string, string>();
  for (const l of lines.slice(1)) {
    if (l.trim() === '') break;
    const i = l.indexOf(':');
    if (i > 0) headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
  }
  return { first: lines[0]?.trim() ?? '', headers };
}

function cseqOf(headers: Map<string, string>, what: string): number {
  const c = headers.get('cseq');
  if (c === undefined || !/^\d{1,10}$/.test(c) || Number(c) > 0xffffffff)
    throw new ManscdpError('bad-rtsp', `${what} without a valid CSeq`);
  return Number(c);
}

/** A MANSRTSP request (what a device double receives). Throws ManscdpError 'bad-rtsp'. */
export function parseMansrtspRequest(text: string): MansrtspRequest {
  const { first, headers } = headerLines(text, 'MANSRTSP request');
  const m = /^(PLAY|PAUSE|TEARDOWN) RTSP\/1\.0$/i.exec(first);
  if (!m)
    throw new ManscdpError(
      'bad-rtsp',
      `MANSRTSP request line "${first.slice(0, 40)}" is not PLAY, PAUSE or TEARDOWN RTSP/1.0`,
    );
  const method = m[1].toUpperCase() as MansrtspRequest['method'];
  const cseq = cseqOf(headers, 'MANSRTSP request');
  if (method !== 'PLAY') return { method, cseq };
  const out: MansrtspRequest = { method, cseq };
  const scale = headers.get('scale');
  if (scale !== undefined) {
    const s = Number(scale);
    if (!Number.isFinite(s) || s === 0 || scale === '')
      throw new ManscdpError('bad-rtsp', `Scale "${scale.slice(0, 20)}" is not a number`);
    out.scale = s;
  }
  const range = headers.get('range');
  if (range !== undefined) {
    const r = /^npt\s*=\s*(now|\d+(?:\.\d+)?)\s*-/i.exec(range);
    if (!r) throw new ManscdpError('bad-rtsp', `Range "${range.slice(0, 30)}" is not npt=<seconds>-`);
    if (r[1].toLowerCase() !== 'now') out.rangeStart = Number(r[1]);
  }
  return out;
}

export interface MansrtspResponse {
  status: number;
  reason: string;
  cseq: number;
  /** RTP-Info as written (`seq=…;rtptime=…`), when the device sends it. */
  rtpInfo?: string;
}

/** The device's answer inside the 200 to INFO. Throws ManscdpError 'bad-rtsp'. */
export function parseMansrtspResponse(text: string): MansrtspResponse {
  const { first, headers } = headerLines(text, 'MANSRTSP response');
  const m = /^RTSP\/1\.0\s+(\d{3})\s*(.*)$/i.exec(first);
  if (!m) throw new ManscdpError('bad-rtsp', `MANSRTSP status line "${first.slice(0, 40)}" is not RTSP/1.0 <code>`);
  return {
    status: Number(m[1]),
    reason: m[2],
    cseq: cseqOf(headers, 'MANSRTSP response'),
    rtpInfo: headers.get('rtp-info'),
  };
}
