import { describe, expect, it } from 'vitest';
import { decodeManscdp, parseManscdp, peekHeader, type ManscdpMessage } from '../src/index.js';
import { fixture } from './fixtures.js';

function decoded(name: string): ManscdpMessage {
  const r = decodeManscdp(fixture(name));
  if (!r.ok) throw r.error;
  return r.message;
}

describe('real device bodies', () => {
  it('Dahua dome keepalive', () => {
    expect(decoded('dahua-sd-keepalive.xml')).toEqual({
      root: 'Notify',
      cmdType: 'Keepalive',
      sn: 539,
      deviceId: '34020000001320000002',
      kind: 'keepalive',
      status: 'OK',
      ok: true,
      faultyDeviceIds: [],
    });
  });

  it('keepalive with an empty Info', () => {
    const m = decoded('ipc-keepalive-empty-info.xml');
    expect(m.kind).toBe('keepalive');
    if (m.kind === 'keepalive') expect(m.faultyDeviceIds).toEqual([]);
  });

  it('Dahua dome catalog page: fields, Info, PTZType 3', () => {
    const m = decoded('dahua-sd-catalog.xml');
    expect(m.kind).toBe('catalog');
    if (m.kind !== 'catalog') return;
    expect(m.sn).toBe(7);
    expect(m.sumNum).toBe(1);
    expect(m.listNum).toBe(1);
    expect(m.rejected).toEqual([]);
    expect(m.items).toHaveLength(1);
    expect(m.items[0]).toMatchObject({
      deviceId: '34020000001310000001',
      typeCode: 131,
      name: 'DH71',
      manufacturer: 'Dahua',
      model: 'DH-SD-6C3230UE-HN',
      owner: '0',
      civilCode: '340200',
      address: 'axy',
      parental: 0,
      parentId: '34020000001320000002',
      registerWay: 1,
      secrecy: 0,
      status: 'ON',
      online: true,
      ptzType: 3,
      downloadSpeed: '1/2/4/8',
      info: { PTZType: '3', DownloadSpeed: '1/2/4/8' },
    });
  });

  it('Dahua dome device info', () => {
    expect(decoded('dahua-sd-deviceinfo.xml')).toMatchObject({
      kind: 'device-info',
      ok: true,
      deviceName: 'DH-SD-6C3230UE-HN',
      manufacturer: 'Dahua',
      model: 'DH-SD-6C3230UE-HN',
      firmware: '2.623.0000000.17.R,2019-01-19',
      channel: 1,
      maxCamera: 1,
      maxAlarm: 2,
    });
  });

  it('Dahua dome device status with Alarmstatus', () => {
    expect(decoded('dahua-sd-devicestatus.xml')).toMatchObject({
      kind: 'device-status',
      ok: true,
      online: true,
      status: 'OK',
      encode: true,
      record: false,
      deviceTime: '2024-05-17T14:24:54',
      alarmStatus: [
        { deviceId: '34020000001340000001', dutyStatus: 'ONDUTY' },
        { deviceId: '34020000001340000002', dutyStatus: 'ONDUTY' },
      ],
    });
  });

  it('Hikvision NVR record info (gb2312 in lower case)', () => {
    const m = decoded('hikvision-nvr-recordinfo.xml');
    expect(m.kind).toBe('record-info');
    if (m.kind !== 'record-info') return;
    expect(m.sumNum).toBe(2);
    expect(m.name).toBe('IPCamera 01');
    expect(m.items.map((i) => [i.startTime, i.endTime, i.type, i.filePath])).toEqual([
      ['2024-05-04T14:43:16', '2024-05-04T15:16:26', 'time', '1714804996_1714806986'],
      ['2024-05-04T15:16:26', '2024-05-04T15:49:37', 'time', '1714806986_1714808977'],
    ]);
  });

  it('GB2312 catalog with Chinese names', () => {
    const r = parseManscdp(fixture('android-catalog-gb2312.xml'));
    expect(r.readAs).toBe('GB18030');
    const m = r.message;
    if (m.kind !== 'catalog') throw new Error(m.kind);
    expect(m.items[0]).toMatchObject({
      name: '设备11111',
      manufacturer: '设备厂家111',
      model: '设备型号1111',
      address: '地址111222',
      typeCode: 138,
    });
  });
});

