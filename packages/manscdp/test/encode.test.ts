import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBody,
  decodeManscdp,
  encodeBody,
  type BodyEncoding,
  encodeAlarmNotify,
  encodeCatalogPages,
  gbSubject,
  encodeAlarmResponse,
  encodeAlarmSubscribe,
  encodeCatalogNotify,
  encodeCatalogQuery,
  encodeCatalogResponse,
  encodeConfigDownloadQuery,
  encodeDeviceControlResponse,
  encodeDeviceInfoQuery,
  encodeDeviceInfoResponse,
  encodeDeviceStatusQuery,
  encodeDeviceStatusResponse,
  encodeDragZoom,
  encodeGuardControl,
  encodeKeepalive,
  encodeMediaStatus,
  encodeMobilePosition,
  encodeMobilePositionSubscribe,
  encodePresetQuery,
  encodePresetQueryResponse,
  encodePtzCmd,
  encodePtzControl,
  encodeRecordControl,
  encodeRecordInfoQuery,
  encodeRecordInfoResponse,
  encodeResetAlarm,
  encodeTeleBoot,
  parseXml,
  type CatalogItem,
  type ManscdpBody,
  type ManscdpMessage,
} from '../src/index.js';

const q = { sn: 17, deviceId: '34020000001320000001' };
const text = (b: ManscdpBody) => b.text.replace(/\r\n/g, '\n');
const decoded = (b: ManscdpBody): ManscdpMessage => {
  const r = decodeManscdp(b.bytes);
  if (!r.ok) throw r.error;
  return r.message;
};

