/**
 * The recording playback socket ends when its play token expires, as the live outputs do
 * (routes/media/token-expiry.ts): its token lasts 24 h and was checked only when the socket opened,
 * so a socket held open (a script, a page left open) played on. Two playbacks of the recorded test
 * camera: the one let in by a token expiring in about two seconds is closed after it with 1008
 * "play token expired" and its session ends; the one with the 24 h token of the answer stays open.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { playbackOf } from '../../src/services/playback/index.js';
import { until } from '../helpers/index.js';
import { recordCamera, stampOf, type Recorded } from './support.js';

let R: Recorded;
beforeAll(async () => {
  R = await recordCamera(4);
}, 90000);
afterAll(async () => {
  await R?.t.close();
  if (R?.tmp) fs.rmSync(R.tmp, { recursive: true, force: true });
});

async function openPlayback() {
  const url = `/api/v1/devices/record/playback?channel=${R.dev}:1&stime=${stampOf(R.from.getTime())}&etime=${stampOf(R.to.getTime())}&protocol=ws_m4s`;
  const res = await R.t.app.inject({ url, headers: { token: R.admin } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().EasyDarwin.Body as { URL: string; request_id: string };
}

/** A playback socket: counts what it got and resolves `closed` with the close code and reason. */
function viewer(url: string) {
  const ws = new WebSocket(`${R.t.baseUrl!.replace(/^http/, 'ws')}${url}`);
  const v = { ws, messages: 0, closed: new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) }))) };
  ws.on('message', () => v.messages++);
  ws.on('error', () => undefined);
  return v;
}

it("a playback socket let in by a token expiring in ~2 s is closed after it ('play token expired') and its session ends; one with the answer's 24 h token stays open", async () => {
  const sessions = playbackOf(R.t.ctx, R.t.app.log);
  const [a, b] = [await openPlayback(), await openPlayback()];
  const { token } = await R.t.ctx.streams.signShare(`playback:${a.request_id}`, 2);
  const short = viewer(a.URL.replace(/play_token=.*/, `play_token=${token}`));
  const long = viewer(b.URL);
  await until(() => short.messages > 0 && long.messages > 0, 15000, { what: () => 'both playbacks sending' });
  expect(await short.closed).toEqual({ code: 1008, reason: 'play token expired' });
  await until(() => !sessions.get(a.request_id), 5000, { what: () => 'the short-token session closed' });
  expect(long.ws.readyState).toBe(WebSocket.OPEN);
  expect(sessions.get(b.request_id)?.closed).toBe(false);
  long.ws.close();
}, 60000);
