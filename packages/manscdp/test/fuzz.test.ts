/**
 * Fuzz: whatever bytes or text arrive in a MESSAGE body, decoding ends with a message or a
 * ManscdpError, never another exception and never a hang (each run is bounded by the test time-out).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeManscdp, ManscdpError, parseManscdp, peekHeader } from '../src/index.js';
import { fixture } from './fixtures.js';

function onlyTypedErrors(body: Uint8Array | string): void {
  try {
    parseManscdp(body);
  } catch (e) {
    if (!(e instanceof ManscdpError)) throw e;
  }
  const r = decodeManscdp(body);
  if (!r.ok) expect(r.error).toBeInstanceOf(ManscdpError);
  peekHeader(body);
}

const TAGS = [
  'Notify',
  'Response',
  'Query',
  'Control',
  'CmdType',
  'SN',
  'DeviceID',
  'SumNum',
  'DeviceList',
  'Item',
  'Info',
  'Name',
  'Status',
  'Event',
  'RecordList',
  'StartTime',
  'EndTime',
  'Longitude',
  'Alarmstatus',
  'PresetList',
  'PresetID',
  'BasicParam',
];
const VALUES = [
  'Keepalive',
  'Catalog',
  'DeviceInfo',
  'DeviceStatus',
  'RecordInfo',
  'Alarm',
  'MobilePosition',
  'MediaStatus',
  'PresetQuery',
  'DeviceControl',
  'ConfigDownload',
  '34020000001320000001',
  '1',
  '-1',
  '99999999999999999999',
  'ON',
  'ADD',
  '2024-05-04T14:43:16',
  '中文',
  '&amp;',
  '&#x4E2D;',
  '&#0;',
  '&bogus;',
  ']]>',
  '<![CDATA[x]]>',
  '<!-- c -->',
  '<?pi x?>',
];

/** XML-ish text: well-formed-looking trees mixed with broken fragments. */
const xmlish: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...VALUES),
    fc.string({ maxLength: 12 }),
    fc
      .tuple(
        fc.constantFrom(...TAGS),
        fc.array(tie('node'), { maxLength: 5 }),
        fc.constantFrom('', ' Num="2"', ' Num="x"', ' a', '/'),
      )
      .map(([t, kids, attr]) => (attr === '/' ? `<${t}/>` : `<${t}${attr}>${kids.join('')}</${t}>`)),
    fc.constantFrom(
      '<',
      '>',
      '</',
      '<Item>',
      '</Item>',
      '<?xml version="1.0" encoding="GB2312"?>',
      '<?xml encoding="utf-8"?>',
      '\u0000',
      '\r\n',
    ),
  ),
})).node;

describe('decoder fuzz', () => {
  it('random bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2048 }), onlyTypedErrors), { numRuns: 1000 });
  });

  it('random XML-ish text, as text and as GB18030/UTF-8 bytes', () => {
    fc.assert(
      fc.property(xmlish, fc.boolean(), (s, asBytes) => {
        onlyTypedErrors(asBytes ? new TextEncoder().encode(s) : s);
      }),
      { numRuns: 1000 },
    );
  });

  it('well-formed messages with random field values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Notify', 'Response'),
        fc.constantFrom(
          'Keepalive',
          'Catalog',
          'DeviceInfo',
          'DeviceStatus',
          'RecordInfo',
          'Alarm',
          'MobilePosition',
          'MediaStatus',
          'PresetQuery',
          'DeviceControl',
          'ConfigDownload',
        ),
        fc.array(
          fc.tuple(
            fc.constantFrom(
              ...TAGS,
              'AlarmPriority',
              'Speed',
              'Latitude',
              'Parental',
              'Port',
              'FileSize',
              'DutyStatus',
              'Online',
            ),
            fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 30 })),
          ),
          { maxLength: 12 },
        ),
        (root, cmd, fields) => {
          const inner = fields.map(([t, v]) => `<${t}>${v.replace(/[<&]/g, '')}</${t}>`).join('');
          const items = `<DeviceList Num="1"><Item>${inner}</Item></DeviceList><RecordList><Item>${inner}</Item></RecordList>`;
          onlyTypedErrors(
            `<${root}><CmdType>${cmd}</CmdType><SN>1</SN><DeviceID>34020000001320000001</DeviceID><SumNum>1</SumNum>${inner}${items}</${root}>`,
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('real bodies with random bytes changed', () => {
    const bodies = [
      'dahua-sd-catalog.xml',
      'dahua-sd-devicestatus.xml',
      'hikvision-nvr-recordinfo.xml',
      'android-catalog-gb2312.xml',
    ].map(fixture);
    fc.assert(
      fc.property(
        fc.nat(bodies.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (which, edits) => {
          const b = Uint8Array.from(bodies[which]);
          for (const [at, v] of edits) b[at % b.length] = v;
          onlyTypedErrors(b);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