describe('platform → device bodies', () => {
  it('Catalog, DeviceInfo, DeviceStatus, PresetQuery queries', () => {
    expect(text(encodeCatalogQuery(q))).toBe(
      '<?xml version="1.0" encoding="GB2312"?>\n<Query>\n<CmdType>Catalog</CmdType>\n<SN>17</SN>\n<DeviceID>34020000001320000001</DeviceID>\n</Query>\n',
    );
    expect(text(encodeDeviceInfoQuery(q))).toContain('<CmdType>DeviceInfo</CmdType>');
    expect(text(encodeDeviceStatusQuery(q))).toContain('<CmdType>DeviceStatus</CmdType>');
    expect(text(encodePresetQuery(q, { encoding: 'UTF-8' }))).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<Query>\n<CmdType>PresetQuery<\/CmdType>/,
    );
    expect(encodeCatalogQuery(q).contentType).toBe('Application/MANSCDP+xml');
  });

  it('RecordInfo query as the Hikvision NVR capture had it', () => {
    const b = text(encodeRecordInfoQuery({ ...q, startTime: '2024-05-01T00:00:00', endTime: '2024-05-04T15:41:00' }));
    expect(b).toContain(
      '<StartTime>2024-05-01T00:00:00</StartTime>\n<EndTime>2024-05-04T15:41:00</EndTime>\n<Secrecy>0</Secrecy>\n<Type>all</Type>',
    );
    expect(() =>
      encodeRecordInfoQuery({ ...q, startTime: '2024-05-02T00:00:00', endTime: '2024-05-01T00:00:00' }),
    ).toThrow(/not before/);
    expect(() => encodeRecordInfoQuery({ ...q, startTime: '2024/05/01', endTime: '2024-05-04T15:41:00' })).toThrow(
      /YYYY-MM-DDTHH:MM:SS/,
    );
  });

  it('ConfigDownload and the SUBSCRIBE bodies', () => {
    expect(text(encodeConfigDownloadQuery({ ...q, configTypes: ['BasicParam', 'VideoParamOpt'] }))).toContain(
      '<ConfigType>BasicParam/VideoParamOpt</ConfigType>',
    );
    expect(text(encodeAlarmSubscribe(q))).toContain(
      '<StartAlarmPriority>0</StartAlarmPriority>\n<EndAlarmPriority>0</EndAlarmPriority>\n<AlarmMethod>0</AlarmMethod>',
    );
    expect(text(encodeMobilePositionSubscribe({ ...q, interval: 10 }))).toContain(
      '<CmdType>MobilePosition</CmdType>\n<SN>17</SN>\n<DeviceID>34020000001320000001</DeviceID>\n<Interval>10</Interval>',
    );
    expect(() => encodeAlarmSubscribe({ ...q, alarmMethod: '1;2' })).toThrow(/AlarmMethod/);
  });

  it('DeviceControl commands', () => {
    expect(text(encodePtzControl({ ...q, ptzCmd: encodePtzCmd({ type: 'stop' }), controlPriority: 5 }))).toContain(
      '<CmdType>DeviceControl</CmdType>\n<SN>17</SN>\n<DeviceID>34020000001320000001</DeviceID>\n<PTZCmd>A50F0100000000B5</PTZCmd>\n<Info>\n<ControlPriority>5</ControlPriority>\n</Info>\n</Control>',
    );
    expect(() => encodePtzControl({ ...q, ptzCmd: 'A50F0100000000B6' })).toThrow(/checksum/);
    expect(text(encodeTeleBoot(q))).toContain('<TeleBoot>Boot</TeleBoot>');
    expect(text(encodeGuardControl({ ...q, guard: 'SetGuard' }))).toContain('<GuardCmd>SetGuard</GuardCmd>');
    expect(text(encodeResetAlarm({ ...q, alarmMethod: 2, alarmType: 1 }))).toContain(
      '<AlarmCmd>ResetAlarm</AlarmCmd>\n<Info>\n<AlarmMethod>2</AlarmMethod>\n<AlarmType>1</AlarmType>\n</Info>',
    );
    expect(text(encodeRecordControl({ ...q, record: 'StopRecord' }))).toContain('<RecordCmd>StopRecord</RecordCmd>');
    expect(
      text(
        encodeDragZoom({
          ...q,
          direction: 'in',
          zoom: { length: 1920, width: 1080, midPointX: 960, midPointY: 540, lengthX: 200, lengthY: 100 },
        }),
      ),
    ).toContain(
      '<DragZoomIn>\n<Length>1920</Length>\n<Width>1080</Width>\n<MidPointX>960</MidPointX>\n<MidPointY>540</MidPointY>\n<LengthX>200</LengthX>\n<LengthY>100</LengthY>\n</DragZoomIn>',
    );
    expect(() =>
      encodeDragZoom({
        ...q,
        direction: 'out',
        zoom: { length: 100, width: 100, midPointX: 101, midPointY: 1, lengthX: 1, lengthY: 1 },
      }),
    ).toThrow(/MidPointX/);
    expect(text(encodeAlarmResponse(q))).toContain(
      '<Response>\n<CmdType>Alarm</CmdType>\n<SN>17</SN>\n<DeviceID>34020000001320000001</DeviceID>\n<Result>OK</Result>',
    );
  });

  it('validates the header', () => {
    expect(() => encodeCatalogQuery({ sn: 1, deviceId: '123' })).toThrow(/20-digit/);
    expect(() => encodeCatalogQuery({ sn: -1, deviceId: q.deviceId })).toThrow(/SN/);
  });

  it('escapes text and writes GB2312 bytes for Chinese', () => {
    const b = encodeCatalogResponse({
      ...q,
      sumNum: 1,
      items: [{ deviceId: '34020000001310000001', name: '大门 <东> & "北"', info: {} }],
    });
    expect(b.text).toContain('<Name>大门 &lt;东&gt; &amp; &quot;北&quot;</Name>');
    expect(b.bytes.length).toBeLessThan(new TextEncoder().encode(b.text).length);
    expect(decodeBody(b.bytes).text).toBe(b.text);
  });
});

