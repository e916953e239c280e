import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { declaredEncoding, decodeBody, encodeBody, replyEncoding } from '../src/index.js';

const body = (encoding: string, name: string) =>
  `<?xml version="1.0" encoding="${encoding}"?>\r\n<Notify><Name>${name}</Name></Notify>\r\n`;
const gb = (s: string, enc = 'gb18030') => new Uint8Array(iconv.encode(s, enc));
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('body charset', () => {
  it('reads the declaration, any case, with a BOM', () => {
    expect(declaredEncoding(utf8('<?xml version="1.0" encoding="gb2312"?><a/>'))).toBe('gb2312');
    expect(declaredEncoding(utf8("\ufeff<?xml version='1.0' encoding='UTF-8' standalone='yes'?><a/>"))).toBe('UTF-8');
    expect(declaredEncoding(utf8('<a/>'))).toBeUndefined();
  });

  it('GB2312, GBK-only and GB18030 characters declared as GB2312 all read right', () => {
    for (const name of ['大门口摄像机', '镕', '𠀀']) {
      const d = decodeBody(gb(body('GB2312', name)));
      expect(d.text).toContain(`<Name>${name}</Name>`);
      expect(d.readAs).toBe('GB18030');
    }
  });

  it('UTF-8 bytes under a GB2312 declaration (a common device lie) read as UTF-8', () => {
    const d = decodeBody(utf8(body('GB2312', '前门摄像头')));
    expect(d).toMatchObject({ readAs: 'UTF-8', declared: 'GB2312' });
    expect(d.text).toContain('前门摄像头');
  });

  it('GB bytes that happen to be valid UTF-8 (一 = D2 BB) stay GB', () => {
    expect(decodeBody(gb(body('GB2312', '一'))).text).toContain('<Name>一</Name>');
    expect(decodeBody(gb(body('GB2312', '一二三'))).text).toContain('<Name>一二三</Name>');
    // GBK EE 80 93 49 is valid UTF-8 too (U+E013, "I"): a Private Use character is no device's text
    expect([...encodeBody('顎揑', 'GB2312')]).toEqual([0xee, 0x80, 0x93, 0x49]);
    expect(decodeBody(gb(body('GB2312', '顎揑'))).text).toContain('<Name>顎揑</Name>');
  });

  it('GB bytes under a UTF-8 declaration (the other lie) read as GB18030', () => {
    const d = decodeBody(gb(body('UTF-8', '后门')));
    expect(d.readAs).toBe('GB18030');
    expect(d.text).toContain('后门');
  });

  it('no declaration: UTF-8 if it is, else GB', () => {
    expect(decodeBody(utf8('<a>中文</a>')).text).toBe('<a>中文</a>');
    expect(decodeBody(gb('<a>中文</a>')).text).toBe('<a>中文</a>');
  });

  it('another declared charset iconv-lite knows is honoured', () => {
    expect(decodeBody(new Uint8Array(iconv.encode(body('Big5', '監控'), 'big5'))).text).toContain('監控');
  });

  it('encodes GB2312 (GBK table), GB18030 and UTF-8', () => {
    expect([...encodeBody('中', 'GB2312')]).toEqual([0xd6, 0xd0]);
    expect([...encodeBody('𠀀', 'GB18030')]).toEqual([...iconv.encode('𠀀', 'gb18030')]);
    expect([...encodeBody('中', 'UTF-8')]).toEqual([0xe4, 0xb8, 0xad]);
  });
});

describe('reply charset', () => {
  it('answers UTF-8 devices in UTF-8 and everyone else in GB2312', () => {
    expect(replyEncoding('UTF-8')).toBe('UTF-8');
    expect(replyEncoding('GB18030')).toBe('GB2312');
    expect(replyEncoding('text')).toBe('GB2312');
  });
});
