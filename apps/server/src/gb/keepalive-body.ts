/**
 * The plain Keepalive body read without the XML parser. Keepalives are most of the SIP traffic a
 * platform gets (2,000 devices every 30 s), and the full MANSCDP decoder (charset sniffing, XML tree,
 * validation) costs more than the rest of the transaction; nearly every device writes the same flat
 * shape, so that shape is recognised here and everything else goes to the full decoder.
 *
 * Accepted: at most 1 KiB of printable ASCII and XML whitespace; an optional <?xml …?> declaration;
 * a <Notify> root holding only flat elements `<Name>text</Name>` (text without markup or references)
 * and an empty <Info>; CmdType Keepalive (any case), SN a non-negative integer, DeviceID 20 digits.
 * Anything else (attributes, comments, CDATA, entity references, DOCTYPE, nested elements, a BOM,
 * non-ASCII bytes, a field named in another case) returns undefined: the caller decodes it fully.
 * When this returns a value, the full decoder reads the same body as a keepalive with the same SN
 * and DeviceID (property test in test/gb/keepalive-body.test.ts).
 */

export interface PlainKeepalive {
  deviceId: string;
  sn: number;
}

const MAX_BYTES = 1024;
const HEAD = /^[ \t\r\n]*(?:<\?xml[^<>]*\?>[ \t\r\n]*)?<Notify>/y;
/** One flat element or an empty Info, with the whitespace before it. */
const ITEM = /[ \t\r\n]*(?:<([A-Za-z][A-Za-z0-9_]{0,39})>([^<>&]*)<\/\1>|<Info[ \t\r\n]*\/>|<Info>[ \t\r\n]*<\/Info>)/y;
const TAIL = /[ \t\r\n]*<\/Notify>[ \t\r\n]*$/y;
const FIELDS: Record<string, 'CmdType' | 'SN' | 'DeviceID'> = { cmdtype: 'CmdType', sn: 'SN', deviceid: 'DeviceID' };

export function readPlainKeepalive(body: Uint8Array): PlainKeepalive | undefined {
  if (body.length > MAX_BYTES) return undefined;
  for (let i = 0; i < body.length; i++) {
    const b = body[i];
    if (b > 0x7e || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) return undefined;
  }
  const text = Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1');
  HEAD.lastIndex = 0;
  if (!HEAD.test(text)) return undefined;
  let at = HEAD.lastIndex;
  const found: Partial<Record<'CmdType' | 'SN' | 'DeviceID', string>> = {};
  for (;;) {
    TAIL.lastIndex = at;
    if (TAIL.test(text)) break;
    ITEM.lastIndex = at;
    const m = ITEM.exec(text);
    if (!m) return undefined;
    at = ITEM.lastIndex;
    const name = m[1];
    if (name === undefined) continue;
    const field = FIELDS[name.toLowerCase()];
    if (!field) continue;
    // The full decoder prefers the exact name over another case: do not guess, let it decide.
    if (field !== name) return undefined;
    // The first one counts, as in the full decoder (an empty first one reads as absent there).
    found[field] ??= m[2].trim();
  }
  const { CmdType, SN, DeviceID } = found;
  if (CmdType?.toLowerCase() !== 'keepalive') return undefined;
  if (!SN || !/^\d{1,15}$/.test(SN)) return undefined;
  if (!DeviceID || !/^\d{20}$/.test(DeviceID)) return undefined;
  return { deviceId: DeviceID, sn: Number(SN) };
}
