/**
 * Is this RTMP stream there? Does what a player does, up to the first picture or sound: handshake,
 * connect (app and tcUrl from the address), createStream, play (the stream key: the path after the
 * app, with the query), then waits for the server's onStatus and the first audio or video message.
 * A TCP connection alone said nothing: every RTMP server takes one whatever the key, and one with no
 * such stream says so only after play (NetStream.Play.StreamNotFound, or a Play.Start and no media,
 * as nginx-rtmp does for a key nobody publishes).
 *
 * A server that asks for a login (authmod=adobe or llnw, auth.ts) gets it when the address has credentials,
 * as ffmpeg would give it when it plays; without them, or refused, the reason says it was the login.
 *
 * A failure has the log's words (`reason`) and the catalogue's (`why`: what the channel stores and the
 * user reads). `answered` tells the checker the server itself is there (it sent its handshake).
 */
import type { Reason } from '@opencvr/shared';
import { RtmpType } from './chunks.js';
import { ABORTED, type ProbeMiss } from '../rtsp/probe.js';
import { authMiss, decoded, RtmpPlaySession, type PlayEnd, type PlayStep } from './play-session.js';

export { decoded, rtmpTarget } from './play-session.js';

export interface RtmpProbeResult {
  ok: boolean;
  /** The server sent its handshake: it is there, whatever came after. */
  answered: boolean;
  /** "OK", or why not in the log's words. */
  reason: string;
  /** Why not, from the REASONS catalogue; absent when ok. */
  why?: Reason;
}

/** The server took the play but sent nothing, or never answered a command. */
const noMedia = (ms: number): ProbeMiss => ({ reason: `no media within ${ms} ms`, why: { key: 'statusNoMediaWithin', vars: { ms } } });
const noAnswerTo = (command: 'connect' | 'play', ms: number): ProbeMiss => ({
  reason: `no answer to ${command} within ${ms} ms`,
  why: { key: 'statusRtmpNoAnswerTo', vars: { command, ms } },
});
/** A server that asks for a login takes three connections (auth.ts); a fourth would be a loop. */
const MAX_CONNECTS = 3;

/**
 * The probe: one play, or, when the server asks for a login (Adobe's or Limelight's, auth.ts) and the address has
 * the credentials (the channel's are put there by pullUrl), the connections that login takes, within
 * the one timeout.
 */
export async function probeRtmp(url: URL, o: { timeoutMs: number; signal?: AbortSignal }): Promise<RtmpProbeResult> {
  const creds = url.username ? { user: decoded(url.username), password: decoded(url.password) } : undefined;
  const deadline = performance.now() + o.timeoutMs;
  let auth = '';
  for (let connects = 1; ; connects++) {
    const r = await playOnce(url, { ...o, budgetMs: Math.max(1, deadline - performance.now()), auth, creds });
    if (!('reconnect' in r)) return r;
    if (connects >= MAX_CONNECTS) return { ok: false, answered: true, ...authMiss('failed', /authmod=(\w+)/.exec(r.reconnect)?.[1] ?? '') };
    auth = r.reconnect;
  }
}

function playOnce(
  url: URL,
  o: { timeoutMs: number; budgetMs: number; signal?: AbortSignal; auth: string; creds?: { user: string; password: string } },
): Promise<RtmpProbeResult | { reconnect: string }> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (m: ProbeMiss | 'OK' | { reconnect: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      session.close();
      if (m !== 'OK' && 'reconnect' in m) return resolve(m);
      const answered = session.answered;
      resolve(m === 'OK' ? { ok: true, answered, reason: 'OK' } : { ok: false, answered, reason: m.reason, why: m.why });
    };
    const session = new RtmpPlaySession(
      url,
      { auth: o.auth, creds: o.creds },
      {
        // Media after play: the stream is there (a server may skip the onStatus).
        media: (m) => {
          if (m.type === RtmpType.audio || m.type === RtmpType.video) finish('OK');
        },
        end: (e: PlayEnd) => finish('reconnect' in e ? e : e.miss),
      },
    );
    const timer = setTimeout(() => finish(timedOut(session.step, o.timeoutMs)), o.budgetMs);
    const onAbort = () => finish(ABORTED);
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** What the deadline means at each step. */
function timedOut(step: PlayStep, ms: number): ProbeMiss {
  switch (step) {
    case 'handshake':
      return { reason: `timeout after ${ms} ms`, why: { key: 'statusNoAnswerWithin', vars: { ms } } };
    case 'connect':
    case 'play':
      return noAnswerTo(step, ms);
    case 'playing':
      return noMedia(ms);
  }
}
