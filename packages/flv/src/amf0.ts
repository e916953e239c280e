/**
 * AMF0 (Action Message Format 0), the value encoding of FLV script data: number, boolean, string
 * (long string past 65535 bytes), object, null, undefined, ECMA array and strict array. The decoder
 * exists for tests and for reading back what the encoder wrote; it refuses references, dates and XML.
 */

export type Amf0Value = number | boolean | string | null | undefined | Amf0Object | Amf0EcmaArray | Amf0Value[];
export interface Amf0Object {
  [key: string]: Amf0Value;
}
/** An ECMA array (what onMetaData carries): an object with a count, tagged so it encodes as 0x08. */
export class Amf0EcmaArray {
  constructor(readonly entries: Record<string, Amf0Value>) {}
}

export const Amf0Marker = {
  number: 0x00,
  boolean: 0x01,
  string: 0x02,
  object: 0x03,
  null: 0x05,
  undefined: 0x06,
  ecmaArray: 0x08,
  objectEnd: 0x09,
  strictArray: 0x0a,
  longString: 0x0c,
} as const;

export class Amf0Error extends Error {}

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });

class Writer {
  private buf = new Uint8Array(256);
  private view = new DataView(this.buf.buffer);
  length = 0;
  private ensure(n: number) {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number) {
    this.ensure(1);
    this.buf[this.length++] = v;
  }
  u16(v: number) {
    this.ensure(2);
    this.view.setUint16(this.length, v);
    this.length += 2;
  }
  u32(v: number) {
    this.ensure(4);
    this.view.setUint32(this.length, v);
    this.length += 4;
  }
  f64(v: number) {
    this.ensure(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
  }
  bytes(b: Uint8Array) {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  done() {
    return this.buf.slice(0, this.length);
  }
}

function writeKey(w: Writer, key: string) {
  const b = enc.encode(key);
  if (b.length > 0xffff) throw new Amf0Error('amf0: property name above 65535 bytes');
  w.u16(b.length);
  w.bytes(b);
}

function writeProps(w: Writer, entries: Record<string, Amf0Value>) {
  for (const [k, v] of Object.entries(entries)) {
    writeKey(w, k);
    writeValue(w, v);
  }
  w.u16(0);
  w.u8(Amf0Marker.objectEnd);
}

function writeValue(w: Writer, v: Amf0Value) {
  if (typeof v === 'number') {
    w.u8(Amf0Marker.number);
    w.f64(v);
  } else if (typeof v === 'boolean') {
    w.u8(Amf0Marker.boolean);
    w.u8(v ? 1 : 0);
  } else if (typeof v === 'string') {
    const b = enc.encode(v);
    if (b.length > 0xffff) {
      w.u8(Amf0Marker.longString);
      w.u32(b.length);
    } else {
      w.u8(Amf0Marker.string);
      w.u16(b.length);
    }
    w.bytes(b);
  } else if (v === null) {
    w.u8(Amf0Marker.null);
  } else if (v === undefined) {
    w.u8(Amf0Marker.undefined);
  } else if (v instanceof Amf0EcmaArray) {
    w.u8(Amf0Marker.ecmaArray);
    w.u32(Object.keys(v.entries).length);
    writeProps(w, v.entries);
  } else if (Array.isArray(v)) {
    w.u8(Amf0Marker.strictArray);
    w.u32(v.length);
    for (const x of v) writeValue(w, x);
  } else {
    w.u8(Amf0Marker.object);
    writeProps(w, v);
  }
}

/** The AMF0 encoding of some values, one after the other (script data: name, then value). */
export function encodeAmf0(...values: Amf0Value[]): Uint8Array {
  const w = new Writer();
  for (const v of values) writeValue(w, v);
  return w.done();
}

/** Reads every value of `data` (throws Amf0Error on anything malformed or unsupported). */
export function decodeAmf0(data: Uint8Array): Amf0Value[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let p = 0;
  const need = (n: number) => {
    if (p + n > data.length) throw new Amf0Error(`amf0: truncated at ${p}`);
  };
  const str = (n: number) => {
    need(n);
    try {
      return dec.decode(data.subarray(p, (p += n)));
    } catch {
      throw new Amf0Error('amf0: string is not UTF-8');
    }
  };
  const u16 = () => {
    need(2);
    return view.getUint16((p += 2) - 2);
  };
  const u32 = () => {
    need(4);
    return view.getUint32((p += 4) - 4);
  };
  const props = (depth: number) => {
    const out: Record<string, Amf0Value> = {};
    for (;;) {
      const key = str(u16());
      if (key === '') {
        need(1);
        if (data[p] === Amf0Marker.objectEnd) {
          p++;
          return out;
        }
      }
      // defineProperty: a key such as __proto__ stays a plain property
      Object.defineProperty(out, key, {
        value: value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  };
  const value = (depth: number): Amf0Value => {
    if (depth > 64) throw new Amf0Error('amf0: nested too deep');
    need(1);
    const marker = data[p++];
    switch (marker) {
      case Amf0Marker.number:
        need(8);
        return view.getFloat64((p += 8) - 8);
      case Amf0Marker.boolean:
        need(1);
        return data[p++] !== 0;
      case Amf0Marker.string:
        return str(u16());
      case Amf0Marker.longString:
        return str(u32());
      case Amf0Marker.null:
        return null;
      case Amf0Marker.undefined:
        return undefined;
      case Amf0Marker.object:
        return props(depth);
      case Amf0Marker.ecmaArray:
        u32(); // the count is a hint; the end marker ends it
        return new Amf0EcmaArray(props(depth));
      case Amf0Marker.strictArray: {
        const n = u32();
        if (n > data.length - p) throw new Amf0Error('amf0: array longer than the data');
        const arr: Amf0Value[] = [];
        for (let i = 0; i < n; i++) arr.push(value(depth + 1));
        return arr;
      }
      default:
        throw new Amf0Error(`amf0: unsupported marker 0x${marker.toString(16)} at ${p - 1}`);
    }
  };
  const out: Amf0Value[] = [];
  while (p < data.length) out.push(value(0));
  return out;
}