describe('device → platform bodies round-trip through the decoders', () => {
  it('keepalive, device info, device status, preset list, control response, media status', () => {
    expect(decoded(encodeKeepalive({ ...q, faultyDeviceIds: ['34020000001310000009'] }))).toMatchObject({
      kind: 'keepalive',
      ok: true,
      faultyDeviceIds: ['34020000001310000009'],
    });
    expect(
      decoded(
        encodeDeviceInfoResponse({
          ...q,
          deviceName: '门口',
          manufacturer: 'Hikvision',
          model: 'DS-2CD',
          firmware: 'V5.5',
          channel: 4,
        }),
      ),
    ).toMatchObject({
      kind: 'device-info',
      deviceName: '门口',
      channel: 4,
      ok: true,
    });
    expect(
      decoded(
        encodeDeviceStatusResponse({
          ...q,
          online: true,
          encode: true,
          record: false,
          deviceTime: '2024-01-02T03:04:05',
          alarmStatus: [{ deviceId: '34020000001340000001', dutyStatus: 'ALARM' }],
        }),
      ),
    ).toMatchObject({
      kind: 'device-status',
      online: true,
      encode: true,
      record: false,
      alarmStatus: [{ dutyStatus: 'ALARM' }],
    });
    expect(
      decoded(encodePresetQueryResponse({ ...q, presets: [{ presetId: 1, presetName: '门' }, { presetId: 2 }] })),
    ).toMatchObject({
      kind: 'preset-query',
      listNum: 2,
      presets: [{ presetId: 1, presetName: '门' }, { presetId: 2 }],
    });
    expect(decoded(encodeDeviceControlResponse({ ...q, result: 'ERROR' }))).toMatchObject({
      kind: 'device-control',
      ok: false,
    });
    expect(decoded(encodeMediaStatus(q))).toMatchObject({ kind: 'media-status', notifyType: 121 });
  });

  it('alarm and mobile position', () => {
    const alarm = {
      ...q,
      alarmPriority: 1,
      alarmMethod: 5,
      alarmTime: '2024-05-17T14:00:00',
      alarmDescription: '区域入侵',
      longitude: 117.28,
      latitude: 31.86,
      alarmType: 2,
      eventType: 1,
    };
    expect(decoded(encodeAlarmNotify(alarm))).toEqual({ root: 'Notify', cmdType: 'Alarm', kind: 'alarm', ...alarm });
    const pos = {
      ...q,
      time: '2024-05-17T14:00:01',
      longitude: 117.1,
      latitude: -31.5,
      speed: 40.5,
      direction: 270,
      altitude: 12,
    };
    expect(decoded(encodeMobilePosition(pos))).toEqual({
      root: 'Notify',
      cmdType: 'MobilePosition',
      kind: 'mobile-position',
      ...pos,
    });
  });

  // The literal 'null' reads as absent (Java platforms write it for missing values).
  const notNull = (s: string) => (s.toLowerCase() === 'null' ? 'x' : s);
  const gbText = fc
    .string({ minLength: 1, maxLength: 20 })
    .map((s) => s.replace(/[\u0000-\u001f\ud800-\udfff]/g, '').trim() || 'x');
  const chinese = fc
    .array(fc.integer({ min: 0x4e00, max: 0x9fa5 }), { minLength: 1, maxLength: 8 })
    .map((cs) => String.fromCharCode(...cs));
  const catalogItem = fc.record({
    deviceId: fc.stringMatching(/^\d{20}$/),
    name: fc.oneof(gbText, chinese).map(notNull),
    manufacturer: fc.constantFrom('Hikvision', 'Dahua', 'Uniview', 'Huawei', '海康威视'),
    parental: fc.constantFrom(0, 1),
    parentId: fc.stringMatching(/^\d{20}$/),
    status: fc.constantFrom('ON', 'OFF'),
    // -0 is written as 0: compare numbers, not signs of zero.
    longitude: fc.double({ min: -180, max: 180, noNaN: true }).map((v) => v + 0),
    latitude: fc.double({ min: -90, max: 90, noNaN: true }).map((v) => v + 0),
    ptzType: fc.integer({ min: 1, max: 4 }),
    port: fc.integer({ min: 1, max: 65535 }),
    event: fc.constantFrom('ON', 'OFF', 'VLOST', 'DEFECT', 'ADD', 'DEL', 'UPDATE'),
  });

  // GB bytes that are valid UTF-8 as well can mean either text: the decoder's rule for them
  // (charset.ts, rule 3) has examples of its own in charset.test.ts; this property keeps to bodies
  // whose bytes are unambiguous.
  const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  const alsoUtf8 = (text: string, encoding: BodyEncoding) => {
    if (encoding === 'UTF-8' || !/[^\x00-\x7f]/.test(text)) return false;
    try {
      strictUtf8.decode(encodeBody(text, encoding));
      return true;
    } catch {
      return false;
    }
  };

  it('property: catalog pages and notifies survive encode → bytes (GB2312, GB18030, UTF-8) → decode', () => {
    fc.assert(
      fc.property(
        fc.array(catalogItem, { maxLength: 6 }),
        fc.constantFrom('GB2312' as const, 'GB18030' as const, 'UTF-8' as const),
        (items, encoding) => {
          fc.pre(!items.some((i) => alsoUtf8(i.name, encoding) || alsoUtf8(i.manufacturer, encoding)));
          const plain = items.map(({ event: _event, ...rest }) => ({ ...rest, info: {} }));
          const page = decoded(encodeCatalogResponse({ ...q, sumNum: 100, items: plain }, { encoding }));
          if (page.kind !== 'catalog') throw new Error(page.kind);
          expect(page.rejected).toEqual([]);
          page.items.forEach((got: CatalogItem, i) => {
            const want = plain[i];
            expect(got).toMatchObject({
              ...want,
              info: { PTZType: String(want.ptzType) },
              online: want.status === 'ON',
            });
          });
          const notify = decoded(
            encodeCatalogNotify({ ...q, items: items.map((i) => ({ ...i, info: {} })) }, { encoding }),
          );
          if (notify.kind !== 'catalog-notify') throw new Error(notify.kind);
          expect(notify.items.map((i) => i.event)).toEqual(items.map((i) => i.event));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: record info pages round-trip', () => {
    const time = fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 19));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(time, fc.integer({ min: 0, max: 86400 }), fc.constantFrom('time', 'alarm', 'manual')), {
          maxLength: 5,
        }),
        (recs) => {
          const items = recs.map(([start, , type]) => ({
            deviceId: q.deviceId,
            startTime: start,
            endTime: start,
            type,
            filePath: `f-${start}`,
            fileSize: 1024,
          }));
          const m = decoded(encodeRecordInfoResponse({ ...q, sumNum: items.length, items }));
          if (m.kind !== 'record-info') throw new Error(m.kind);
          expect(m.items).toEqual(
            items.map((i) => ({
              ...i,
              name: undefined,
              address: undefined,
              secrecy: undefined,
              recorderId: undefined,
              streamNumber: undefined,
            })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('what the writer produces is always parseable XML', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const clean = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff]/g, '');
        const b = encodeDeviceInfoResponse({ ...q, deviceName: clean || 'x' }, { encoding: 'UTF-8' });
        expect(parseXml(b.text).name).toBe('Response');
      }),
      { numRuns: 500 },
    );
  });
});

