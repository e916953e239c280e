/** AMF0: a round-trip table with the exact bytes (AMF0 spec, section 2), then malformed input. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toHex } from '@opencvr/codec';
import { Amf0EcmaArray, Amf0Error, decodeAmf0, encodeAmf0, type Amf0Value } from '../src/index.js';

const cases: { name: string; value: Amf0Value; hex: string }[] = [
  { name: 'number 0', value: 0, hex: '000000000000000000' },
  { name: 'number 320', value: 320, hex: '004074000000000000' },
  { name: 'number -1.5', value: -1.5, hex: '00bff8000000000000' },
  { name: 'true', value: true, hex: '0101' },
  { name: 'false', value: false, hex: '0100' },
  { name: 'string', value: 'onMetaData', hex: '02000a6f6e4d65746144617461' },
  { name: 'empty string', value: '', hex: '020000' },
  { name: 'utf-8 string', value: '摄像机', hex: '020009e69184e5838fe69cba' },
  { name: 'null', value: null, hex: '05' },
  { name: 'undefined', value: undefined, hex: '06' },
  {
    name: 'object',
    value: { a: 1, b: 'x' },
    hex: '03' + '0001' + '61' + '003ff0000000000000' + '0001' + '62' + '02000178' + '000009',
  },
  { name: 'empty object', value: {}, hex: '03000009' },
  {
    name: 'ecma array',
    value: new Amf0EcmaArray({ width: 320, stereo: false }),
    hex: '08' + '00000002' + '0005' + '7769647468' + '004074000000000000' + '0006' + '73746572656f' + '0100' + '000009',
  },
  { name: 'strict array', value: [1, 'a'], hex: '0a' + '00000002' + '003ff0000000000000' + '02000161' },
  {
    name: 'nested',
    value: { o: { p: null } },
    hex: '03' + '0001' + '6f' + '03' + '0001' + '70' + '05' + '000009' + '000009',
  },
];

describe('amf0 round trip', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(toHex(encodeAmf0(c.value))).toBe(c.hex);
      expect(decodeAmf0(encodeAmf0(c.value))).toEqual([c.value]);
    });
  }

  it('a string past 65535 bytes is a long string (0x0c, 32-bit length)', () => {
    const s = 'x'.repeat(70000);
    const b = encodeAmf0(s);
    expect(b[0]).toBe(0x0c);
    expect(new DataView(b.buffer).getUint32(1)).toBe(70000);
    expect(decodeAmf0(b)).toEqual([s]);
  });

  it('several values in a row (script data: name, then value)', () => {
    expect(decodeAmf0(encodeAmf0('onMetaData', new Amf0EcmaArray({ duration: 0 })))).toEqual([
      'onMetaData',
      new Amf0EcmaArray({ duration: 0 }),
    ]);
  });

  it('a __proto__ key stays a plain property', () => {
    const [o] = decodeAmf0(Uint8Array.from([0x03, 0x00, 0x09, ...Buffer.from('__proto__'), 0x05, 0, 0, 9]));
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o as object)).toEqual(['__proto__']);
  });
});

describe('amf0 malformed input', () => {
  const bad: [string, number[]][] = [
    ['truncated number', [0x00, 1, 2]],
    ['truncated string', [0x02, 0x00, 0x05, 0x61]],
    ['unterminated object', [0x03, 0x00, 0x01, 0x61, 0x05]],
    ['reference marker', [0x07, 0x00, 0x01]],
    ['date marker', [0x0b]],
    ['strict array longer than the data', [0x0a, 0xff, 0xff, 0xff, 0xff]],
    ['invalid UTF-8', [0x02, 0x00, 0x01, 0xff]],
  ];
  for (const [name, bytes] of bad) it(name, () => expect(() => decodeAmf0(Uint8Array.from(bytes))).toThrow(Amf0Error));

  it('random bytes decode or fail with Amf0Error only', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        try {
          decodeAmf0(b);
        } catch (e) {
          expect(e).toBeInstanceOf(Amf0Error);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('random values round-trip', () => {
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.double({ noNaN: true }),
        fc.boolean(),
        fc.string(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((k) => k !== '__proto__'),
          tie('value'),
          { maxKeys: 4 },
        ),
      ),
    }));
    fc.assert(
      fc.property(value, (v) => {
        expect(decodeAmf0(encodeAmf0(v as Amf0Value))).toEqual([v]);
      }),
      { numRuns: 500 },
    );
  });
});
