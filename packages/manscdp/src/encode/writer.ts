/** A MANSCDP body written from a small element tree: declaration, CRLF lines, escaped text, charset. */
import { encodeBody, type BodyEncoding } from '../charset.js';
import { ManscdpError } from '../errors.js';

export interface XmlOut {
  name: string;
  attrs?: Record<string, string | number>;
  /** Text content; an element with neither text nor children is left out. */
  text?: string | number;
  children?: (XmlOut | undefined)[];
}

export interface ManscdpBody {
  text: string;
  bytes: Uint8Array;
  encoding: BodyEncoding;
  contentType: 'Application/MANSCDP+xml';
}

export interface EncodeOptions {
  /** Default GB2312, what most devices expect. */
  encoding?: BodyEncoding;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string);

/** Text of an element, undefined when given nothing. */
export function el(name: string, value: string | number | undefined): XmlOut | undefined {
  return value === undefined ? undefined : { name, text: value };
}

function write(e: XmlOut, out: string[]): void {
  const kids = (e.children ?? []).filter((c): c is XmlOut => c !== undefined);
  if (e.text === undefined && kids.length === 0 && !e.attrs) return;
  const attrs = Object.entries(e.attrs ?? {})
    .map(([k, v]) => ` ${k}="${escape(String(v))}"`)
    .join('');
  if (kids.length === 0) {
    out.push(`<${e.name}${attrs}>${escape(String(e.text ?? ''))}</${e.name}>`);
    return;
  }
  out.push(`<${e.name}${attrs}>`);
  for (const k of kids) write(k, out);
  out.push(`</${e.name}>`);
}

export function writeManscdp(root: XmlOut, opts: EncodeOptions = {}): ManscdpBody {
  const encoding = opts.encoding ?? 'GB2312';
  const out = [`<?xml version="1.0" encoding="${encoding}"?>`];
  write(root, out);
  const text = `${out.join('\r\n')}\r\n`;
  return { text, bytes: encodeBody(text, encoding), encoding, contentType: 'Application/MANSCDP+xml' };
}

const DEVICE_ID = /^\d{20}$/;

/** The three header fields every message starts with, validated. */
export function header(cmdType: string, sn: number, deviceId: string): XmlOut[] {
  if (!Number.isInteger(sn) || sn < 0 || sn > 0xffffffff)
    throw new ManscdpError('bad-argument', `SN ${sn} is not an integer in 0..4294967295`);
  if (!DEVICE_ID.test(deviceId)) throw new ManscdpError('bad-argument', `DeviceID "${deviceId}" is not a 20-digit ID`);
  return [
    { name: 'CmdType', text: cmdType },
    { name: 'SN', text: sn },
    { name: 'DeviceID', text: deviceId },
  ];
}

const GB_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** A GB time argument: `YYYY-MM-DDTHH:MM:SS` (device-local, no zone). */
export function gbTime(name: string, v: string | undefined): XmlOut | undefined {
  if (v === undefined) return undefined;
  if (!GB_TIME.test(v)) throw new ManscdpError('bad-argument', `${name} "${v}" is not YYYY-MM-DDTHH:MM:SS`);
  return { name, text: v };
}

export function intInRange(name: string, v: number | undefined, min: number, max: number): XmlOut | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < min || v > max)
    throw new ManscdpError('bad-argument', `${name} ${v} is not an integer in ${min}..${max}`);
  return { name, text: v };
}
