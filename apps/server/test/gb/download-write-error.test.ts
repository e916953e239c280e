/**
 * A device download whose file cannot be written ends "failed" with a catalogue reason that names
 * the OS's code in the asker's language; the OS's English message goes to the log only. The source
 * is a double that answers the INVITE and announces an H.264 track (the fmp4 package's fixture);
 * the part file's path is taken by a folder, so opening it fails (EISDIR).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reason } from '@opencvr/shared';
import type { MediaSource } from '../../src/media/hub.js';
import { DeviceDownload } from '../../src/gb/records/download.js';
import { until } from '../helpers/index.js';
import { videoStream } from '../../../../packages/fmp4/test/helpers/streams.js';

const H264 = videoStream('h264', 'h264-320x240-25fps-bf2.h264');
const ID = '0123456789abcdef0123456789abcdef';
let dir = '';

afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a device download that cannot be written', () => {
  it('fails with gbDownloadWriteFailed and the code; the English message is logged, not shown', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gb-download-'));
    fs.mkdirSync(path.join(dir, `${ID}.part.mp4`));
    const warnings: { obj: { err?: Error }; msg: string }[] = [];
    const now = Date.now();
    const download = new DeviceDownload(ID, 1, 1, now, now + 60_000, 'x.mp4', {
      dir,
      log: { info: () => undefined, warn: (obj, msg) => warnings.push({ obj, msg }) },
      source: (hooks): MediaSource => ({
        start(sink) {
          hooks.invited();
          sink.tracks([H264.track]);
        },
        stop: () => undefined,
      }),
    });
    await download.start();
    await until(() => download.state === 'failed', 5000, { what: 'the download to fail' });

    expect(download.reason).toEqual({ key: 'gbDownloadWriteFailed', vars: { code: 'EISDIR' } });
    const r = download.reason!;
    expect(reason(r.key, 'zh-CN', r.vars)).toBe('无法写入下载文件（EISDIR）');
    expect(reason(r.key, 'en-US', r.vars)).toBe('cannot write the download (EISDIR)');
    expect(warnings.some((w) => /EISDIR: illegal operation on a directory/.test(String(w.obj.err?.message)))).toBe(true);
  });
});
