/**
 * PTZCmd of GB/T 28181-2016 annex A.3: 8 bytes written as 16 upper-case hex digits.
 *   byte1 A5 · byte2 version (high nibble, 0) + check nibble ((A + 5 + version) mod 16 = F)
 *   byte3 address low 8 bits · byte4 instruction · byte5 data1 · byte6 data2
 *   byte7 data3 (high nibble) + address high 4 bits · byte8 sum of bytes 1-7 mod 256
 * The address is ignored by devices (the DeviceID of the MESSAGE says which camera); we write 01.
 *
 * Instructions:
 *   00-3F PTZ: bit5 zoom out, bit4 zoom in, bit3 up, bit2 down, bit1 left, bit0 right;
 *         data1 pan speed, data2 tilt speed (0-255), data3 zoom speed (0-15). 00 = stop.
 *   40-4F FI: bit3 iris close, bit2 iris open, bit1 focus near, bit0 focus far; data1 focus speed,
 *         data2 iris speed. 40 = stop focus and iris.
 *   81/82/83 preset set/go to/delete: data2 preset number (1-255).
 *   84/85 cruise add/delete point: data1 group, data2 preset (0 on delete = the whole cruise);
 *   86/87 cruise speed/dwell: data1 group, 12-bit value in data2 + data3; 88 start cruise: data1 group.
 *   89 scan: data1 group, data2 0 start / 1 left boundary / 2 right boundary; 8A scan speed (12-bit).
 *   8C/8D auxiliary switch on/off: data1 switch number.
 */
import { ManscdpError } from './errors.js';

export type PtzAction =
  | { type: 'stop' }
  | {
      type: 'move';
      pan?: 'left' | 'right';
      tilt?: 'up' | 'down';
      zoom?: 'in' | 'out';
      /** 0-255. */
      panSpeed: number;
      /** 0-255. */
      tiltSpeed: number;
      /** 0-15. */
      zoomSpeed: number;
    }
  | { type: 'fi'; focus?: 'near' | 'far'; iris?: 'open' | 'close'; focusSpeed: number; irisSpeed: number }
  | { type: 'preset'; op: 'set' | 'goto' | 'delete'; preset: number }
  | { type: 'cruise'; op: 'add' | 'delete'; group: number; preset: number }
  | { type: 'cruise'; op: 'speed' | 'dwell'; group: number; value: number }
  | { type: 'cruise'; op: 'start'; group: number }
  | { type: 'scan'; op: 'start' | 'left' | 'right'; group: number }
  | { type: 'scan'; op: 'speed'; group: number; value: number }
  | { type: 'aux'; op: 'on' | 'off'; aux: number };

const PRESET_OPS = { set: 0x81, goto: 0x82, delete: 0x83 } as const;
const CRUISE_OPS = { add: 0x84, delete: 0x85, speed: 0x86, dwell: 0x87, start: 0x88 } as const;
const SCAN_STEPS = { start: 0, left: 1, right: 2 } as const;

function check(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max)
    throw new ManscdpError('bad-argument', `PTZ ${name} ${v} is not an integer in ${min}..${max}`);
  return v;
}

/** Sum of bytes 1-7 mod 256: the last byte. */
export function ptzChecksum(bytes: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += bytes[i];
  return sum & 0xff;
}