describe('validation', () => {
  const body = (inner: string, root = 'Notify') => `<?xml version="1.0"?><${root}>${inner}</${root}>`;
  const error = (b: string) => {
    const r = decodeManscdp(b);
    expect(r.ok).toBe(false);
    return r.ok ? undefined : r.error;
  };

  it('refuses a DeviceID that is not 20 digits', () => {
    expect(
      error(body('<CmdType>Keepalive</CmdType><SN>1</SN><DeviceID>3402000000132000000</DeviceID>'))?.message,
    ).toMatch(/DeviceID.*20-digit/);
  });

  it('refuses a missing or non-integer SN', () => {
    expect(error(body('<CmdType>Keepalive</CmdType><DeviceID>34020000001320000002</DeviceID>'))?.message).toMatch(
      /<SN> is missing/,
    );
    expect(error(body('<CmdType>Keepalive</CmdType><SN>1a</SN><DeviceID>34020000001320000002</DeviceID>'))?.code).toBe(
      'bad-field',
    );
  });

  it('refuses a catalog response without SumNum', () => {
    expect(
      error(body('<CmdType>Catalog</CmdType><SN>1</SN><DeviceID>34020000001320000002</DeviceID>', 'Response'))?.message,
    ).toMatch(/SumNum/);
  });

  it('refuses an unknown root', () => {
    expect(error('<Foo><CmdType>Keepalive</CmdType></Foo>')?.code).toBe('bad-root');
  });

  it('keeps the good items of a page and reports the bad ones', () => {
    const r = decodeManscdp(
      body(
        '<CmdType>Catalog</CmdType><SN>3</SN><DeviceID>34020000001320000002</DeviceID><SumNum>3</SumNum><DeviceList Num="3">' +
          '<Item><DeviceID>34020000001310000001</DeviceID><Event>ADD</Event></Item>' +
          '<Item><DeviceID>x</DeviceID></Item>' +
          '<Item><DeviceID>34020000001310000003</DeviceID><Event>EXPLODE</Event></Item>' +
          '</DeviceList>',
      ),
    );
    expect(r.ok).toBe(true);
    if (!r.ok || r.message.kind !== 'catalog-notify') throw new Error('not a catalog notify');
    expect(r.message.items.map((i) => [i.deviceId, i.event])).toEqual([['34020000001310000001', 'ADD']]);
    expect(r.message.rejected.map((x) => x.index)).toEqual([1, 2]);
    expect(r.message.rejected[1].reason).toMatch(/Event/);
  });

  it('accepts civil-code directories as catalog items', () => {
    const r = decodeManscdp(
      body(
        '<CmdType>Catalog</CmdType><SN>3</SN><DeviceID>34020000001320000002</DeviceID><SumNum>1</SumNum><DeviceList><Item><DeviceID>340200</DeviceID><Name>合肥</Name></Item></DeviceList>',
        'Response',
      ),
    );
    if (!r.ok || r.message.kind !== 'catalog') throw new Error('not a catalog');
    expect(r.message.items[0]).toMatchObject({ deviceId: '340200', name: '合肥', typeCode: undefined });
  });

  it('an unknown command is "other" with its tree', () => {
    const r = decodeManscdp(
      body(
        '<CmdType>Broadcast</CmdType><SN>3</SN><DeviceID>34020000001320000002</DeviceID><Result>OK</Result>',
        'Response',
      ),
    );
    if (!r.ok) throw r.error;
    expect(r.message.kind).toBe('other');
  });
});

