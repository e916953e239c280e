/**
 * A camera's own snapshot over HTTP (a channel's SnapUrl): Digest and Basic answered once with the
 * channel's credentials (the URL's own user part wins), and everything that is not a JPEG of
 * bounded size refused. Against a real HTTP server (fixtures/snapshot-camera.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fetchSnapshot, HttpSnapshotError } from '../../src/access/http-snapshot.js';
import { startSnapshotCamera, testJpeg, type SnapshotCamera } from '../fixtures/snapshot-camera.js';

let cam: SnapshotCamera | undefined;
afterEach(async () => {
  await cam?.close();
  cam = undefined;
});

const opts = { timeoutMs: 5000, maxBytes: 8 * 1024 * 1024 };

describe('fetchSnapshot', () => {
  it('answers a Digest challenge with the channel credentials; credentials in the URL win', async () => {
    cam = await startSnapshotCamera({ username: 'admin', password: 'pa:ss' });
    const jpeg = await fetchSnapshot({ url: `${cam.base}/picture?channel=1`, username: 'admin', password: 'pa:ss' }, opts);
    expect(jpeg.equals(testJpeg())).toBe(true);
    const inUrl = await fetchSnapshot({ url: `http://admin:pa%3Ass@${cam.base.slice(7)}/picture`, username: 'other', password: 'wrong' }, opts);
    expect(inUrl.equals(testJpeg())).toBe(true);
    expect(cam.served).toBe(2);
  });

  it('Basic too; a wrong password, a web page, too many bytes or another scheme: an error, nothing kept', async () => {
    cam = await startSnapshotCamera({ username: 'admin', password: 'secret', scheme: 'basic' });
    const src = (path: string, password = 'secret') => ({ url: `${cam!.base}${path}`, username: 'admin', password });
    expect((await fetchSnapshot(src('/picture'), opts)).equals(testJpeg())).toBe(true);
    await expect(fetchSnapshot(src('/picture', 'wrong'), opts)).rejects.toThrow(new HttpSnapshotError('HTTP 401'));
    await expect(fetchSnapshot(src('/text'), opts)).rejects.toThrow(new HttpSnapshotError('not a JPEG'));
    await expect(fetchSnapshot(src('/big'), { ...opts, maxBytes: testJpeg().length })).rejects.toThrow(HttpSnapshotError);
    await expect(fetchSnapshot(src('/missing'), opts)).rejects.toThrow(new HttpSnapshotError('HTTP 404'));
    await expect(fetchSnapshot({ url: 'file:///etc/passwd', username: '', password: '' }, opts)).rejects.toThrow(new HttpSnapshotError('not an http(s) URL'));
    expect(cam.served).toBe(1);
  });
});
