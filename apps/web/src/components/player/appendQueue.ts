/**
 * The MSE player's queue of what waits for the SourceBuffer: media fragments and markers between
 * them (a recording's gap). Live, fragments come one per frame; whatever piled up while the
 * SourceBuffer was busy is taken as ONE buffer for one appendBuffer (MSE takes any run of whole
 * boxes), never across a marker, and at most `maxBytes` at once (unless a single fragment is bigger).
 */
export class AppendQueue<M> {
  private items: (ArrayBuffer | M)[] = [];
  private queued = 0;

  /** Bytes of media queued. */
  get bytes(): number {
    return this.queued;
  }

  get length(): number {
    return this.items.length;
  }

  push(item: ArrayBuffer | M): void {
    this.items.push(item);
    if (item instanceof ArrayBuffer) this.queued += item.byteLength;
  }

  /** Puts media back in front (an append that did not go through). */
  unshift(data: ArrayBuffer): void {
    this.items.unshift(data);
    this.queued += data.byteLength;
  }

  /** The marker at the front, if the front is a marker (taken off). */
  takeMarker(): M | undefined {
    const first = this.items[0];
    if (first === undefined || first instanceof ArrayBuffer) return undefined;
    this.items.shift();
    return first;
  }

  /** The media at the front up to the next marker, joined into one buffer; undefined if none. */
  takeMedia(maxBytes: number): ArrayBuffer | undefined {
    let n = 0;
    let bytes = 0;
    while (n < this.items.length) {
      const item = this.items[n];
      if (!(item instanceof ArrayBuffer) || (n > 0 && bytes + item.byteLength > maxBytes)) break;
      bytes += item.byteLength;
      n++;
    }
    if (n === 0) return undefined;
    const parts = this.items.splice(0, n) as ArrayBuffer[];
    this.queued -= bytes;
    if (n === 1) return parts[0];
    const out = new Uint8Array(bytes);
    let at = 0;
    for (const p of parts) {
      out.set(new Uint8Array(p), at);
      at += p.byteLength;
    }
    return out.buffer;
  }

  clear(): void {
    this.items = [];
    this.queued = 0;
  }
}
