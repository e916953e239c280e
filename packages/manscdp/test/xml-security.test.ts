import { describe, expect, it } from 'vitest';
import { decodeManscdp, ManscdpError, parseXml } from '../src/index.js';

const refused = (text: string) => {
  let err: unknown;
  try {
    parseXml(text);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ManscdpError);
  expect((err as ManscdpError).code).toBe('forbidden-dtd');
  expect((err as ManscdpError).message).toMatch(/DOCTYPE and ENTITY declarations are refused/);
};

describe('XML entity attacks are refused', () => {
  it('external entity (XXE)', () => {
    refused(
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Notify><CmdType>&x;</CmdType></Notify>',
    );
  });

  it('billion laughs', () => {
    const lol = ['<!ENTITY lol "lol">'];
    for (let i = 1; i < 10; i++) lol.push(`<!ENTITY lol${i} "${`&lol${i - 1 || ''};`.repeat(10)}">`);
    refused(`<?xml version="1.0"?><!DOCTYPE lolz [${lol.join('')}]><Notify><CmdType>&lol9;</CmdType></Notify>`);
  });

  it('a bare DOCTYPE, any case and spacing', () => {
    refused('<!doctype Notify><Notify/>');
    refused('<! DOCTYPE Notify SYSTEM "http://example.invalid/x.dtd"><Notify/>');
  });

  it('an ENTITY declaration outside a DOCTYPE', () => {
    refused('<Notify><!ENTITY a "b"></Notify>');
  });

  it('decodeManscdp answers the same refusal as a result', () => {
    const r = decodeManscdp(
      new TextEncoder().encode('<!DOCTYPE x [<!ENTITY a SYSTEM "http://x">]><Notify>&a;</Notify>'),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('forbidden-dtd');
  });

  it('predefined and numeric references still work', () => {
    expect(parseXml('<a><b>x &amp; y &lt; &#20013;&#x6587;</b></a>').children[0].text).toBe('x & y < 中文');
  });

  it('a body over the size limit is refused before parsing', () => {
    expect(() => parseXml(`<a>${'x'.repeat(1024 * 1024 + 1)}</a>`)).toThrow(/over the .* limit/);
  });

  it('deep nesting is refused', () => {
    expect(() => parseXml(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`)).toThrow(ManscdpError);
  });
});
