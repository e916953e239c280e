/**
 * An rtsps:// or https:// channel's server certificate as administrators read it (ChannelRow.TlsCert): the pin
 * (channels.tls_pin), whether an authority vouches instead, and the refused certificate's
 * fingerprint while the channel is offline with tlsCertChanged, so the channel form can offer to
 * trust it (editchannel's TlsPin).
 *
 * "authority" is read from the channel's state, not stored: a first-use connection pins before the
 * channel can be online (rtsps-trust.ts pins once DESCRIBE is answered, before the probe answers
 * ok or the stream goes live), so an online rtsps:// channel without a pin was let in by an authority.
 * https:// is held to the same policy (https-trust.ts pins once the server answered HTTP).
 */
import type { TlsCertStatus } from '@opencvr/shared';
import type { Channel } from '../../db/schema.js';
import { FINGERPRINT_RE } from '../../access/tls/fingerprint.js';

type Row = Pick<Channel, 'rtsp_url' | 'tls_pin' | 'online' | 'status_reason' | 'status_reason_vars'>;

/** The addresses whose server certificate may be pinned for the channel (access/tls/rtsps-trust.ts, https-trust.ts). */
export const isPinnedTlsUrl = (url: string) => /^(rtsps|https):\/\//i.test(url);

/**
 * The refused certificate's fingerprint of a channel offline with tlsCertChanged (an https:// server's:
 * tlsServerCertChanged), while the pin it
 * was refused against is still the one in force: once an administrator trusted it or cleared the
 * pin, the stored reason is history until the next probe (edited pins are probed at once).
 */
function presentedOf(c: Row): string | undefined {
  if ((c.status_reason !== 'tlsCertChanged' && c.status_reason !== 'tlsServerCertChanged') || !c.tls_pin) return undefined;
  try {
    const { presented, pinned } = JSON.parse(c.status_reason_vars) as { presented?: unknown; pinned?: unknown };
    if (pinned !== c.tls_pin) return undefined;
    return typeof presented === 'string' && FINGERPRINT_RE.test(presented) ? presented : undefined;
  } catch {
    return undefined;
  }
}

/** undefined for a channel that is neither rtsps:// nor https://. */
export function tlsCertStatus(c: Row): TlsCertStatus | undefined {
  if (!isPinnedTlsUrl(c.rtsp_url)) return undefined;
  const state: TlsCertStatus['State'] = c.tls_pin ? 'pinned' : c.online ? 'authority' : 'none';
  const presented = presentedOf(c);
  return { State: state, Pin: c.tls_pin, ...(presented ? { Presented: presented } : {}) };
}
