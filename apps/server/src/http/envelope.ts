/**
 * The two answer shapes of the API: EasyCVR's /api/v1 envelope and the /api/v2 {code,msg,data}.
 */
import type { EasyDarwinEnvelope, ErrorAnswer, V2Envelope } from '@opencvr/shared';

export function v1<B extends object>(messageType: string, body: B, errorNum = 200, errorString = 'Success OK'): EasyDarwinEnvelope<B> {
  return {
    EasyDarwin: {
      Header: { CSeq: '1', Version: 'v1', MessageType: messageType, ErrorNum: String(errorNum), ErrorString: errorString },
      Body: body,
    },
  };
}

export function v2<D>(data: D, msg = 'success', code = 200): V2Envelope<D> {
  return { code, msg, data };
}

/** An error answer readable by both kinds of client: top-level code/msg and, for v1, the envelope. */
export function errorAnswer(url: string, status: number, msg: string, refused?: { field: string; reason: string }): ErrorAnswer | V2Envelope<null> {
  if (url.startsWith('/api/v2/')) return { code: status, msg, ...refused, data: null };
  return { code: status, msg, ...refused, ...v1('MSG_SC_ERROR_ACK', {}, status, msg) };
}