describe('platform bodies decode on the device side (for test doubles)', () => {
  it('queries', () => {
    expect(decoded(encodeCatalogQuery(q))).toMatchObject({ root: 'Query', kind: 'query', cmdType: 'Catalog', sn: 17 });
    expect(
      decoded(
        encodeRecordInfoQuery({
          ...q,
          startTime: '2024-05-01T00:00:00',
          endTime: '2024-05-04T15:41:00',
          type: 'alarm',
        }),
      ),
    ).toMatchObject({
      kind: 'query',
      cmdType: 'RecordInfo',
      startTime: '2024-05-01T00:00:00',
      endTime: '2024-05-04T15:41:00',
      type: 'alarm',
      secrecy: 0,
    });
    expect(decoded(encodeMobilePositionSubscribe({ ...q, interval: 10 }))).toMatchObject({
      kind: 'query',
      interval: 10,
    });
    expect(decoded(encodeConfigDownloadQuery({ ...q, configTypes: ['BasicParam', 'VideoParamOpt'] }))).toMatchObject({
      configTypes: ['BasicParam', 'VideoParamOpt'],
    });
    expect(
      decoded(encodeAlarmSubscribe({ ...q, alarmMethod: '2/5', startAlarmTime: '2024-01-01T00:00:00' })),
    ).toMatchObject({ alarmMethod: '2/5', startTime: '2024-01-01T00:00:00', startAlarmPriority: 0 });
  });

  it('controls, with the PTZ action decoded', () => {
    expect(
      decoded(
        encodePtzControl({ ...q, ptzCmd: encodePtzCmd({ type: 'preset', op: 'goto', preset: 7 }), controlPriority: 5 }),
      ),
    ).toMatchObject({
      kind: 'control',
      ptz: { type: 'preset', op: 'goto', preset: 7 },
      controlPriority: 5,
    });
    expect(decoded(encodeTeleBoot(q))).toMatchObject({ kind: 'control', teleBoot: true });
    expect(decoded(encodeGuardControl({ ...q, guard: 'ResetGuard' }))).toMatchObject({ guardCmd: 'ResetGuard' });
    expect(decoded(encodeResetAlarm(q))).toMatchObject({ alarmCmd: 'ResetAlarm' });
    expect(decoded(encodeRecordControl({ ...q, record: 'Record' }))).toMatchObject({ recordCmd: 'Record' });
    expect(
      decoded(
        encodeDragZoom({
          ...q,
          direction: 'out',
          zoom: { length: 1920, width: 1080, midPointX: 10, midPointY: 20, lengthX: 30, lengthY: 40 },
        }),
      ),
    ).toMatchObject({
      dragZoomOut: { length: 1920, width: 1080, midPointX: 10, midPointY: 20, lengthX: 30, lengthY: 40 },
    });
  });

  it('a control with a broken PTZCmd is refused with the reason', () => {
    const r = decodeManscdp(
      encodeTeleBoot(q).text.replace('<TeleBoot>Boot</TeleBoot>', '<PTZCmd>A50F0100000000B6</PTZCmd>'),
    );
    expect(r.ok ? 'accepted' : r.error.message).toMatch(/checksum/);
  });
});

