/**
 * Whose certificate the channel form's certificate section is about: an rtsps:// camera's, or an
 * https:// stream server's (HLS, HTTP-FLV), which the server pins alike (TlsCert). The words differ;
 * what they show and do does not.
 */

/** An https:// address: its certificate is a stream server's, not a camera's. */
export const isServerAddress = (url: string | undefined) => /^https:\/\//i.test(url ?? '');

/** The i18n key of a section word for a camera or for a stream server. */
export const tlsCertKey = (server: boolean, key: 'title' | 'none' | 'presented' | 'confirmTitle' | 'confirmBody') =>
  server ? `devices.tlsCert.server.${key}` : `devices.tlsCert.${key}`;
