/**
 * Device controls (GB/T 28181-2016 A.2.3.1): TeleBoot (remote reboot, remotedevctrl), GuardCmd
 * SetGuard/ResetGuard (arm and disarm the alarm inputs), AlarmCmd ResetAlarm.
 * A device answers a control MESSAGE with 200, and for guard/alarm commands also with a
 * Response DeviceControl carrying Result OK/ERROR. TeleBoot has no Response (the device is
 * rebooting); its 200 is the answer. When a device sends no Response in time, the 200 stands and
 * the result says so instead of failing a command the device did accept.
 */
import { encodeGuardControl, encodeResetAlarm, encodeTeleBoot } from '@opencvr/manscdp';
import { GbNoResponseError, type GbApi, type ManscdpClient } from './manscdp-client.js';

export const DEVICE_COMMANDS = ['reboot', 'setguard', 'resetguard', 'resetalarm'] as const;
export type DeviceCommand = (typeof DEVICE_COMMANDS)[number];

export interface ControlResult {
  command: DeviceCommand;
  /** The device's Result (OK/ERROR), or undefined when it sent none. */
  result?: string;
  /** False when the device accepted the MESSAGE but sent no Response in time. */
  answered: boolean;
}

export class GbControl {
  constructor(
    private readonly gb: GbApi,
    private readonly client: ManscdpClient,
  ) {}

  async run(deviceId: string, command: DeviceCommand, target = deviceId): Promise<ControlResult> {
    const encoding = this.client.encodingOf(deviceId);
    if (command === 'reboot') {
      await this.client.send(deviceId, encodeTeleBoot({ sn: this.client.nextSn(), deviceId: target }, { encoding }));
      return { command, answered: true, result: 'OK' };
    }
    const timeoutMs = (await this.gb.gbConfig()).AckTimeout * 1000;
    try {
      const m = await this.client.ask(
        deviceId,
        'DeviceControl',
        (sn, enc) =>
          command === 'resetalarm'
            ? encodeResetAlarm({ sn, deviceId: target }, { encoding: enc })
            : encodeGuardControl({ sn, deviceId: target, guard: command === 'setguard' ? 'SetGuard' : 'ResetGuard' }, { encoding: enc }),
        timeoutMs,
      );
      return { command, answered: true, result: m.kind === 'device-control' ? m.result : undefined };
    } catch (err) {
      // The MESSAGE got its 200 but no Response followed: the device took the command.
      if (err instanceof GbNoResponseError) return { command, answered: false };
      throw err;
    }
  }
}
