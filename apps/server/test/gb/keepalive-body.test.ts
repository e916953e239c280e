/**
 * The keepalive fast path (src/gb/keepalive-body.ts) against the full MANSCDP decoder: the plain
 * bodies devices send are recognised, anything unusual is left to the decoder, and whenever the fast
 * path answers, the decoder reads the same body as a keepalive with the same SN and DeviceID
 * (property tests over generated keepalive-like bodies and random bytes).
 */
import fc from 'fast-check';
import { decodeManscdp } from '@opencvr/manscdp';
import { describe, expect, it } from 'vitest';
import { readPlainKeepalive } from '../../src/gb/keepalive-body.js';

const bytes = (s: string) => Buffer.from(s, 'latin1');
const DEV = '34020000001320000001';

/** The fast answer agrees with the decoder's whenever there is one. */
function agrees(body: Uint8Array): boolean {
  const fast = readPlainKeepalive(body);
  if (!fast) return false;
  const full = decodeManscdp(body);
  expect(full.ok).toBe(true);
  if (!full.ok) return false;
  expect(full.message.kind).toBe('keepalive');
  expect({ deviceId: full.message.deviceId, sn: full.message.sn }).toEqual(fast);
  return true;
}

describe('readPlainKeepalive', () => {
  it('reads the bodies devices send (Hikvision GB2312 with CRLF, Dahua one line, no declaration, Info self-closed)', () => {
    const bodies = [
      `<?xml version="1.0" encoding="GB2312"?>\r\n<Notify>\r\n<CmdType>Keepalive</CmdType>\r\n<SN>43</SN>\r\n<DeviceID>${DEV}</DeviceID>\r\n<Status>OK</Status>\r\n<Info>\r\n</Info>\r\n</Notify>\r\n`,
      `<?xml version="1.0" encoding="UTF-8"?><Notify><CmdType>Keepalive</CmdType><SN>7</SN><DeviceID>${DEV}</DeviceID><Status>OK</Status></Notify>`,
      `<Notify>\n  <CmdType>keepalive</CmdType>\n  <DeviceID>${DEV}</DeviceID>\n  <SN>0</SN>\n  <Status>OK</Status>\n  <Info/>\n</Notify>\n`,
    ];
    for (const b of bodies) {
      expect(readPlainKeepalive(bytes(b))).toEqual({ deviceId: DEV, sn: expect.any(Number) });
      agrees(bytes(b));
    }
  });

  it('leaves everything unusual to the full decoder', () => {
    const ok = (inner: string) => `<?xml version="1.0"?><Notify>${inner}</Notify>`;
    const base = `<CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID>`;
    const refused = [
      ok(`<CmdType>Catalog</CmdType><SN>1</SN><DeviceID>${DEV}</DeviceID>`),
      ok(`<CmdType>Keepalive</CmdType><SN>x</SN><DeviceID>${DEV}</DeviceID>`),
      ok(`<CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>3402</DeviceID>`),
      ok(`<CmdType>Keepalive</CmdType><SN></SN><SN>1</SN><DeviceID>${DEV}</DeviceID>`),
      ok(`<cmdtype>Keepalive</cmdtype><SN>1</SN><DeviceID>${DEV}</DeviceID>`),
      ok(`${base}<Info><DeviceID>${DEV}</DeviceID></Info>`),
      ok(`${base}<!-- comment -->`),
      ok(`${base}<Status>&amp;</Status>`),
      ok(`${base}<Status><![CDATA[OK]]></Status>`),
      `<!DOCTYPE Notify [<!ENTITY x "y">]><Notify>${base}</Notify>`,
      `<Notify a="1">${base}</Notify>`,
      `<Response>${base}</Response>`,
      `\ufeff<Notify>${base}</Notify>`,
      `<Notify>${base}<Status>正常</Status></Notify>`,
      `<Notify>${base}</Notify><Notify/>`,
      `<Notify>${base}<Status>${'x'.repeat(2000)}</Status></Notify>`,
    ];
    for (const b of refused) expect(readPlainKeepalive(Buffer.from(b, 'utf8')), b).toBeUndefined();
  });

  it('agrees with the full decoder on generated keepalive-like bodies', () => {
    const ws = fc.constantFrom('', ' ', '\r\n', '\n\t', '\x0b');
    const name = fc.constantFrom('CmdType', 'SN', 'DeviceID', 'Status', 'Info', 'cmdtype', 'Sn', 'Extra');
    const value = fc.oneof(
      fc.constantFrom('Keepalive', 'KEEPALIVE', 'Catalog', '1', '0042', '', ' 7 ', DEV, ` ${DEV} `, 'OK', 'x&y', '1e3', '99999999999999999'),
      fc.string({ maxLength: 12 }),
    );
    const element = fc.oneof(
      fc.tuple(name, value).map(([n, v]) => `<${n}>${v}</${n}>`),
      fc.constantFrom('<Info/>', '<Info></Info>', '<Info>\r\n</Info>', '<!-- c -->', '<Info><DeviceID>1</DeviceID></Info>'),
    );
    // The three fields a keepalive needs, mostly valid, among random others, in any order.
    const field = (n: string, good: string[], bad: string[]) =>
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) }).map((v) => `<${n}>${v}</${n}>`);
    const required = fc.tuple(
      field('CmdType', ['Keepalive', 'keepalive', ' Keepalive '], ['Catalog', '']),
      field('SN', ['1', '0042', ' 7 ', '123456789012345'], ['', 'x', '-1', '1234567890123456']),
      field('DeviceID', [DEV, ` ${DEV}\r\n`], ['3402', '', `${DEV}0`]),
    );
    const body = fc
      .tuple(
        fc.constantFrom('', '<?xml version="1.0" encoding="GB2312"?>', '<?xml version="1.0"?>\r\n'),
        fc.constantFrom('Notify', 'Notify', 'Notify', 'notify', 'Query'),
        required,
        fc.array(element, { maxLength: 4 }),
        fc.array(ws, { minLength: 8, maxLength: 8 }),
        fc.integer(),
      )
      .map(([decl, root, req, extra, spaces, seed]) => {
        const items = [...req, ...extra];
        // A seeded shuffle: the order of fields is free in MANSCDP.
        for (let i = items.length - 1, x = Math.abs(seed); i > 0; i--, x = Math.floor(x / 7) + i) {
          const j = x % (i + 1);
          [items[i], items[j]] = [items[j], items[i]];
        }
        return `${decl}<${root}>${items.map((e, i) => spaces[i % 8] + e).join('')}${spaces[7]}</${root}>`;
      });
    let recognised = 0;
    fc.assert(
      fc.property(body, (b) => {
        if (agrees(bytes(b))) recognised++;
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the accepted shape often enough for the agreement to mean something.
    expect(recognised).toBeGreaterThan(30);
  });

  it('never throws and agrees on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        agrees(b);
      }),
      { numRuns: 3000 },
    );
  });
});
