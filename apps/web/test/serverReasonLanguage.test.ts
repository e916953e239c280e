/**
 * Reasons in the console's language: a download refused by the server is asked for in the console's
 * language (a plain fetch would carry the browser's Accept-Language), and a schedule the console
 * itself refuses is said from the shared catalogue, not in the English of ScheduleError's message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normaliseSchedule } from '@opencvr/shared';
import { errorMessage, setLang } from '../src/i18n';
import { fetchWithProgress } from '../src/features/playback/download';

afterEach(() => {
  vi.unstubAllGlobals();
  setLang('zh-CN');
});

describe('a refused download', () => {
  it("asks in the console's language and shows the server's words", async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ code: 400, msg: 'Invalid parameter id: the download is not finished yet' }), { status: 400 }));
    vi.stubGlobal('fetch', fetch);
    setLang('en-US');
    const err = await fetchWithProgress('/api/v1/downloadrecord/file/x', () => {}, 'x.mp4').catch((e: Error) => e);
    expect((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].headers).toMatchObject({ 'Accept-Language': 'en-US' });
    expect((err as Error).message).toBe('Invalid parameter id: the download is not finished yet');
    setLang('zh-CN');
    await fetchWithProgress('/api/v1/downloadrecord/file/x', () => {}, 'x.mp4').catch(() => undefined);
    expect((fetch.mock.calls[1] as unknown as [string, RequestInit])[1].headers).toMatchObject({ 'Accept-Language': 'zh-CN' });
  });
});

describe('a schedule the console refuses', () => {
  const caught = () => {
    try {
      normaliseSchedule({ Monday: [{ StartTime: '08:00', EndTime: '08:00' }] });
    } catch (err) {
      return err;
    }
  };
  it('is said in the current language', () => {
    setLang('zh-CN');
    expect(errorMessage(caught())).toBe('Monday[0] 的开始时间与结束时间相同');
    setLang('en-US');
    expect(errorMessage(caught())).toBe('Monday[0] starts and ends at the same time');
    expect(errorMessage(new Error('other'))).toBe('other');
  });
});