describe('the standard examples (not devices: see fixtures/README.md)', () => {
  it('alarm notify', () => {
    expect(decoded('standard-alarm-notify.xml')).toMatchObject({
      kind: 'alarm',
      deviceId: '64010000001340000001',
      alarmPriority: 4,
      alarmMethod: 2,
      alarmTime: '2009-12-04T16:23:32',
      alarmDescription: '警情描述',
      longitude: 171.3,
      latitude: 34.2,
      alarmType: undefined,
    });
  });

  it('catalog notify with OFF events', () => {
    const m = decoded('standard-catalog-notify.xml');
    if (m.kind !== 'catalog-notify') throw new Error(m.kind);
    expect(m.sumNum).toBe(2);
    expect(m.items.map((i) => [i.deviceId, i.event])).toEqual([
      ['34020000001310000001', 'OFF'],
      ['34020000001310000002', 'OFF'],
    ]);
  });

  it('mobile position', () => {
    expect(decoded('standard-mobile-position.xml')).toMatchObject({
      kind: 'mobile-position',
      time: '2010-11-11T19:46:17',
      longitude: 171.3,
      latitude: 34.2,
      speed: 60,
      direction: 90,
      altitude: 100,
    });
  });

  it('mobile position outside the globe is refused', () => {
    const r = decodeManscdp(new TextDecoder().decode(fixture('standard-mobile-position.xml')).replace('171.3', '181'));
    expect(r.ok ? 'accepted' : r.error.message).toMatch(/Longitude/);
  });
});

describe('peekHeader', () => {
  it('reads what it can from a body that does not decode', () => {
    expect(peekHeader('<Notify><CmdType>Keepalive</CmdType><SN>5</SN><DeviceID>123</DeviceID></Notify>')).toEqual({
      root: 'Notify',
      cmdType: 'Keepalive',
      sn: 5,
    });
    expect(peekHeader('<!DOCTYPE x><Notify/>')).toEqual({});
    expect(peekHeader(fixture('dahua-sd-keepalive.xml'))).toEqual({
      root: 'Notify',
      cmdType: 'Keepalive',
      sn: 539,
      deviceId: '34020000001320000002',
    });
  });
});

describe('Dahua NVR channels relayed by a cascaded platform (GB2312)', () => {
  it('directory and channels, Chinese names, OFF status, null fields', () => {
    const m = decoded('dahua-nvr-cascade-catalog-gb2312.xml');
    if (m.kind !== 'catalog') throw new Error(m.kind);
    expect(m.sumNum).toBe(7);
    expect(m.items.map((i) => i.name)).toEqual([
      'abddd',
      'IP:192.168.1.177 -球机',
      '112dahua1楼',
      '路灯杆-球型',
      '通道一',
      '4楼茶水间',
      '大门口',
    ]);
    expect(m.items[0]).toMatchObject({
      deviceId: '00000000080000000008',
      parental: 1,
      typeCode: 0,
      address: undefined,
      ipAddress: undefined,
      ptzType: 0,
    });
    expect(m.items[1]).toMatchObject({
      parentId: '00000000080000000008',
      ipAddress: '192.168.1.177',
      port: 37777,
      ptzType: 1,
      online: true,
    });
    expect(m.items[5]).toMatchObject({ status: 'OFF', online: false });
    expect(m.items[6]).toMatchObject({ ipAddress: undefined, port: 0, model: 'IPC-HFW2433F-ZAS' });
  });
});

describe('Uniview IPC', () => {
  it('a camera listing itself with Parental 1: the type code (132) says it is a camera', () => {
    const m = decoded('uniview-ipc-catalog.xml');
    if (m.kind !== 'catalog') throw new Error(m.kind);
    expect(m.items[0]).toMatchObject({
      deviceId: '34020000001320000002',
      typeCode: 132,
      parental: 1,
      parentId: '75015310072008100002',
      manufacturer: 'UNIVIEW',
      owner: 'IPC-B2202.7.11.230222',
      ptzType: 1,
      resolution: '6/4/2',
      downloadSpeed: '0',
      longitude: 0,
    });
  });
});

describe('Hikvision IPC', () => {
  it('a video channel and an alarm input with an empty name', () => {
    const m = decoded('hikvision-ipc-catalog.xml');
    if (m.kind !== 'catalog') throw new Error(m.kind);
    expect(m.items.map((i) => [i.deviceId, i.typeCode, i.name, i.model, i.parentId])).toEqual([
      ['34020000001310000001', 131, 'hikangname', 'IP Camera', '34020000002000000001'],
      ['34020000001340000001', 134, undefined, 'AlarmIn', '34020000001320000002'],
    ]);
  });
});
