/**
 * A CDN push address as logs may show it. For an RTMP ingest the stream key (the path after the
 * app, and any query) is the password: whoever has it publishes on the channel's CDN account, so a
 * log line, which more people read than the channel's settings, shows neither it nor a user part.
 * The reason a push ended may repeat the address or the key (a server's refusal, an error that names
 * the address), so those words go through maskPushUrl too.
 */

/** `rtmp://user:pw@host/app/KEY?x` → `rtmp://host/app/***`; anything not of that shape → `***`. */
export function maskedPushUrl(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)(?:[^@/?#\s]*@)?([^/?#\s]+)(\/[^/?#\s]*)?(.*)$/i.exec(url);
  if (!m) return '***';
  const [, scheme, host, app = '', rest] = m;
  return `${scheme}${host}${app}${rest ? '/***' : ''}`;
}

/** `text` with the address, and its stream key and password on their own, masked. */
export function maskPushUrl(text: string, url: string): string {
  let out = text.split(url).join(maskedPushUrl(url));
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^:@/]*:([^@/]*)@)?[^/?#\s]+\/[^/?#\s]*[/?](.+)$/i.exec(url);
  // What is left of a key or password in other words (too short a one would mask ordinary words).
  for (const secret of [m?.[2], m?.[1]]) if (secret && secret.length >= 4) out = out.split(secret).join('***');
  return out;
}
