/** The playback pages' device source (GB28181 recordings kept on the device): what is asked and how it plays. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchDaily, fetchMonthly, openPlayback } from '../src/features/playback/api';
import { deviceSourceAvailable, recordTypeOf, speedsFor, videoRateFor } from '../src/features/playback/source';

afterEach(() => vi.unstubAllGlobals());

function capture(body: unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return urls;
}

describe('device source', () => {
  it('is offered for GB28181 channels only; asks recordType=Device; device speeds stop at 8x', () => {
    expect(deviceSourceAvailable('GB28181')).toBe(true);
    expect(deviceSourceAvailable('RTSP')).toBe(false);
    expect(deviceSourceAvailable(undefined)).toBe(false);
    expect(recordTypeOf('Device')).toEqual({ recordType: 'Device' });
    expect(recordTypeOf('Cloud')).toEqual({});
    expect(speedsFor('Device')).toEqual([0.5, 1, 2, 4, 8]);
    expect(speedsFor('Cloud')).toContain(16);
  });

  it('a stream that carries its speed plays at rate 1; the platform’s own at the chosen rate', () => {
    expect(videoRateFor(4, true)).toBe(1);
    expect(videoRateFor(4, false)).toBe(4);
  });

  it('querydaily, querymonthly and devices/record/playback carry recordType=Device; the platform’s calls do not', async () => {
    let urls = capture({ total: 0, list: [] });
    await fetchDaily('34020000001320000001', '34020000001310000001', '20260314', 'Device');
    await fetchMonthly('34020000001320000001', '34020000001310000001', '202603', 'Device');
    expect(urls[0]).toMatch(/\/api\/v1\/record\/querydaily\?.*recordType=Device/);
    expect(urls[1]).toMatch(/\/api\/v1\/record\/querymonthly\?.*recordType=Device/);
    await fetchDaily('34020000001320000001', '34020000001310000001', '20260314');
    expect(urls[2]).not.toMatch(/recordType/);
    urls = capture({ EasyDarwin: { Header: { ErrorNum: '200', ErrorString: 'OK' }, Body: { URL: '/ws_m4s/playback/x.mp4', request_id: 'x', SpeedInStream: 1 } } });
    const answer = await openPlayback('34020000001320000001', '34020000001310000001', '20260314080000', '20260314090000', 'Device');
    expect(urls[0]).toMatch(/\/api\/v1\/devices\/record\/playback\?.*recordType=Device/);
    expect(answer.SpeedInStream).toBe(1);
  });
});
