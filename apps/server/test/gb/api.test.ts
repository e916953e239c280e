/**
 * The API the GB features build on, against the device double on loopback: sendRequest through a
 * client transaction (UDP retransmission, TCP), onMessage by CmdType, onRequest, and robustness
 * against malformed input (400 when a Via can be read, silence otherwise; the server keeps going).
 */
import dgram from 'node:dgram';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { header, parseSip } from '@opencvr/sip';
import { encodeDeviceInfoQuery } from '@opencvr/manscdp';
import { startTestApp, type TestApp } from '../helpers/index.js';
import { GbDevice } from '../fixtures/gb-device.js';
import { GbRequestError, type InboundMessage } from '../../src/gb/index.js';

const DEV = '34020000001320000001';

describe.each(['UDP', 'TCP'] as const)('ctx.gb API over %s', (transport) => {
  let t: TestApp;
  let dev: GbDevice;
  beforeEach(async () => {
    t = await startTestApp();
    await t.ctx.config.set('gb', { DevicePassword: 'pw', AckTimeout: 3 });
    dev = await GbDevice.start({ deviceId: DEV, password: 'pw', serverPort: t.ctx.gb.port, transport });
    expect((await dev.register()).status).toBe(200);
  });
  afterEach(async () => {
    await dev?.close();
    await t?.close();
  });

  it('sendRequest delivers a MANSCDP query and resolves with the device’s final response', async () => {
    const q = encodeDeviceInfoQuery({ sn: 7, deviceId: DEV });
    const { response, request } = await t.ctx.gb.sendRequest(DEV, { method: 'MESSAGE', body: q.bytes, contentType: q.contentType });
    expect(response.status).toBe(200);
    // The platform also asks DeviceInfo/Catalog after the registration: find this request by its Call-ID.
    const got = dev.requests.find((r) => header(r, 'Call-ID') === header(request, 'Call-ID'))!;
    expect(got).toBeDefined();
    expect(got.method).toBe('MESSAGE');
    expect(got.uri).toMatch(new RegExp(`^sip:${DEV}@127\\.0\\.0\\.1:\\d+$`));
    expect(header(got, 'From')).toMatch(/^<sip:34020000002000000001@3402000000>;tag=/);
    expect(header(got, 'Content-Type')).toBe('Application/MANSCDP+xml');
    expect(header(request, 'Call-ID')).toBe(header(got, 'Call-ID'));
  });

  it('sendRequest refuses an unregistered device at once', async () => {
    await expect(t.ctx.gb.sendRequest('34020000001320000099', { method: 'MESSAGE', body: '<x/>' })).rejects.toMatchObject({ code: 'not-registered' });
  });

  it('onMessage receives a device’s response by CmdType after the 200', async () => {
    const got: InboundMessage[] = [];
    t.ctx.gb.onMessage('DeviceInfo', (m) => void got.push(m));
    const res = await dev.message(
      `<?xml version="1.0" encoding="GB2312"?>\r\n<Response>\r\n<CmdType>DeviceInfo</CmdType>\r\n<SN>7</SN>\r\n<DeviceID>${DEV}</DeviceID>\r\n<Result>OK</Result>\r\n<Manufacturer>Hikvision</Manufacturer>\r\n</Response>\r\n`,
    );
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ deviceId: DEV, cmdType: 'DeviceInfo', method: 'MESSAGE' });
    expect(got[0].message.kind).toBe('device-info');
  });

  it('a body that is not MANSCDP is answered 400', async () => {
    expect((await dev.message('<?xml version="1.0"?><Nope/>')).status).toBe(400);
  });
});

describe('ctx.gb robustness', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp();
    await t.ctx.config.set('gb', { DevicePassword: 'pw', AckTimeout: 2 });
  });
  afterEach(async () => t?.close());

  it('answers 400 to a request with a Via but a broken header, drops garbage, and keeps serving', async () => {
    const sock = dgram.createSocket('udp4');
    await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
    const answers: Buffer[] = [];
    sock.on('message', (m) => answers.push(m));
    const send = (s: string | Buffer) => sock.send(typeof s === 'string' ? Buffer.from(s.replace(/\n/g, '\r\n')) : s, t.ctx.gb.port, '127.0.0.1');
    send(Buffer.from([0, 1, 2, 3, 255, 254, 10, 13, 10]));
    send('MESSAGE sip:a@b SIP/2.0\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bKbad\nFrom: <sip:x@y>;tag=1\nTo: <sip:a@b>\nCSeq: 1 MESSAGE\n\n');
    send('INVITE sip:a@b SIP/2.0\nVia: SIP/2.0/UDP 127.0.0.1:9;branch=z9hG4bKbad2\nContent-Length: 99999999\n\n');
    await new Promise((r) => setTimeout(r, 300));
    const parsed = answers.map((a) => parseSip(new Uint8Array(a), { requireHeaders: false }));
    expect(parsed.map((p) => (p.kind === 'response' ? p.status : 0))).toEqual([400, 400]);
    sock.close();
    // Still serving: a device registers.
    const dev = await GbDevice.start({ deviceId: DEV, password: 'pw', serverPort: t.ctx.gb.port });
    expect((await dev.register()).status).toBe(200);
    await dev.close();
  });

  it('sendRequest to a device that stopped answering rejects with a timeout after AckTimeout', async () => {
    const dev = await GbDevice.start({ deviceId: DEV, password: 'pw', serverPort: t.ctx.gb.port });
    await dev.register();
    await dev.close();
    const err = await t.ctx.gb.sendRequest(DEV, { method: 'MESSAGE', body: '<x/>' }).catch((e) => e);
    expect(err).toBeInstanceOf(GbRequestError);
    expect(err.code).toBe('timeout');
  });

  it('sendRequest to a TCP device whose connection closed fails at once as a transport error', async () => {
    const dev = await GbDevice.start({ deviceId: DEV, password: 'pw', serverPort: t.ctx.gb.port, transport: 'TCP' });
    await dev.register();
    await dev.close();
    await new Promise((r) => setTimeout(r, 100));
    await expect(t.ctx.gb.sendRequest(DEV, { method: 'MESSAGE', body: '<x/>' })).rejects.toMatchObject({ code: 'transport' });
  });
});
