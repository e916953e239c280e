/**
 * One WS-Discovery probe (UDP multicast 239.255.255.250:3702) through the `onvif` client, bounded by
 * a timeout: it returns what answered by then, an empty list when nothing did, and never throws.
 */
import onvif from 'onvif';
import type { DiscoveredDevice } from '@opencvr/shared';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Loose = any;

// Discovery is a process-wide EventEmitter that emits 'error' for every stray datagram and socket
// problem; without a listener each would be thrown as an uncaught exception.
let guarded = false;
function guard() {
  if (guarded) return;
  guarded = true;
  onvif.Discovery.on('error', () => {});
}

const list = (v: unknown): string[] =>
  (Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : (v as Loose)?._ ?? '')
    .split(/\s+/)
    .filter(Boolean);

/** The value of an ONVIF scope such as onvif://www.onvif.org/name/<value>. */
function scope(scopes: string[], key: string): string {
  const prefix = `onvif://www.onvif.org/${key}/`;
  const hit = scopes.find((s) => s.toLowerCase().startsWith(prefix.toLowerCase()));
  if (!hit) return '';
  try {
    return decodeURIComponent(hit.slice(prefix.length));
  } catch {
    return hit.slice(prefix.length);
  }
}

export function toDevice(match: Loose): DiscoveredDevice | undefined {
  const m = match?.probeMatches?.probeMatch ?? match;
  const first = Array.isArray(m) ? m[0] : m;
  const address = first?.endpointReference?.address;
  if (typeof address !== 'string' || !address) return undefined;
  const scopes = list(first?.scopes);
  return {
    Address: address,
    XAddrs: list(first?.XAddrs),
    Name: scope(scopes, 'name'),
    Hardware: scope(scopes, 'hardware'),
    Manufacturer: scope(scopes, 'manufacturer') || scope(scopes, 'mfr'),
  };
}

export function discoverOnvif(timeoutMs: number): Promise<DiscoveredDevice[]> {
  guard();
  return new Promise<DiscoveredDevice[]>((resolve) => {
    let done = false;
    const finish = (found: unknown[]) => {
      if (done) return;
      done = true;
      clearTimeout(backstop);
      const seen = new Map<string, DiscoveredDevice>();
      for (const f of found) {
        const d = toDevice(f);
        if (d && !seen.has(d.Address)) seen.set(d.Address, d);
      }
      resolve([...seen.values()]);
    };
    // In case the client never calls back (it should, after its own timeout).
    const backstop = setTimeout(() => finish([]), timeoutMs + 1000);
    try {
      onvif.Discovery.probe({ timeout: timeoutMs, resolve: false }, (_err: unknown, cams?: unknown[]) => {
        // Errors are stray answers or a socket problem; whatever was found still counts.
        finish(Array.isArray(cams) ? cams : []);
      });
    } catch {
      finish([]);
    }
  });
}
