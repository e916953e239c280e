/**
 * bytes or text of a MANSCDP body → one typed message, discriminated by `kind`.
 * `parseManscdp` throws ManscdpError only; `decodeManscdp` returns a result and never throws.
 */
import { decodeBody } from '../charset.js';
import { ManscdpError } from '../errors.js';
import { childText, parseXml, type XmlElement } from '../xml.js';
import { isDeviceId } from './fields.js';
import { decodeCatalogNotify, decodeCatalogResponse, type CatalogNotify, type CatalogResponse } from './catalog.js';
import {
  decodeConfigDownload,
  decodeDeviceControlResponse,
  decodeDeviceInfo,
  decodeDeviceStatus,
  decodePresetQuery,
  type ConfigDownloadResponse,
  type DeviceControlResponse,
  type DeviceInfoResponse,
  type DeviceStatusResponse,
  type PresetQueryResponse,
} from './device.js';
import { readHeader, type ManscdpHeader } from './header.js';
import { decodeKeepalive, type Keepalive } from './keepalive.js';
import {
  decodeAlarmNotify,
  decodeMediaStatus,
  decodeMobilePosition,
  type AlarmNotify,
  type MediaStatusNotify,
  type MobilePositionNotify,
} from './notify.js';
import { decodeControl, decodeQuery, type ControlMessage, type QueryMessage } from './query.js';
import { decodeRecordInfo, type RecordInfoResponse } from './record.js';

/** Any other (root, CmdType): the header and the element tree, for the caller to answer or log. */
export interface OtherMessage extends ManscdpHeader {
  kind: 'other';
  xml: XmlElement;
}

export type ManscdpMessage =
  | Keepalive
  | CatalogResponse
  | CatalogNotify
  | DeviceInfoResponse
  | DeviceStatusResponse
  | DeviceControlResponse
  | PresetQueryResponse
  | ConfigDownloadResponse
  | RecordInfoResponse
  | AlarmNotify
  | MobilePositionNotify
  | MediaStatusNotify
  | QueryMessage
  | ControlMessage
  | OtherMessage;

export type ManscdpKind = ManscdpMessage['kind'];

type Decoder = (h: ManscdpHeader, root: XmlElement) => ManscdpMessage;

/** Keyed by `Root/CmdType` with CmdType lower-cased (devices vary the case). */
const DECODERS: Record<string, Decoder> = {
  'Notify/keepalive': decodeKeepalive,
  'Response/catalog': decodeCatalogResponse,
  'Notify/catalog': decodeCatalogNotify,
  'Response/deviceinfo': decodeDeviceInfo,
  'Response/devicestatus': decodeDeviceStatus,
  'Response/devicecontrol': decodeDeviceControlResponse,
  'Response/presetquery': decodePresetQuery,
  'Response/configdownload': decodeConfigDownload,
  'Response/recordinfo': decodeRecordInfo,
  'Notify/alarm': decodeAlarmNotify,
  'Notify/mobileposition': decodeMobilePosition,
  'Notify/mediastatus': decodeMediaStatus,
};

export interface ParsedManscdp {
  message: ManscdpMessage;
  /** The charset the bytes were read as ('UTF-8', 'GB18030' …); 'text' for a string input. */
  readAs: string;
}

/** Decodes a body. Throws ManscdpError (and nothing else) when it is malformed or refused. */
export function parseManscdp(body: Uint8Array | string): ParsedManscdp {
  let text: string;
  let readAs = 'text';
  if (typeof body === 'string') text = body;
  else {
    const d = decodeBody(body);
    text = d.text;
    readAs = d.readAs;
  }
  const root = parseXml(text);
  const header = readHeader(root);
  const key = `${header.root}/${header.cmdType.toLowerCase()}`;
  // Every Query reads the same way; Control is DeviceControl (DeviceConfig and others stay 'other').
  const decoder = Object.hasOwn(DECODERS, key)
    ? DECODERS[key]
    : header.root === 'Query'
      ? decodeQuery
      : key === 'Control/devicecontrol'
        ? decodeControl
        : undefined;
  return { message: decoder ? decoder(header, root) : { ...header, kind: 'other', xml: root }, readAs };
}

export type DecodeResult = ({ ok: true } & ParsedManscdp) | { ok: false; error: ManscdpError };

/** Decodes a body without throwing: a malformed body is `{ ok: false, error }` with a clear message. */
export function decodeManscdp(body: Uint8Array | string): DecodeResult {
  try {
    return { ok: true, ...parseManscdp(body) };
  } catch (e) {
    // Anything not a ManscdpError is a bug of ours; still a result, not a crash of the SIP server.
    return {
      ok: false,
      error:
        e instanceof ManscdpError
          ? e
          : new ManscdpError('bad-xml', `undecodable body: ${(e as Error)?.message ?? String(e)}`),
    };
  }
}

/**
 * Whatever header fields of a body can be read, even when the rest does not decode (a bad DeviceID, an
 * unknown root), so the SIP layer can still correlate or log it. Never throws.
 */
export function peekHeader(body: Uint8Array | string): Partial<ManscdpHeader> {
  try {
    const root = parseXml(typeof body === 'string' ? body : decodeBody(body).text);
    const out: Partial<ManscdpHeader> = {};
    const name = (['Query', 'Response', 'Notify', 'Control'] as const).find(
      (r) => r.toLowerCase() === root.name.toLowerCase(),
    );
    if (name) out.root = name;
    const cmdType = childText(root, 'CmdType');
    if (cmdType && /^[A-Za-z][A-Za-z0-9_]{0,39}$/.test(cmdType)) out.cmdType = cmdType;
    const sn = childText(root, 'SN');
    if (sn && /^\d{1,15}$/.test(sn)) out.sn = Number(sn);
    const deviceId = childText(root, 'DeviceID');
    if (deviceId && isDeviceId(deviceId)) out.deviceId = deviceId;
    return out;
  } catch {
    return {};
  }
}
