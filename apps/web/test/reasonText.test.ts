/** The server's reconnect reasons in the console's language (reasonText.ts); unknown ones as written. */
import { describe, expect, it } from 'vitest';
import i18n from '../src/i18n';
import { reasonText } from '../src/components/player/reasonText';

describe('reasonText', () => {
  const zh = i18n.getFixedT('zh-CN');
  const en = i18n.getFixedT('en-US');
  it('names the common camera failures in Chinese and English', () => {
    expect(reasonText('connection refused', zh)).toBe('摄像机拒绝连接');
    expect(reasonText('connection refused', en)).toBe('The camera refused the connection');
    expect(reasonText('no media for 10 s', zh)).toBe('10 秒内没有收到摄像机的视频');
    expect(reasonText('connect timeout after 5000 ms', en)).toBe('The camera did not answer within 5000 ms');
    expect(reasonText('DESCRIBE: 401 Unauthorized', zh)).toBe('摄像机拒绝了用户名或密码');
    expect(reasonText('OPTIONS timeout after 5000 ms', zh)).toBe('摄像机的 OPTIONS 应答超时（5000 毫秒）');
    expect(reasonText('connection closed by the camera', zh)).toBe('摄像机断开了连接');
    expect(reasonText('bad data from the camera: RTP version 0', en)).toBe('The camera sent data that cannot be read');
  });
  it('keeps a reason it does not know as the server wrote it', () => {
    expect(reasonText('INVITE refused: 488 Not Acceptable Here', zh)).toBe('INVITE refused: 488 Not Acceptable Here');
    expect(reasonText('', zh)).toBe('');
  });
});
