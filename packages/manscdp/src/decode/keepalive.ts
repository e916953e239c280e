/** Notify Keepalive (GB/T 28181-2016 9.6, A.2.5): Status OK, and optionally the IDs of faulty sub-devices. */
import { child, children, childText, type XmlElement } from '../xml.js';
import { isDeviceId } from './fields.js';
import type { ManscdpHeader } from './header.js';

export interface Keepalive extends ManscdpHeader {
  kind: 'keepalive';
  /** Status as written (OK/ERROR); `ok` is true unless the device says otherwise. */
  status?: string;
  ok: boolean;
  /** Sub-devices the device reports as faulty (<Info><DeviceID>…). */
  faultyDeviceIds: string[];
}

export function decodeKeepalive(h: ManscdpHeader, root: XmlElement): Keepalive {
  const status = childText(root, 'Status');
  const faultyDeviceIds = children(child(root, 'Info'), 'DeviceID')
    .map((e) => e.text)
    .filter(isDeviceId);
  return {
    ...h,
    kind: 'keepalive',
    status,
    ok: status === undefined || status.toUpperCase() !== 'ERROR',
    faultyDeviceIds,
  };
}
