/**
 * A repair of werift's DTLS client (0.24/0.25): its client fails the whole handshake when a second
 * HelloVerifyRequest arrives (Flight3.exec throws when it is already in flight 3). That happens on
 * any busy machine: the client retransmits its first ClientHello after 500 ms without an answer,
 * the peer's DTLS server answers both, and the second answer kills the session. Seen on loopback
 * as "beyond ~15 WHEP viewers the sessions fail" (the server answers WHEP offers as the DTLS client,
 * a=setup:active). RFC 6347 4.2.1 says a client must handle more than one HelloVerifyRequest;
 * the retransmission timer of flight 3 is already running, so a later one is dropped here.
 *
 * The hook uses werift's public fields (RTCDtlsTransport.dtls, DtlsSocket.onHandleHandshakes,
 * DtlsContext.flight): the socket is made synchronously right after the transport turns
 * "connecting", and the client sends its first ClientHello 100 ms later, so a microtask is in time.
 */
import type { RTCDtlsTransport } from 'werift';

/** DTLS HandshakeType hello_verify_request (RFC 6347 4.3.2). */
const HELLO_VERIFY_REQUEST = 3;
/** werift's flight number once the ClientHello with the cookie is out. */
const FLIGHT_3 = 3;

/** Makes the transport's DTLS client ignore HelloVerifyRequests after the first. */
export function tolerateRepeatedHelloVerify(transport: RTCDtlsTransport): void {
  const guard = () => {
    const socket = transport.dtls;
    if (!socket) return;
    const handle = socket.onHandleHandshakes.bind(socket);
    socket.onHandleHandshakes = (assembled) => {
      const rest = socket.dtls.flight >= FLIGHT_3 ? assembled.filter((h) => h.msg_type !== HELLO_VERIFY_REQUEST) : assembled;
      return rest.length ? handle(rest) : Promise.resolve();
    };
  };
  let done = false;
  transport.onStateChange.subscribe((state) => {
    if (state !== 'connecting' || done) return;
    done = true;
    queueMicrotask(guard);
  });
}

/** DTLS ContentType alert, and the close_notify alert (level warning, description 0: RFC 5246 7.2.1). */
const ALERT = 21;
const CLOSE_NOTIFY = Buffer.from([1, 0]);

/**
 * Sends a DTLS close_notify on a connected transport, as a browser does when it closes its peer:
 * werift's close() sends none, so a browser whose session the server ended (its stream stopped, its
 * camera's codec changed) learnt it only from unanswered ICE checks, ~7 s later. With it, the
 * browser's RTCDtlsTransport turns 'closed' at once. The record is encrypted with the transport's
 * own cipher state (werift's public DtlsSocket fields), as werift sends application data.
 */
export async function sendCloseNotify(transport: RTCDtlsTransport): Promise<void> {
  const socket = transport.dtls;
  if (transport.state !== 'connected' || !socket) return;
  const { dtls, cipher } = socket;
  const header = { contentType: ALERT, protocolVersion: dtls.version, epoch: dtls.epoch, sequenceNumber: ++dtls.recordSequenceNumber, contentLen: CLOSE_NOTIFY.length };
  const record = cipher.encryptPacket({ recordLayerHeader: header, fragment: CLOSE_NOTIFY } as Parameters<typeof cipher.encryptPacket>[0]);
  const head = Buffer.alloc(13);
  head.writeUInt8(header.contentType, 0);
  head.writeUInt8(header.protocolVersion.major, 1);
  head.writeUInt8(header.protocolVersion.minor, 2);
  head.writeUInt16BE(header.epoch, 3);
  head.writeUIntBE(header.sequenceNumber, 5, 6);
  head.writeUInt16BE(record.fragment.length, 11);
  await socket.transport.send(Buffer.concat([head, record.fragment]));
}
