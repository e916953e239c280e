/**
 * Reading and writing the structured header values a GB28181 server needs: URIs, name-addr
 * (From/To/Contact), Via, CSeq and ;params. Readers return undefined on what they cannot read.
 */
export type Params = Record<string, string | null>;

export interface SipUri {
  scheme: 'sip' | 'sips';
  user?: string;
  host: string;
  port?: number;
  params: Params;
}

export interface NameAddr {
  displayName?: string;
  uri: string;
  params: Params;
}

export interface Via {
  transport: string;
  host: string;
  port?: number;
  params: Params;
}

export interface CSeq {
  seq: number;
  method: string;
}

/** ";a=1;b;c=\"x\"" → {a:'1', b:null, c:'x'}; names lower-cased. */
export function parseParams(s: string): Params {
  const out: Params = {};
  for (const part of splitOutsideQuotes(s, ';')) {
    const p = part.trim();
    if (!p) continue;
    const eq = p.indexOf('=');
    if (eq < 0) out[p.toLowerCase()] = null;
    else out[p.slice(0, eq).trim().toLowerCase()] = unquote(p.slice(eq + 1).trim());
  }
  return out;
}

export function formatParams(params: Params): string {
  return Object.entries(params)
    .map(([k, v]) => (v === null ? `;${k}` : `;${k}=${/[\s;,"]/.test(v) ? `"${v.replace(/["\\]/g, '\\$&')}"` : v}`))
    .join('');
}

export function parseUri(s: string): SipUri | undefined {
  const m = /^(sips?):(?:([^@;?]*)@)?(\[[0-9a-fA-F:.]+\]|[^:;?]+)(?::(\d{1,5}))?((?:;[^?]*)?)(?:\?.*)?$/i.exec(s.trim());
  if (!m) return undefined;
  const port = m[4] ? Number(m[4]) : undefined;
  if (port !== undefined && port > 65535) return undefined;
  const user = m[2] ? m[2].split(':')[0] : undefined;
  return { scheme: m[1].toLowerCase() as 'sip' | 'sips', user: user || undefined, host: m[3], port, params: parseParams(m[5] ?? '') };
}

export function formatUri(u: SipUri): string {
  return `${u.scheme}:${u.user ? `${u.user}@` : ''}${u.host}${u.port ? `:${u.port}` : ''}${formatParams(u.params)}`;
}

/** `"Name" <sip:a@b>;tag=1`, `<sip:a@b>;tag=1` or `sip:a@b;tag=1` (then ;params are the header's). */
export function parseNameAddr(s: string): NameAddr | undefined {
  const v = s.trim();
  const lt = indexOutsideQuotes(v, '<');
  if (lt >= 0) {
    const gt = v.indexOf('>', lt);
    if (gt < 0) return undefined;
    let display = v.slice(0, lt).trim();
    if (display.startsWith('"') && display.endsWith('"') && display.length >= 2) display = unquote(display);
    const uri = v.slice(lt + 1, gt).trim();
    if (!uri) return undefined;
    return { displayName: display || undefined, uri, params: parseParams(v.slice(gt + 1).replace(/^\s*;?/, '')) };
  }
  if (v.includes(' ') || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(v)) return undefined;
  const semi = v.indexOf(';');
  const uri = semi < 0 ? v : v.slice(0, semi);
  return { uri, params: parseParams(semi < 0 ? '' : v.slice(semi + 1)) };
}

export function formatNameAddr(n: NameAddr): string {
  const display = n.displayName ? `"${n.displayName.replace(/["\\]/g, '\\$&')}" ` : '';
  return `${display}<${n.uri}>${formatParams(n.params)}`;
}

/** The tag parameter of a From/To value. */
export function tagOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const t = parseNameAddr(value)?.params.tag;
  return t ?? undefined;
}

/** The user part of a From/To/Contact URI (the 20-digit GB28181 ID). */
export function userOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const na = parseNameAddr(value);
  return na ? parseUri(na.uri)?.user : undefined;
}

/** `SIP/2.0/UDP 192.168.1.64:5060;rport;branch=z9hG4bK1` (spaces around / and : tolerated). */
export function parseVia(s: string): Via | undefined {
  const m = /^SIP\s*\/\s*2\.0\s*\/\s*([A-Za-z]+)\s+(\[[0-9a-fA-F:.]+\]|[^\s:;]+)(?:\s*:\s*(\d{1,5}))?\s*((?:;.*)?)$/i.exec(s.trim());
  if (!m) return undefined;
  const port = m[3] ? Number(m[3]) : undefined;
  if (port !== undefined && port > 65535) return undefined;
  return { transport: m[1].toUpperCase(), host: m[2], port, params: parseParams(m[4]) };
}

export function formatVia(v: Via): string {
  return `SIP/2.0/${v.transport} ${v.host}${v.port ? `:${v.port}` : ''}${formatParams(v.params)}`;
}

export function parseCSeq(s: string): CSeq | undefined {
  const m = /^(\d{1,10})\s+([A-Za-z]+)$/.exec(s.trim());
  if (!m) return undefined;
  const seq = Number(m[1]);
  if (seq > 2 ** 32 - 1) return undefined;
  return { seq, method: m[2].toUpperCase() };
}

function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

function indexOutsideQuotes(s: string, ch: string): number {
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    if (quoted) {
      if (s[i] === '\\') i++;
      else if (s[i] === '"') quoted = false;
    } else if (s[i] === '"') quoted = true;
    else if (s[i] === ch) return i;
  }
  return -1;
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (quoted) {
      if (s[i] === '\\') i++;
      else if (s[i] === '"') quoted = false;
    } else if (s[i] === '"') quoted = true;
    else if (s[i] === sep) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}
