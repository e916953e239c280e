/** Writes a message as bytes: start line, headers in order, Content-Length always equal to the body's length. */
import type { SipMessage } from './message.js';

const enc = new TextEncoder();

export function serializeSip(msg: SipMessage): Uint8Array {
  const start = msg.kind === 'request' ? `${msg.method} ${msg.uri} SIP/2.0` : `SIP/2.0 ${msg.status} ${msg.reason}`;
  let head = `${start}\r\n`;
  let wroteLength = false;
  for (const h of msg.headers) {
    if (h.name.toLowerCase() === 'content-length') {
      if (wroteLength) continue;
      wroteLength = true;
      head += `Content-Length: ${msg.body.length}\r\n`;
      continue;
    }
    // A value can never carry a line break (header injection): folded to a space.
    head += `${h.name}: ${h.value.replace(/[\r\n]+/g, ' ')}\r\n`;
  }
  if (!wroteLength) head += `Content-Length: ${msg.body.length}\r\n`;
  head += '\r\n';
  const headBytes = enc.encode(head);
  const out = new Uint8Array(headBytes.length + msg.body.length);
  out.set(headBytes);
  out.set(msg.body, headBytes.length);
  return out;
}
