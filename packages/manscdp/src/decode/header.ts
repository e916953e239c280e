/** The four MANSCDP roots and the fields every message carries (CmdType, SN, DeviceID). */
import { ManscdpError } from '../errors.js';
import type { XmlElement } from '../xml.js';
import { requireDeviceId, requireText, requireUint } from './fields.js';

export type ManscdpRoot = 'Query' | 'Response' | 'Notify' | 'Control';
const ROOTS: readonly ManscdpRoot[] = ['Query', 'Response', 'Notify', 'Control'];

export interface ManscdpHeader {
  root: ManscdpRoot;
  /** As written by the device (Keepalive, Catalog ...). */
  cmdType: string;
  /** Correlates a response with its query; an integer (the standard says up to 2^32-1). */
  sn: number;
  /** The 20-digit ID of the device or channel the message is about. */
  deviceId: string;
}

export function readHeader(root: XmlElement): ManscdpHeader {
  const name = ROOTS.find((r) => r.toLowerCase() === root.name.toLowerCase());
  if (!name)
    throw new ManscdpError('bad-root', `root <${root.name.slice(0, 40)}> is not Query, Response, Notify or Control`);
  const cmdType = requireText(root, 'CmdType', name);
  if (!/^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(cmdType))
    throw new ManscdpError('bad-field', `${name}: <CmdType> is not a command name`);
  const where = `${name} ${cmdType}`;
  const sn = requireUint(root, 'SN', where);
  const deviceId = requireDeviceId(root, 'DeviceID', where);
  return { root: name, cmdType, sn, deviceId };
}
