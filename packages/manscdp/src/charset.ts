/**
 * MANSCDP bodies travel as bytes in whatever the XML declaration says: GB2312 (most devices, and the
 * standard's default), GBK, GB18030 or UTF-8. Devices lie in both directions, so decoding is:
 *   1. a UTF-8 BOM wins;
 *   2. declared UTF-8 (or another non-GB charset) and strictly valid UTF-8: UTF-8;
 *   3. declared GB (or nothing declared) but the bytes are strictly valid UTF-8 and every non-ASCII
 *      character is a 3- or 4-byte sequence (CJK text in UTF-8 is all 3-byte) outside the Private
 *      Use Area: UTF-8. GB text is rarely valid UTF-8 at all, and when it is it reads as 2-byte
 *      sequences (一 = D2 BB: U+0080-U+07FF, Cyrillic and the like) or, from a GB lead byte EE or
 *      EF, as Private Use characters (顎揑 in GBK = EE 80 93 49: U+E013 and "I"), which no device
 *      sends as UTF-8 text; this rule turns both away. Bytes that read as ordinary text both ways
 *      remain ambiguous, and UTF-8 wins;
 *   4. otherwise GB18030, a superset of GB2312 and GBK, so a device saying GB2312 while sending
 *      GBK-only characters still reads right (or the declared charset when iconv-lite knows it).
 */
import iconv from 'iconv-lite';

export type BodyEncoding = 'GB2312' | 'GB18030' | 'UTF-8';

export interface DecodedBody {
  text: string;
  /** What the bytes were read as ('UTF-8', 'GB18030', or another iconv-lite name from the declaration). */
  readAs: string;
  /** The declaration's encoding as written, if any. */
  declared?: string;
}

const DECLARATION = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/;
const GB_FAMILY = new Set([
  'gb2312',
  'gbk',
  'gb18030',
  'cp936',
  'euc-cn',
  'x-gbk',
  'gb_2312-80',
  'csgb2312',
  'hz-gb-2312',
]);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The encoding named by the XML declaration at the start of the body (read as ASCII), if any. */
export function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, 256);
  let ascii = '';
  for (const b of head) ascii += b < 0x80 ? String.fromCharCode(b) : '?';
  const m = DECLARATION.exec(ascii.replace(/^\?+/, '')); // a BOM reads as '?'s
  return m?.[1];
}

function hasNonAscii(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b >= 0x80) return true;
  return false;
}

/**
 * True when no character of the text is in U+0080-U+07FF (what a 2-byte UTF-8 sequence encodes) or
 * in the Private Use Area U+E000-U+F8FF: what GB bytes read as UTF-8 turn into (rule 3 above).
 */
function plausibleUtf8Text(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x80 && c < 0x800) || (c >= 0xe000 && c <= 0xf8ff)) return false;
  }
  return true;
}

function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Bytes of a MANSCDP body to text; never throws (undecodable bytes become U+FFFD). */
export function decodeBody(bytes: Uint8Array): DecodedBody {
  const declared = declaredEncoding(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), readAs: 'UTF-8', declared };
  }
  if (!hasNonAscii(bytes))
    return { text: new TextDecoder('latin1').decode(bytes), readAs: declared ?? 'UTF-8', declared };
  const name = declared?.toLowerCase();
  const gbDeclared = name === undefined || GB_FAMILY.has(name);
  const asUtf8 = strictUtf8(bytes);
  if (asUtf8 !== undefined && (!gbDeclared || plausibleUtf8Text(asUtf8)))
    return { text: asUtf8, readAs: 'UTF-8', declared };
  if (name && !gbDeclared && name !== 'utf-8' && name !== 'utf8' && iconv.encodingExists(name)) {
    return {
      text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), name),
      readAs: name,
      declared,
    };
  }
  return {
    text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), 'gb18030'),
    readAs: 'GB18030',
    declared,
  };
}

/**
 * Text to bytes in the given charset. GB2312 is written with the GBK table (iconv-lite's cp936), the
 * superset every device that says GB2312 actually reads; a character outside it would become '?', so
 * GB18030 is the choice for names that may hold rare characters.
 */
export function encodeBody(text: string, encoding: BodyEncoding): Uint8Array {
  if (encoding === 'UTF-8') return new TextEncoder().encode(text);
  const buf = iconv.encode(text, encoding === 'GB2312' ? 'gbk' : 'gb18030');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
}

/** The charset to answer a device in, from what its body was read as: UTF-8 stays UTF-8, anything else GB2312. */
export function replyEncoding(readAs: string): BodyEncoding {
  return readAs.toUpperCase() === 'UTF-8' ? 'UTF-8' : 'GB2312';
}
