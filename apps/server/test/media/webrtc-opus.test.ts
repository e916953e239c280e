/** AAC → Opus for WebRTC: the ADTS header written for each AAC frame, and ffmpeg's command line. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAudioSpecificConfig, parseAdtsHeader } from '@opencvr/codec';
import { adtsHeader, opusArgs } from '../../src/media/outputs/webrtc-opus.js';

describe('ADTS header for the transcoder', () => {
  it('reads back as the track: object type, rate, channels and the frame length with the header', () => {
    const track = { config: buildAudioSpecificConfig({ objectType: 2, sampleRate: 44100, channels: 1 }), sampleRate: 44100, channels: 1 };
    const h = parseAdtsHeader(adtsHeader(track, 371));
    expect(h).toMatchObject({ headerLength: 7, frameLength: 378, objectType: 2, sampleRate: 44100, channelConfig: 1, rawBlocks: 1 });
  });

  it('any rate, channel count and length a frame can have round-trips; a broken config falls back to the track', () => {
    const rates = [96000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000];
    fc.assert(
      fc.property(fc.constantFrom(...rates), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 8184 }), (rate, ch, n) => {
        const h = parseAdtsHeader(adtsHeader({ config: buildAudioSpecificConfig({ objectType: 2, sampleRate: rate, channels: ch }), sampleRate: rate, channels: ch }, n));
        expect(h).toMatchObject({ frameLength: n + 7, sampleRate: rate, channelConfig: ch });
      }),
    );
    expect(parseAdtsHeader(adtsHeader({ config: new Uint8Array(0), sampleRate: 16000, channels: 2 }, 10))).toMatchObject({ sampleRate: 16000, channelConfig: 2, objectType: 2 });
  });
});

describe('ffmpeg arguments', () => {
  it('ADTS on stdin, low-delay 20 ms Opus at 48 kHz as RTP to our loopback port (golden)', () => {
    expect(opusArgs(40000).join(' ')).toBe(
      '-hide_banner -nostats -loglevel error -fflags +nobuffer -flags low_delay -probesize 32 -analyzeduration 0 -f aac -i pipe:0 ' +
        '-vn -c:a libopus -b:a 48k -ar 48000 -ac 2 -application lowdelay -frame_duration 20 -f rtp -payload_type 111 rtp://127.0.0.1:40000?pkt_size=1200',
    );
  });
});
