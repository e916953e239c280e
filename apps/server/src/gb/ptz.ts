/**
 * PTZ of GB28181 channels (GB/T 28181-2016 A.2.3.1): DeviceControl MESSAGEs to the device whose
 * body names the channel (DeviceID) — PTZCmd for moves, zoom, focus/iris, stop and presets (annex
 * A.3, `@opencvr/manscdp`), DragZoomIn/DragZoomOut for a rectangle drawn on the picture — and the
 * PresetQuery for the preset list. A device answers a PTZ MESSAGE with 200 and no Response body, so
 * the 200 is the answer; a move lasts until `stop`, as with ONVIF.
 */
import {
  consolePtzAction,
  encodeDragZoom,
  encodePresetQuery,
  encodePtzCmd,
  encodePtzControl,
  type ConsolePtzCommand,
  type DragZoom,
  type Preset,
  type PtzAction,
} from '@opencvr/manscdp';
import type { GbConfig } from './core.js';
import type { ManscdpClient } from './manscdp-client.js';

export class GbPtz {
  private started = false;

  constructor(
    private readonly client: ManscdpClient,
    private readonly gbConfig: () => Promise<GbConfig>,
  ) {}

  /** Hooks the PresetQuery Responses (call once the SIP server's handlers may be added). */
  start() {
    if (this.started) return;
    this.started = true;
    this.client.answersOf('PresetQuery');
  }

  /** A console command at a speed of 1-100 (the ptzcontrol scale; ONVIF's too). Returns the PTZCmd sent. */
  command(deviceId: string, channelId: string, command: ConsolePtzCommand, speed: number): Promise<string> {
    return this.action(deviceId, channelId, consolePtzAction(command, { speed, scale: 'percent' }));
  }

  /** Preset 1-255: set (store the current position), goto, delete. */
  preset(deviceId: string, channelId: string, op: 'set' | 'goto' | 'delete', preset: number): Promise<string> {
    return this.action(deviceId, channelId, { type: 'preset', op, preset });
  }

  /** Any PTZCmd action; resolves with the PTZCmd text once the device answered 2xx. */
  async action(deviceId: string, channelId: string, a: PtzAction): Promise<string> {
    const ptzCmd = encodePtzCmd(a);
    const body = encodePtzControl({ sn: this.client.nextSn(), deviceId: channelId, ptzCmd }, { encoding: this.client.encodingOf(deviceId) });
    await this.client.send(deviceId, body);
    return ptzCmd;
  }

  async dragZoom(deviceId: string, channelId: string, direction: 'in' | 'out', zoom: DragZoom): Promise<void> {
    const body = encodeDragZoom({ sn: this.client.nextSn(), deviceId: channelId, direction, zoom }, { encoding: this.client.encodingOf(deviceId) });
    await this.client.send(deviceId, body);
  }

  /** The channel's presets (PresetQuery); GbNoResponseError when the device sends no list in AckTimeout. */
  async presets(deviceId: string, channelId: string): Promise<Preset[]> {
    const timeoutMs = (await this.gbConfig()).AckTimeout * 1000;
    const m = await this.client.ask(deviceId, 'PresetQuery', (sn, encoding) => encodePresetQuery({ sn, deviceId: channelId }, { encoding }), timeoutMs);
    return m.kind === 'preset-query' ? m.presets : [];
  }
}
