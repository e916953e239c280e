/**
 * The platform's own playback socket says why it ended or stopped in the opener's language, from the
 * REASONS catalogue: never an English error message (an OS error code stays as the OS wrote it; any
 * other error is the log's). Driven with a socket double and segment lists that end or fail.
 */
import { describe, expect, it } from 'vitest';
import type { Lang } from '@opencvr/shared';
import { PlaybackSession, type PlaybackSocket } from '../../src/services/playback/session.js';
import { SegmentReader } from '../../src/services/playback/segment-reader.js';
import { until } from '../helpers/index.js';

function socket() {
  const texts: Record<string, unknown>[] = [];
  const ws: PlaybackSocket = {
    bufferedAmount: 0,
    readyState: 1,
    send: (d) => void (typeof d === 'string' && texts.push(JSON.parse(d))),
    close: () => undefined,
  };
  return { ws, texts };
}

/** A session over `segments` (which may throw), attached to a socket double; resolves when its state message came. */
async function run(lang: Lang | undefined, segments: () => Promise<never[]>) {
  const warned: object[] = [];
  const s = new PlaybackSession('t', 1, 1, Date.now() - 60_000, Date.now() - 30_000, {
    reader: new SegmentReader(),
    segments,
    lang,
    log: { warn: (obj) => void warned.push(obj) },
  });
  const { ws, texts } = socket();
  s.attach(ws);
  await until(() => texts.find((m) => m.state === 'ended' || m.state === 'stopped'), 5000);
  const state = texts.find((m) => m.state === 'ended' || m.state === 'stopped')!;
  s.close();
  return { state, session: s, warned };
}

describe('the playback socket says why in the opener’s language', () => {
  it('the end of the range: Chinese by default, English for an en-US opener; the session keeps the reason for playState', async () => {
    const zh = await run(undefined, async () => []);
    expect(zh.state).toEqual({ type: 'state', state: 'ended', reason: '已播放到所选时间范围或录像的结尾' });
    expect(zh.session.reason).toEqual({ key: 'playbackEnded' });
    const en = await run('en-US', async () => []);
    expect(en.state.reason).toBe('the end of the range or of the recordings');
  });

  it('a file the OS cannot read: the reason in the language with the OS code as written', async () => {
    const fail = async (): Promise<never[]> => {
      throw Object.assign(new Error("EIO: i/o error, open '/rec/x.mp4'"), { code: 'EIO' });
    };
    expect((await run('zh-CN', fail)).state).toEqual({ type: 'state', state: 'stopped', reason: '无法读取录像文件（EIO）' });
    expect((await run('en-US', fail)).state.reason).toBe('the recording file cannot be read (EIO)');
  });

  it('any other error: a reason in the language; the error message goes to the log, not to the user', async () => {
    const fail = async (): Promise<never[]> => {
      throw new Error('box moof truncated at 1234');
    };
    const zh = await run(undefined, fail);
    expect(zh.state.reason).toBe('回放因服务器错误而停止，详情见服务器日志');
    expect(JSON.stringify(zh.state)).not.toContain('moof');
    expect(zh.warned).toHaveLength(1);
    expect((await run('en-US', fail)).state.reason).toBe('the playback stopped on a server error (see the server log)');
  });
});
