/**
 * ChannelRow.TlsCert from a channel's row (tls-cert-status.ts): rtsps:// and https:// only; pinned, an
 * authority's (online without a pin) or none yet; the refused certificate offered only while the pin
 * it was refused against is in force (not after it was trusted or the pin cleared), and only when the
 * stored reason holds a fingerprint.
 */
import { describe, expect, it } from 'vitest';
import { tlsCertStatus } from '../../src/services/inventory/tls-cert-status.js';

const A = Array.from({ length: 32 }, () => 'AA').join(':');
const B = Array.from({ length: 32 }, () => 'BB').join(':');
const changed = (pinned: string, presented: string) => ({ status_reason: 'tlsCertChanged', status_reason_vars: JSON.stringify({ pinned, presented }) });
const row = (o: Partial<Parameters<typeof tlsCertStatus>[0]> = {}) => ({
  rtsp_url: 'rtsps://10.0.0.9:322/s',
  tls_pin: '',
  online: 0,
  status_reason: '',
  status_reason_vars: '',
  ...o,
});

describe('tlsCertStatus', () => {
  it('gives nothing for other schemes', () => {
    expect(tlsCertStatus(row({ rtsp_url: 'rtsp://10.0.0.9/s', tls_pin: A }))).toBeUndefined();
    expect(tlsCertStatus(row({ rtsp_url: 'rtmps://cdn/live/x' }))).toBeUndefined();
    expect(tlsCertStatus(row({ rtsp_url: '' }))).toBeUndefined();
    expect(tlsCertStatus(row({ rtsp_url: 'http://10.0.0.9/live.m3u8', tls_pin: A }))).toBeUndefined();
  });

  it('https:// channels have the same state (access/tls/https-trust.ts)', () => {
    const serverChanged = { ...changed(A, B), status_reason: 'tlsServerCertChanged' };
    expect(tlsCertStatus(row({ rtsp_url: 'https://10.0.0.9/live.m3u8', tls_pin: A, ...serverChanged }))).toEqual({ State: 'pinned', Pin: A, Presented: B });
    expect(tlsCertStatus(row({ rtsp_url: 'HTTPS://cdn.example/live.flv', online: 1 }))).toEqual({ State: 'authority', Pin: '' });
  });

  it('pinned, authority (online, nothing pinned), none (not connected yet)', () => {
    expect(tlsCertStatus(row({ tls_pin: A, online: 1 }))).toEqual({ State: 'pinned', Pin: A });
    expect(tlsCertStatus(row({ online: 1, rtsp_url: 'RTSPS://cam.example/s' }))).toEqual({ State: 'authority', Pin: '' });
    expect(tlsCertStatus(row())).toEqual({ State: 'none', Pin: '' });
  });

  it('offers the refused certificate while its pin is in force, not after it was trusted or the pin cleared', () => {
    expect(tlsCertStatus(row({ tls_pin: A, ...changed(A, B) }))).toEqual({ State: 'pinned', Pin: A, Presented: B });
    // Trusted: the stored reason is older than the pin.
    expect(tlsCertStatus(row({ tls_pin: B, ...changed(A, B) }))).toEqual({ State: 'pinned', Pin: B });
    // Cleared: nothing is refused without a pin.
    expect(tlsCertStatus(row({ ...changed(A, B) }))).toEqual({ State: 'none', Pin: '' });
  });

  it('offers nothing from a stored reason without a fingerprint in it', () => {
    for (const vars of ['', '{', JSON.stringify({ pinned: A }), JSON.stringify({ pinned: A, presented: 'not-a-fingerprint' }), JSON.stringify({ pinned: A, presented: 7 })]) {
      expect(tlsCertStatus(row({ tls_pin: A, status_reason: 'tlsCertChanged', status_reason_vars: vars })), vars).toEqual({ State: 'pinned', Pin: A });
    }
  });
});
