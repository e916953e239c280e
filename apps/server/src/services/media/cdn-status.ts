/**
 * A channel's CDN push as the channel lists and the events socket give it to an administrator
 * (CdnPush of spec 3's Channel, an added field): the push's snapshot with the address masked and the
 * reason rendered in the asker's language, or 'stopped' with why nothing is pushed. A CDN server's
 * own words (its refusal code) may repeat the stream key: the reason's vars are masked too.
 */
import { reason, type CdnPushStatus, type ChannelRow, type Lang, type Reason } from '@opencvr/shared';
import { maskedPushUrl, maskPushUrl } from '../../media/ffmpeg/push-url-mask.js';
import { isCdnUrl, type CdnPushes, type CdnPushSnapshot } from './cdn.js';

function withReason(status: CdnPushStatus, why: Reason | undefined, url: string, lang: Lang): CdnPushStatus {
  if (!why) return status;
  const vars = Object.fromEntries(Object.entries(why.vars ?? {}).map(([k, v]) => [k, typeof v === 'string' ? maskPushUrl(v, url) : v]));
  return { ...status, Reason: reason(why.key, lang, vars), ReasonCode: why.key, ...(why.vars ? { ReasonVars: vars } : {}) };
}

/** A running push, `now` the asker's moment (NextTryIn counts from it). */
export function cdnPushStatus(s: CdnPushSnapshot, lang: Lang, now = Date.now()): CdnPushStatus {
  const status: CdnPushStatus = { State: s.state, Url: maskedPushUrl(s.url), Runs: s.runs };
  if (s.transcoded) status.Transcoded = true;
  if (s.state === 'pushing') {
    if (s.since !== undefined) status.Since = new Date(s.since).toISOString();
    status.BytesSent = s.bytesSent ?? 0;
    status.Bitrate = s.bitrate ?? 0;
  }
  if (s.nextTryAt !== undefined) status.NextTryIn = Math.max(0, Math.ceil((s.nextTryAt - now) / 1000));
  return withReason(status, s.why, s.url, lang);
}

/** A channel with EnableCdn on that no push runs for: why (the reconcile's rules, cdn.ts). */
export function stoppedCdnStatus(c: { Enable: number; DeviceEnable: number; CdnUrl: string }, lang: Lang): CdnPushStatus {
  const why: Reason | undefined = !isCdnUrl(c.CdnUrl)
    ? { key: 'cdnNotRtmpUrl' }
    : !c.DeviceEnable
      ? { key: 'statusDeviceDisabled' }
      : !c.Enable
        ? { key: 'statusChannelDisabled' }
        : undefined;
  return withReason({ State: 'stopped', Url: c.CdnUrl ? maskedPushUrl(c.CdnUrl) : '', Runs: 0 }, why, c.CdnUrl, lang);
}

/** A page of channel rows for an administrator: those with EnableCdn on get their CdnPush. */
export function withCdnPush<R extends ChannelRow>(rows: R[], pushes: Pick<CdnPushes, 'snapshot'>, lang: Lang): R[] {
  return rows.map((r) => {
    if (!r.EnableCdn) return r;
    const snap = pushes.snapshot(r.ParentDeviceID, r.ChannelID);
    return { ...r, CdnPush: snap ? cdnPushStatus(snap, lang) : stoppedCdnStatus(r, lang) };
  });
}
