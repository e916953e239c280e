/**
 * The console's API as the specs use it: sessions and calls through Playwright's request context.
 * Every worker starts a fresh server of its own (support/fixtures.ts); adminSession() initialises it.
 */
import crypto from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';

export const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');

/** The admin password adminSession() sets on the worker's server. */
export const OWN_PASSWORD = 'Str0ng!Pass';

export interface Session {
  Token: string;
  UserInfo: Record<string, unknown>;
}

/** The body of a v1 answer (inside the EasyDarwin envelope when there is one); fails on an error status. */
export async function v1<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  const body = (await res.json().catch(() => null)) as { EasyDarwin?: { Body: unknown } } | null;
  expect(res.ok(), `${res.url()} answered ${res.status()}: ${JSON.stringify(body)}`).toBeTruthy();
  return (body?.EasyDarwin?.Body ?? body) as T;
}

export async function tryLogin(api: APIRequestContext, username: string, password: string): Promise<Session | null> {
  const res = await api.get('/api/v1/login', { params: { username, password: md5(password) } });
  const body = (await res.json().catch(() => null)) as { EasyDarwin?: { Body: Session } } | null;
  return res.ok() && body?.EasyDarwin ? body.EasyDarwin.Body : null;
}

/**
 * The admin's session on the worker's fresh server (the `admin` fixture, once per worker), which it
 * initialises: the first-run settings with OWN_PASSWORD, and the server's addresses if it asks for them.
 */
export async function adminSession(api: APIRequestContext): Promise<Session> {
  const fresh = await tryLogin(api, 'admin', 'admin');
  if (!fresh) throw new Error('admin/admin does not log in: the worker\'s server is not a fresh one');
  await v1(
    await api.post('/api/v1/setinitial', {
      headers: { token: fresh.Token },
      form: {
        SipPassword: 'Sip!e2e123',
        EhomePassword: 'Ehome!e2e123',
        OldPassword: md5('admin'),
        NewPassword: OWN_PASSWORD,
      },
    }),
  );
  const s = await tryLogin(api, 'admin', OWN_PASSWORD);
  if (!s) throw new Error('the password set by setinitial does not log in');
  const { CheckIP } = await v1<{ CheckIP: boolean }>(await api.get('/api/v1/check_ip', { headers: { token: s.Token } }));
  if (CheckIP) {
    await v1(
      await api.post('/api/v1/setip', {
        headers: { token: s.Token },
        form: { sip_host: '127.0.0.1', terminal_host: '127.0.0.1', ehome_host: '127.0.0.1' },
      }),
    );
  }
  return s;
}

/** Adds an RTSP device with one stream address (its first channel); returns its DeviceID. */
export async function addRtspDevice(
  api: APIRequestContext,
  token: string,
  name: string,
  rtspUrl: string,
): Promise<string> {
  const body = await v1<{ DeviceID: string }>(
    await api.post('/api/v1/adddevice', {
      headers: { token },
      data: { DeviceName: name, DeviceType: 'RTSP', RtspUrl: rtspUrl },
    }),
  );
  return body.DeviceID;
}

/** Today in the machine's local time as YYYYMMDD (the playback pages' and querydaily's day). */
export function todayYmd(d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}`;
}

/** A range of querydaily's list: local YYYYMMDDHHmmss bounds, seconds, and 1 while its last segment is written. */
export interface DailyRange {
  startAt: string;
  endAt: string;
  duration: number;
  recording: number;
}

/** Today's recorded ranges of a device's channel 1 (querydaily, which answers without the envelope). */
export async function dailyRanges(api: APIRequestContext, token: string, device: string): Promise<DailyRange[]> {
  const r = await api.get('/api/v1/record/querydaily', { headers: { token }, params: { id: `${device}:1`, period: todayYmd() } });
  expect(r.ok(), `querydaily answered ${r.status()}`).toBeTruthy();
  return ((await r.json()) as { list: DailyRange[] }).list;
}

/**
 * Waits until the longest of today's ranges spans `seconds`: the recorder moves a range's end every
 * 2 s while it writes, so this is the recording's own length, not a guess of the wall time it takes.
 */
export async function waitForRecorded(api: APIRequestContext, token: string, device: string, seconds: number): Promise<void> {
  await expect
    .poll(async () => Math.max(0, ...(await dailyRanges(api, token, device)).map((x) => x.duration)), { message: `${seconds} s recorded`, timeout: seconds * 1000 + 30_000 })
    .toBeGreaterThanOrEqual(seconds);
}

/** Waits (up to 30 s) until querydaily lists a recorded range of a device's channel 1 today. */
export async function waitForRecording(api: APIRequestContext, token: string, device: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const r = await api.get('/api/v1/record/querydaily', { headers: { token }, params: { id: `${device}:1`, period: todayYmd() } });
        return ((await r.json()) as { total?: number }).total ?? 0;
      },
      { message: 'recording starts', timeout: 30_000 },
    )
    .toBeGreaterThan(0);
}
