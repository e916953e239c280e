/**
 * The server's reconnect reasons in the console's language (reasonText.ts): the catalogue reason the
 * live socket sends with the source's words; a catalogue text in English; unknown words as written.
 */
import { describe, expect, it } from 'vitest';
import i18n from '../src/i18n';
import { reason } from '@opencvr/shared';
import { reasonText } from '../src/components/player/reasonText';

describe('reasonText', () => {
  const zh = i18n.getFixedT('zh-CN');
  const en = i18n.getFixedT('en-US');
  it('shows a reason of the shared catalogue (the server writes its English) in the console’s language', () => {
    const hevc = reason('pullHevcFlvNeedsFfmpeg61', 'en-US');
    expect(reasonText(hevc, zh)).toBe(reason('pullHevcFlvNeedsFfmpeg61', 'zh-CN'));
    expect(reasonText(hevc, zh)).toMatch(/H\.265.*ffmpeg/);
    expect(reasonText(hevc, en)).toBe(hevc);
  });
  it('shows the catalogue reason sent with the words, not the words', () => {
    expect(reasonText('connection refused', zh, { key: 'streamRefused' })).toBe('摄像机拒绝连接');
    expect(reasonText('connection refused', en, { key: 'streamRefused' })).toBe('The camera refused the connection');
    expect(reasonText('connect timeout after 5000 ms', en, { key: 'streamConnectTimeout', vars: { ms: 5000 } })).toBe('The camera did not answer within 5000 ms');
    // the camera's reason phrase as it wrote it, the words around it in the console's language
    const notFound = { key: 'streamAnswered', vars: { method: 'DESCRIBE', status: 404, phrase: 'Not Found' } } as const;
    expect(reasonText('DESCRIBE: 404 Not Found', zh, notFound)).toBe('摄像机对 DESCRIBE 请求回应 404 Not Found');
  });
  it('keeps words that came without a reason as the server wrote them', () => {
    expect(reasonText('INVITE refused: 488 Not Acceptable Here', zh)).toBe('INVITE refused: 488 Not Acceptable Here');
    expect(reasonText('', zh)).toBe('');
  });
});