function frame(instruction: number, data1: number, data2: number, data3 = 0): string {
  const b = [0xa5, 0x0f, 0x01, instruction, data1, data2, (data3 & 0x0f) << 4];
  b.push(ptzChecksum(b));
  return b
    .map((x) => x.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

/** The PTZCmd text (16 upper-case hex digits) for an action; a value out of range is a ManscdpError. */
export function encodePtzCmd(a: PtzAction): string {
  switch (a.type) {
    case 'stop':
      return frame(0, 0, 0, 0);
    case 'move': {
      let ins = 0;
      if (a.zoom === 'out') ins |= 0x20;
      if (a.zoom === 'in') ins |= 0x10;
      if (a.tilt === 'up') ins |= 0x08;
      if (a.tilt === 'down') ins |= 0x04;
      if (a.pan === 'left') ins |= 0x02;
      if (a.pan === 'right') ins |= 0x01;
      return frame(
        ins,
        check('pan speed', a.panSpeed, 0, 255),
        check('tilt speed', a.tiltSpeed, 0, 255),
        check('zoom speed', a.zoomSpeed, 0, 15),
      );
    }
    case 'fi': {
      let ins = 0x40;
      if (a.iris === 'close') ins |= 0x08;
      if (a.iris === 'open') ins |= 0x04;
      if (a.focus === 'near') ins |= 0x02;
      if (a.focus === 'far') ins |= 0x01;
      return frame(ins, check('focus speed', a.focusSpeed, 0, 255), check('iris speed', a.irisSpeed, 0, 255));
    }
    case 'preset':
      return frame(PRESET_OPS[a.op], 0, check('preset', a.preset, 1, 255));
    case 'cruise': {
      const group = check('cruise group', a.group, 0, 255);
      if (a.op === 'start') return frame(CRUISE_OPS.start, group, 0);
      if (!('value' in a))
        return frame(CRUISE_OPS[a.op], group, check('preset', a.preset, a.op === 'add' ? 1 : 0, 255));
      const v = check(`cruise ${a.op}`, a.value, 0, 0xfff);
      return frame(CRUISE_OPS[a.op], group, v & 0xff, v >> 8);
    }
    case 'scan': {
      const group = check('scan group', a.group, 0, 255);
      if (a.op === 'speed') {
        const v = check('scan speed', a.value, 0, 0xfff);
        return frame(0x8a, group, v & 0xff, v >> 8);
      }
      return frame(0x89, group, SCAN_STEPS[a.op]);
    }
    case 'aux':
      return frame(a.op === 'on' ? 0x8c : 0x8d, check('auxiliary switch', a.aux, 0, 255), 0);
  }
}

/** PTZCmd text → bytes, checked (length, A5 header, check nibble, checksum). Throws ManscdpError 'bad-ptz'. */
export function ptzBytes(cmd: string): Uint8Array {
  const hex = cmd.trim();
  if (!/^[0-9A-Fa-f]{16}$/.test(hex))
    throw new ManscdpError('bad-ptz', `PTZCmd "${hex.slice(0, 40)}" is not 16 hex digits`);
  const b = new Uint8Array(8);
  for (let i = 0; i < 8; i++) b[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  if (b[0] !== 0xa5) throw new ManscdpError('bad-ptz', `PTZCmd starts with ${hex.slice(0, 2)}, not A5`);
  if ((b[1] & 0x0f) !== (0xa + 0x5 + (b[1] >> 4)) % 16)
    throw new ManscdpError('bad-ptz', `PTZCmd byte 2 (${hex.slice(2, 4)}) has a wrong check nibble`);
  if (ptzChecksum(b) !== b[7])
    throw new ManscdpError(
      'bad-ptz',
      `PTZCmd checksum ${hex.slice(14, 16)} should be ${ptzChecksum(b).toString(16).padStart(2, '0').toUpperCase()}`,
    );
  return b;
}

/** PTZCmd text → the action it asks for. Throws ManscdpError 'bad-ptz' on a malformed or unknown command. */
export function decodePtzCmd(cmd: string): PtzAction {
  const b = ptzBytes(cmd);
  const ins = b[3];
  const d1 = b[4];
  const d2 = b[5];
  const d3 = b[6] >> 4;
  if (ins === 0) return { type: 'stop' };
  if (ins < 0x40) {
    if ((ins & 0x30) === 0x30 || (ins & 0x0c) === 0x0c || (ins & 0x03) === 0x03)
      throw new ManscdpError('bad-ptz', `PTZCmd instruction ${ins.toString(16)} sets both bits of one direction`);
    return {
      type: 'move',
      zoom: ins & 0x20 ? 'out' : ins & 0x10 ? 'in' : undefined,
      tilt: ins & 0x08 ? 'up' : ins & 0x04 ? 'down' : undefined,
      pan: ins & 0x02 ? 'left' : ins & 0x01 ? 'right' : undefined,
      panSpeed: d1,
      tiltSpeed: d2,
      zoomSpeed: d3,
    };
  }
  if (ins < 0x50) {
    if ((ins & 0x0c) === 0x0c || (ins & 0x03) === 0x03)
      throw new ManscdpError('bad-ptz', `FI instruction ${ins.toString(16)} sets both bits of one control`);
    return {
      type: 'fi',
      iris: ins & 0x08 ? 'close' : ins & 0x04 ? 'open' : undefined,
      focus: ins & 0x02 ? 'near' : ins & 0x01 ? 'far' : undefined,
      focusSpeed: d1,
      irisSpeed: d2,
    };
  }
  switch (ins) {
    case 0x81:
    case 0x82:
    case 0x83:
      if (d2 === 0) throw new ManscdpError('bad-ptz', 'preset number 0 is not a preset');
      return { type: 'preset', op: ins === 0x81 ? 'set' : ins === 0x82 ? 'goto' : 'delete', preset: d2 };
    case 0x84:
    case 0x85:
      return { type: 'cruise', op: ins === 0x84 ? 'add' : 'delete', group: d1, preset: d2 };
    case 0x86:
    case 0x87:
      return { type: 'cruise', op: ins === 0x86 ? 'speed' : 'dwell', group: d1, value: (d3 << 8) | d2 };
    case 0x88:
      return { type: 'cruise', op: 'start', group: d1 };
    case 0x89: {
      const op = d2 === 0 ? 'start' : d2 === 1 ? 'left' : d2 === 2 ? 'right' : undefined;
      if (!op) throw new ManscdpError('bad-ptz', `scan step ${d2} is not 0, 1 or 2`);
      return { type: 'scan', op, group: d1 };
    }
    case 0x8a:
      return { type: 'scan', op: 'speed', group: d1, value: (d3 << 8) | d2 };
    case 0x8c:
    case 0x8d:
      return { type: 'aux', op: ins === 0x8c ? 'on' : 'off', aux: d1 };
    default:
      throw new ManscdpError('bad-ptz', `PTZCmd instruction ${ins.toString(16).toUpperCase()} is not one of annex A.3`);
  }
}

/** The console's ptzcontrol commands (EasyCVR `command`), plus focus and iris. */
export const CONSOLE_PTZ_COMMANDS = [
  'stop',
  'up',
  'down',
  'left',
  'right',
  'upleft',
  'upright',
  'downleft',
  'downright',
  'zoomin',
  'zoomout',
  'focusnear',
  'focusfar',
  'irisopen',
  'irisclose',
] as const;
export type ConsolePtzCommand = (typeof CONSOLE_PTZ_COMMANDS)[number];

export interface ConsoleSpeed {
  /** The console's speed value. */
  speed: number;
  /** 'byte' when speed is 1-255 (EasyCVR), 'percent' when 1-100. Default 'byte'. */
  scale?: 'byte' | 'percent';
}

/**
 * A console command and speed → the PTZ action. Speeds are clamped to the valid range (a console slider
 * at 0 still moves slowly rather than sending a no-op); zoom speed is the same fraction of 0-15.
 */
export function consolePtzAction(command: ConsolePtzCommand, s: ConsoleSpeed = { speed: 128 }): PtzAction {
  if (!CONSOLE_PTZ_COMMANDS.includes(command))
    throw new ManscdpError('bad-argument', `PTZ command "${command}" is not one of ${CONSOLE_PTZ_COMMANDS.join('/')}`);
  if (!Number.isFinite(s.speed)) throw new ManscdpError('bad-argument', `PTZ speed ${s.speed} is not a number`);
  const fraction = Math.min(1, Math.max(0, s.scale === 'percent' ? s.speed / 100 : s.speed / 255));
  const speed = Math.max(1, Math.round(fraction * 255));
  const zoomSpeed = Math.max(1, Math.round(fraction * 15));
  const move = (pan?: 'left' | 'right', tilt?: 'up' | 'down', zoom?: 'in' | 'out'): PtzAction => ({
    type: 'move',
    pan,
    tilt,
    zoom,
    panSpeed: pan ? speed : 0,
    tiltSpeed: tilt ? speed : 0,
    zoomSpeed: zoom ? zoomSpeed : 0,
  });
  switch (command) {
    case 'stop':
      return { type: 'stop' };
    case 'up':
      return move(undefined, 'up');
    case 'down':
      return move(undefined, 'down');
    case 'left':
      return move('left');
    case 'right':
      return move('right');
    case 'upleft':
      return move('left', 'up');
    case 'upright':
      return move('right', 'up');
    case 'downleft':
      return move('left', 'down');
    case 'downright':
      return move('right', 'down');
    case 'zoomin':
      return move(undefined, undefined, 'in');
    case 'zoomout':
      return move(undefined, undefined, 'out');
    case 'focusnear':
      return { type: 'fi', focus: 'near', focusSpeed: speed, irisSpeed: 0 };
    case 'focusfar':
      return { type: 'fi', focus: 'far', focusSpeed: speed, irisSpeed: 0 };
    case 'irisopen':
      return { type: 'fi', iris: 'open', focusSpeed: 0, irisSpeed: speed };
    case 'irisclose':
      return { type: 'fi', iris: 'close', focusSpeed: 0, irisSpeed: speed };
  }
}
