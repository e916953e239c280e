/**
 * XML text → a small element tree. fast-xml-parser does the parsing; before it runs, any DOCTYPE or
 * ENTITY declaration is refused outright: MANSCDP never needs one, and refusing them closes external
 * entities and entity-expansion bombs (billion laughs) without relying on the parser's own limits.
 */
import { XMLParser } from 'fast-xml-parser';
import { asManscdpError, ManscdpError } from './errors.js';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  /** Concatenated text directly inside the element, trimmed ('' when none). */
  text: string;
  children: XmlElement[];
}

/** Larger than any catalog page a device sends over TCP; bounds parse time. */
export const MAX_BODY_CHARS = 1024 * 1024;
const MAX_DEPTH = 32;

const FORBIDDEN = /<!\s*(DOCTYPE|ENTITY)/i;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
  // References are decoded by decodeReferences below: the library's entity handling costs 2-5x the
  // parse itself, and only the five predefined and numeric references can occur once DTDs are refused.
  processEntities: false,
});

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** &lt; &gt; &amp; &quot; &apos; and &#NN; / &#xHH; → characters; anything else is left as written. */
export function decodeReferences(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return PREDEFINED[ref];
    const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const ok =
      cp === 0x9 ||
      cp === 0xa ||
      cp === 0xd ||
      (cp >= 0x20 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0xfffd) ||
      (cp >= 0x10000 && cp <= 0x10ffff);
    return ok ? String.fromCodePoint(cp) : whole;
  });
}

type Ordered = Record<string, unknown>;

function toElement(node: Ordered, depth: number): XmlElement | undefined {
  if (depth > MAX_DEPTH) throw new ManscdpError('bad-xml', `XML nested deeper than ${MAX_DEPTH} levels`);
  const name = Object.keys(node).find((k) => k !== ':@');
  if (name === undefined || name === '#text') return undefined;
  const attrs: Record<string, string> = Object.create(null);
  const rawAttrs = node[':@'];
  if (rawAttrs && typeof rawAttrs === 'object') {
    for (const [k, v] of Object.entries(rawAttrs)) attrs[k] = decodeReferences(String(v));
  }
  const children: XmlElement[] = [];
  let text = '';
  const content = node[name];
  if (Array.isArray(content)) {
    for (const c of content as Ordered[]) {
      if (c && typeof c === 'object' && '#text' in c) text += String(c['#text']);
      else if (c && typeof c === 'object') {
        const e = toElement(c, depth + 1);
        if (e) children.push(e);
      }
    }
  }
  return { name, attrs, text: decodeReferences(text.trim()), children };
}

/** Parses XML text to its root element. Throws ManscdpError only. */
export function parseXml(text: string): XmlElement {
  if (text.length > MAX_BODY_CHARS)
    throw new ManscdpError('too-large', `body of ${text.length} characters is over the ${MAX_BODY_CHARS} limit`);
  if (FORBIDDEN.test(text))
    throw new ManscdpError('forbidden-dtd', 'DOCTYPE and ENTITY declarations are refused in MANSCDP bodies');
  let parsed: unknown;
  try {
    parsed = parser.parse(text);
  } catch (e) {
    throw asManscdpError(e, 'bad-xml', 'malformed XML');
  }
  if (!Array.isArray(parsed)) throw new ManscdpError('bad-xml', 'malformed XML');
  const roots: XmlElement[] = [];
  for (const n of parsed as Ordered[]) {
    if (n && typeof n === 'object') {
      const e = toElement(n, 0);
      if (e) roots.push(e);
    }
  }
  if (roots.length !== 1)
    throw new ManscdpError('bad-xml', roots.length === 0 ? 'no root element' : 'more than one root element');
  return roots[0];
}

/** First child with this name, compared without case (devices write Alarmstatus and AlarmStatus). */
export function child(e: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!e) return undefined;
  const exact = e.children.find((c) => c.name === name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  return e.children.find((c) => c.name.toLowerCase() === lower);
}

/** Every child with this name (case-insensitive), in order. */
export function children(e: XmlElement | undefined, name: string): XmlElement[] {
  if (!e) return [];
  const lower = name.toLowerCase();
  return e.children.filter((c) => c.name.toLowerCase() === lower);
}

/** Trimmed text of a child, undefined when absent or empty. */
export function childText(e: XmlElement | undefined, name: string): string | undefined {
  const c = child(e, name);
  return c && c.text !== '' ? c.text : undefined;
}

/** An attribute compared without case. */
export function attr(e: XmlElement | undefined, name: string): string | undefined {
  if (!e) return undefined;
  if (name in e.attrs) return e.attrs[name];
  const lower = name.toLowerCase();
  const k = Object.keys(e.attrs).find((a) => a.toLowerCase() === lower);
  return k === undefined ? undefined : e.attrs[k];
}