describe('catalog pages and the INVITE subject', () => {
  const items = Array.from({ length: 25 }, (_, i) => ({
    deviceId: `340200000013100000${String(i).padStart(2, '0')}`,
    name: `通道${i}`,
    info: {},
  }));

  it('pages by count, and by bytes under the 1300-byte UDP limit', () => {
    expect(encodeCatalogPages({ ...q, items, perPage: 10 }).map((p) => decoded(p))).toHaveLength(3);
    const pages = encodeCatalogPages({ ...q, items, maxBytes: 1300 });
    expect(pages.every((p) => p.bytes.length <= 1300)).toBe(true);
    const got = pages.flatMap((p) => {
      const m = decoded(p);
      return m.kind === 'catalog' ? m.items.map((i) => i.deviceId) : [];
    });
    expect(got).toEqual(items.map((i) => i.deviceId));
    expect(encodeCatalogPages({ ...q, items: [] })).toHaveLength(1);
  });

  it('Subject: channel:ssrc,platform:0', () => {
    expect(
      gbSubject({ channelId: '34020000001310000001', ssrc: '0200000001', platformId: '34020000002000000001' }),
    ).toBe('34020000001310000001:0200000001,34020000002000000001:0');
    expect(() => gbSubject({ channelId: '1', ssrc: '0200000001', platformId: '34020000002000000001' })).toThrow(
      /20-digit/,
    );
  });
});
