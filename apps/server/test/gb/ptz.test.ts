/**
 * PTZ of a GB28181 channel through the console's calls, checked at the device double: the PTZCmd
 * bytes it receives are the ones GB/T 28181-2016 annex A.3 gives (written out here by hand from the
 * annex, not with the encoder under test), in a DeviceControl MESSAGE to the device whose DeviceID
 * is the channel. Presets set/go to/delete and the preset list; drag zoom; failures with their cause.
 */
import { userOf } from '@opencvr/sip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordControls } from '../fixtures/gb-device-media.js';
import { CH, DEV, startRig, type GbRig } from './invite-support.js';
import { until } from '../helpers/index.js';

let rig: GbRig;
let rec: ReturnType<typeof recordControls>;
beforeEach(async () => {
  rig = await startRig({ gb: { AckTimeout: 2 } });
  rec = recordControls(rig.dev, { presets: [{ presetId: 1, presetName: '大门' }, { presetId: 7, presetName: 'Gate 7' }] });
});
afterEach(async () => {
  rec.stop();
  await rig.close();
});

const call = (url: string, query: Record<string, string | number>) =>
  rig.t.app.inject({ url, headers: { token: rig.admin }, query: { device: DEV, channel: CH, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) } });

/** Annex A.3: A5, 0F (version 0 + check nibble), address 01, instruction, data1, data2, data3<<4 | address high, sum mod 256. */
const PTZCMD = {
  // up at speed 50 % → tilt speed round(0.5 × 255) = 0x80 in byte 6
  up50: 'A50F01080080003D',
  // left at 100 % → pan speed 0xFF in byte 5
  left100: 'A50F0102FF0000B6',
  // zoom in at 100 % → zoom speed 15 in the high nibble of byte 7
  zoomin100: 'A50F01100000F0B5',
  // zoom out at 100 %: bit 5
  zoomout100: 'A50F01200000F0C5',
  // down-right at 20 % → round(0.2 × 255) = 51 = 0x33 in bytes 5 and 6
  downright20: 'A50F010533330020',
  stop: 'A50F0100000000B5',
  presetSet3: 'A50F018100030039',
  presetGoto3: 'A50F01820003003A',
  presetDelete3: 'A50F01830003003B',
};

describe('ptzcontrol on a GB channel', () => {
  it('moves, zooms and stops with the PTZCmd of annex A.3, in a DeviceControl to the device naming the channel', async () => {
    const steps: [string, number, string][] = [
      ['up', 50, PTZCMD.up50],
      ['left', 100, PTZCMD.left100],
      ['zoomin', 100, PTZCMD.zoomin100],
      ['zoomout', 100, PTZCMD.zoomout100],
      ['downright', 20, PTZCMD.downright20],
      ['stop', 50, PTZCMD.stop],
    ];
    for (const [command, speed, expected] of steps) {
      const res = await call('/api/v1/ptzcontrol', { command, speed });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().EasyDarwin.Header.MessageType).toBe('MSG_SC_PTZ_CONTROL_ACK');
      expect(res.json().EasyDarwin.Body).toEqual({ Command: command, Speed: speed });
      expect(rec.ptzCmds().at(-1), command).toBe(expected);
    }
    expect(rec.ptzCmds()).toEqual(steps.map((s) => s[2]));
    for (const [i, c] of rec.controls.entries()) {
      expect(c).toMatchObject({ root: 'Control', cmdType: 'DeviceControl', deviceId: CH });
      // Addressed to the device (it registered; the channel is named in the body).
      expect(userOf(`<${rec.requests[i].uri}>`)).toBe(DEV);
    }
    // SNs differ (devices drop repeats).
    expect(new Set(rec.controls.map((c) => c.sn)).size).toBe(rec.controls.length);
  });

  it('focus and iris go out as FI instructions', async () => {
    expect((await call('/api/v1/ptzcontrol', { command: 'focusnear', speed: 100 })).statusCode).toBe(200);
    expect((await call('/api/v1/ptzcontrol', { command: 'irisopen', speed: 100 })).statusCode).toBe(200);
    // 0x42 focus near, data1 focus speed FF; 0x44 iris open, data2 iris speed FF.
    expect(rec.ptzCmds()).toEqual(['A50F0142FF0000F6', 'A50F014400FF00F8']);
  });
});

describe('presets on a GB channel', () => {
  it('set, go to and delete preset 3; the list comes from PresetQuery', async () => {
    const set = await call('/api/v1/onvifsetpreset', { name: 'gate', token: 3 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().EasyDarwin.Body).toEqual({ Token: '3', Name: 'gate' });
    expect((await call('/api/v1/onvifgotopreset', { token: 3 })).statusCode).toBe(200);
    expect((await call('/api/v1/onvifremovepreset', { token: 3 })).statusCode).toBe(200);
    expect(rec.ptzCmds()).toEqual([PTZCMD.presetSet3, PTZCMD.presetGoto3, PTZCMD.presetDelete3]);

    const list = await call('/api/v1/onvifgetpresetlist', {});
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().EasyDarwin.Body).toEqual({
      PresetCount: 2,
      Presets: [
        { Token: '1', Name: '大门' },
        { Token: '7', Name: 'Gate 7' },
      ],
    });
  });

  it('a preset token that is not 1-255 is refused before anything is sent', async () => {
    for (const token of ['abc', '0', '256']) {
      const res = await call('/api/v1/onvifgotopreset', { token });
      expect(res.statusCode, token).toBe(400);
      expect(res.json().msg).toBe('参数 token 不合法: GB28181预置位须为1到255的数字');
    }
    expect((await call('/api/v1/onvifsetpreset', { name: 'x' })).statusCode).toBe(400);
    expect(rec.controls).toHaveLength(0);
  });
});

describe('drag zoom', () => {
  it('dragzoomin/control and dragzoomout/control send the rectangle', async () => {
    const rect = { length: 1920, width: 1080, midpointx: 960, midpointy: 540, lengthx: 200, lengthy: 100 };
    const zin = await call('/api/v1/dragzoomin/control', rect);
    expect(zin.statusCode, zin.body).toBe(200);
    const zout = await call('/api/v1/dragzoomout/control', { ...rect, midpointx: 100 });
    expect(zout.statusCode, zout.body).toBe(200);
    await until(() => rec.controls.length === 2, 10000, { what: 'both controls' });
    expect(rec.controls[0]).toMatchObject({
      deviceId: CH,
      dragZoomIn: { length: 1920, width: 1080, midPointX: 960, midPointY: 540, lengthX: 200, lengthY: 100 },
    });
    expect(rec.controls[1].dragZoomOut).toMatchObject({ midPointX: 100 });
  });

  it('a rectangle outside the picture is refused', async () => {
    const res = await call('/api/v1/dragzoomin/control', { length: 100, width: 100, midpointx: 150, midpointy: 50, lengthx: 10, lengthy: 10 });
    expect(res.statusCode).toBe(400);
    expect(rec.controls).toHaveLength(0);
  });
});

describe('failures', () => {
  it('an offline device: 409 naming it, nothing sent', async () => {
    await rig.dev.unregister();
    const off = await call('/api/v1/ptzcontrol', { command: 'up', speed: 50 });
    expect(off.statusCode).toBe(409);
    expect(off.json().msg).toContain(DEV);
    expect(rec.controls).toHaveLength(0);
  });

  it('an unknown command is refused by the schema', async () => {
    expect((await call('/api/v1/ptzcontrol', { command: 'spin', speed: 50 })).statusCode).toBe(400);
  });
});
