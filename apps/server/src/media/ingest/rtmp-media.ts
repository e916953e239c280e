/**
 * RTMP audio and video messages as the hub's tracks and access units, apart from the socket (the
 * native RTMP pull source feeds it; byte-fixture and fuzz tests drive it alone). A message's body is
 * an FLV tag's body:
 * - video: H.264 (codec id 7) and H.265 as legacy codec id 12 (the AVC layout) or enhanced RTMP
 *   ('hvc1' FourCC): the sequence header's decoder configuration record gives the parameter sets and
 *   the NAL length size, each frame its length-prefixed NAL units and composition time;
 * - audio: AAC (the sequence header's AudioSpecificConfig, then raw frames) and G.711 A-law/µ-law
 *   (sound formats 7 and 8, 8 kHz). Audio ffmpeg can decode (MP3, Speex, Nellymoser, PCM, ADPCM)
 *   goes with its time to the sink's `encode` (rtmp-audio-encoder.ts), whose AAC comes back through
 *   encodedAudio() on the same timeline (audioLost() when none will); other audio, or all of it
 *   without `encode`, is said once through `unsupported`.
 * The tracks are given once both are known, or once the metadata says one is absent, or after
 * waitMs of stream time with one (announcedWaitMs when the metadata names the missing one): units before that wait (a stream starts on a keyframe, which is
 * worth keeping). A sequence header that changes afterwards gives the tracks again.
 * Times come from RtmpTimeline (wrap, interleaving, publisher restarts). A message that cannot be
 * read throws RtmpMediaError, and nothing else; the reader stays usable for the next one.
 */
import {
  aacTrack,
  CodecError,
  g711Track,
  parseAvcC,
  parseHvcC,
  sameBytes,
  videoTrackFromParameterSets,
  type AccessUnit,
  type AudioTrack,
  type Track,
  type VideoTrack,
} from '@opencvr/codec';
import { ENCODED_SOUND_FORMATS } from './rtmp-audio-encoder.js';
import { RtmpTimeline } from './rtmp-timeline.js';

export class RtmpMediaError extends Error {
  override readonly name = 'RtmpMediaError';
}

export interface RtmpMediaSink {
  tracks(tracks: Track[]): void;
  /** The unit's bytes are views of the message, which is not reused. */
  unit(track: number, unit: AccessUnit): void;
  /** A codec the hub does not carry (said once per kind). */
  unsupported(kind: 'audio' | 'video', codec: string): void;
  /**
   * Audio to encode to AAC (ENCODED_SOUND_FORMATS): the message's body and its time (ms) on the
   * output timeline; the AAC comes back through encodedAudio(). Without it such audio is unsupported.
   */
  encode?(ms: number, body: Uint8Array, codec: string): void;
}

export interface RtmpMediaOptions {
  /** The channel's EnableAudio: audio messages are ignored without it. */
  audio: boolean;
  /** How much stream time to wait for the second track (default 1000 ms). */
  waitMs?: number;
  /**
   * How long to wait for a track the metadata names (default 5000 ms): a relaying server (nginx-rtmp)
   * sends a player that joins mid-stream the audio at once and the video from its next keyframe, up to
   * a GOP later; given without it, the video would come as a second init (the players start again).
   */
  announcedWaitMs?: number;
  /** Units held while waiting, at most (default 600). */
  maxPending?: number;
}

const SOUND_FORMATS: Record<number, string> = {
  0: 'linear PCM',
  1: 'ADPCM',
  2: 'MP3',
  3: 'linear PCM',
  4: 'Nellymoser',
  5: 'Nellymoser',
  6: 'Nellymoser',
  9: 'reserved',
  11: 'Speex',
  14: 'MP3',
  15: 'device-specific sound',
};
const VIDEO_CODECS: Record<number, string> = { 2: 'Sorenson H.263', 3: 'Screen video', 4: 'VP6', 5: 'VP6 alpha', 6: 'Screen video 2' };
const SOUND = { pcma: 7, pcmu: 8, aac: 10 } as const;
const CODEC_ID = { avc: 7, hevc: 12 } as const;
/** Enhanced RTMP: the first byte's top bit; packet types (Veovera enhanced RTMP v1). */
const EX_HEADER = 0x80;
const EX = { sequenceStart: 0, codedFrames: 1, codedFramesX: 3 } as const;
/** Frame type 5: a video info/command frame, no picture. */
const COMMAND_FRAME = 5;
const KEY_FRAME = 1;

type VideoPacket =
  | { kind: 'config'; codec: 'h264' | 'h265'; record: Uint8Array }
  | { kind: 'frame'; codec: 'h264' | 'h265'; keyframe: boolean; cts: number; data: Uint8Array }
  | { kind: 'skip' }
  | { kind: 'unsupported'; codec: string };

/** What a video message holds, from its (legacy or enhanced) header. */
export function videoPacket(b: Uint8Array): VideoPacket {
  if (b.length < 1) return { kind: 'skip' };
  if (b[0] & EX_HEADER) {
    const frameType = (b[0] >> 4) & 7;
    const type = b[0] & 0x0f;
    if (b.length < 5) throw new RtmpMediaError('enhanced video header cut short');
    const fourcc = String.fromCharCode(b[1], b[2], b[3], b[4]);
    if (frameType === COMMAND_FRAME) return { kind: 'skip' };
    if (fourcc !== 'hvc1') return { kind: 'unsupported', codec: /^[\x20-\x7e]{4}$/.test(fourcc) ? fourcc : 'unknown FourCC' };
    if (type === EX.sequenceStart) return { kind: 'config', codec: 'h265', record: b.subarray(5) };
    if (type === EX.codedFrames) {
      if (b.length < 8) throw new RtmpMediaError('enhanced video frame without its composition time');
      return { kind: 'frame', codec: 'h265', keyframe: frameType === KEY_FRAME, cts: si24(b, 5), data: b.subarray(8) };
    }
    if (type === EX.codedFramesX) return { kind: 'frame', codec: 'h265', keyframe: frameType === KEY_FRAME, cts: 0, data: b.subarray(5) };
    return { kind: 'skip' };
  }
  const frameType = b[0] >> 4;
  const id = b[0] & 0x0f;
  if (id !== CODEC_ID.avc && id !== CODEC_ID.hevc) return { kind: 'unsupported', codec: VIDEO_CODECS[id] ?? `codec id ${id}` };
  if (frameType === COMMAND_FRAME) return { kind: 'skip' };
  if (b.length < 5) throw new RtmpMediaError('video header cut short');
  const codec = id === CODEC_ID.avc ? 'h264' : 'h265';
  if (b[1] === 0) return { kind: 'config', codec, record: b.subarray(5) };
  if (b[1] === 1) return { kind: 'frame', codec, keyframe: frameType === KEY_FRAME, cts: si24(b, 2), data: b.subarray(5) };
  return { kind: 'skip' };
}

/** The NAL units of a frame: `lengthSize`-byte big-endian lengths, each followed by its unit. */
export function lengthPrefixed(data: Uint8Array, lengthSize: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let p = 0; p < data.length; ) {
    if (p + lengthSize > data.length) throw new RtmpMediaError('NAL unit length cut short');
    let len = 0;
    for (let i = 0; i < lengthSize; i++) len = len * 256 + data[p + i];
    p += lengthSize;
    if (len > data.length - p) throw new RtmpMediaError(`NAL unit of ${len} bytes past the message end`);
    if (len > 0) out.push(data.subarray(p, p + len));
    p += len;
  }
  return out;
}

function si24(b: Uint8Array, at: number): number {
  const v = (b[at] << 16) | (b[at + 1] << 8) | b[at + 2];
  return v & 0x800000 ? v - 0x1000000 : v;
}

/** What onMetaData says is in the stream: undefined where it says nothing. */
export function metadataHints(meta: Record<string, unknown>): { video?: boolean; audio?: boolean } {
  // ffmpeg, OBS and nginx-rtmp write a codec id only for a track that is there.
  if ('videocodecid' in meta || 'audiocodecid' in meta) return { video: 'videocodecid' in meta, audio: 'audiocodecid' in meta };
  const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  return { video: flag(meta.hasVideo), audio: flag(meta.hasAudio) };
}

interface VideoState {
  track: VideoTrack;
  lengthSize: number;
  last?: number;
}
interface AudioState {
  track: AudioTrack;
  last?: number;
  /** AAC: where the next frame falls (its times in ms are rounded; a frame is 1024 samples). */
  next?: number;
}

export class RtmpMedia {
  private video?: VideoState;
  private audio?: AudioState;
  private hints: { video?: boolean; audio?: boolean } = {};
  private readonly said = new Set<string>();
  private readonly timeline = new RtmpTimeline();
  /** The tracks given to the sink (and each kind's index in them), once given. */
  private given?: { video: number; audio: number };
  private pending: { kind: 'video' | 'audio'; unit: AccessUnit; ms: number }[] = [];
  /** The output time of the last audio message sent to be encoded. */
  private encodeLast?: number;
  /** Whether the stream's latest audio went to the encoder (its AAC is the audio) or is carried as it is. */
  private audioEncoded = false;

  constructor(
    private readonly sink: RtmpMediaSink,
    private readonly opts: RtmpMediaOptions,
  ) {}

  /** onMetaData's object. */
  metadata(meta: Record<string, unknown>) {
    this.hints = metadataHints(meta);
  }

  /** Units given (or held for the tracks) so far. */
  units = 0;

  videoMessage(timestamp: number, body: Uint8Array) {
    const p = videoPacket(body);
    if (p.kind === 'skip') return;
    if (p.kind === 'unsupported') return this.unsupported('video', p.codec);
    if (p.kind === 'config') {
      const config = this.codec(() => (p.codec === 'h264' ? parseAvcC(p.record) : parseHvcC(p.record)));
      const [sps, pps, vps] = [config.sps[0], config.pps[0], config.vps[0]];
      if (!sps || !pps || (p.codec === 'h265' && !vps)) throw new RtmpMediaError(`${p.codec} sequence header without its parameter sets`);
      const track = this.codec(() => videoTrackFromParameterSets(p.codec, { sps, pps, vps }));
      const same = this.video && sameTrack(this.video.track, track);
      this.video = { track, lengthSize: config.lengthSize, last: this.video?.last };
      if (!same) this.changed();
      return;
    }
    const v = this.video;
    // Frames before their sequence header cannot be decoded.
    if (!v) return;
    if (p.codec !== v.track.codec) throw new RtmpMediaError(`${p.codec} frame in a ${v.track.codec} stream`);
    const nalus = lengthPrefixed(p.data, v.lengthSize);
    if (!nalus.length) return;
    const ms = this.timeline.at(timestamp, v.last);
    v.last = ms;
    this.emit('video', ms, { kind: 'video', dts: ms * 90, pts: (ms + p.cts) * 90, keyframe: p.keyframe, nalus });
  }

  audioMessage(timestamp: number, body: Uint8Array) {
    if (!this.opts.audio || body.length < 1) return;
    // Tracks given without audio: audio that starts later is not added.
    if (this.given && this.given.audio < 0) return;
    const format = body[0] >> 4;
    if (this.sink.encode && ENCODED_SOUND_FORMATS.has(format) && !this.said.has('audio')) {
      const ms = this.timeline.at(timestamp, this.encodeLast);
      this.encodeLast = ms;
      this.audioEncoded = true;
      this.sink.encode(ms, body, SOUND_FORMATS[format]);
      return;
    }
    this.audioEncoded = false;
    if (format === SOUND.aac) return this.aacMessage(body, () => this.timeline.at(timestamp, this.audio?.last));
    if (format === SOUND.pcma || format === SOUND.pcmu) {
      if (body.length < 2) return;
      const track = g711Track(format === SOUND.pcma ? 'pcma' : 'pcmu', 8000, body[0] & 1 ? 2 : 1);
      if (!this.audio || !sameTrack(this.audio.track, track)) {
        this.audio = { track, last: this.audio?.last };
        this.changed();
      }
      return this.audioUnit(this.timeline.at(timestamp, this.audio.last), body.subarray(1));
    }
    this.unsupported('audio', SOUND_FORMATS[format] ?? `sound format ${format}`);
  }

  /**
   * The encoder's AAC message (sequence header or frame) at `ms`, already on the output timeline.
   * Dropped when the stream's audio is carried as it is again (it changed to AAC or G.711).
   */
  encodedAudio(ms: number, body: Uint8Array) {
    if (!this.opts.audio || !this.audioEncoded || (this.given && this.given.audio < 0)) return;
    // A frame behind the last (a restarted encoder's priming) is dropped: a track's times only go forward.
    if (body.length > 2 && body[1] === 1 && this.audio?.last !== undefined && ms <= this.audio.last) return;
    this.aacMessage(body, () => ms);
  }

  /** The encoded audio will not come (the encoder failed before any): the tracks are not waited for. */
  audioLost() {
    if (this.said.has('audio')) return;
    this.said.add('audio');
    // Tracks already given stay as they are (giving them again would start every player again).
    if (!this.given && this.ready(this.pending.at(-1)?.ms)) this.give();
  }

  /** An AAC message; `at`: its output time, asked only for a frame that is kept. */
  private aacMessage(body: Uint8Array, at: () => number) {
    if (body.length < 2) throw new RtmpMediaError('AAC message without its packet type');
    if (body[1] === 0) {
      const track = this.codec(() => aacTrack(body.slice(2)));
      const same = this.audio && sameTrack(this.audio.track, track);
      this.audio = { track, last: this.audio?.last };
      if (!same) this.changed();
      return;
    }
    if (!this.audio || this.audio.track.codec !== 'aac' || body.length < 3) return;
    this.audioUnit(at(), body.subarray(2));
  }

  private audioUnit(ms: number, data: Uint8Array) {
    const a = this.audio!;
    a.last = ms;
    const rate = a.track.clockRate;
    let pts = Math.round((ms * rate) / 1000);
    // AAC frames at their exact spacing while the rounded times agree with it (within 2 ms).
    if (a.track.codec === 'aac') {
      if (a.next !== undefined && Math.abs(pts - a.next) <= (2 * rate) / 1000) pts = a.next;
      a.next = pts + 1024;
    }
    this.emit('audio', ms, { kind: 'audio', pts, data });
  }

  private emit(kind: 'video' | 'audio', ms: number, unit: AccessUnit) {
    this.units++;
    if (this.given) {
      const index = this.given[kind];
      if (index >= 0) this.sink.unit(index, unit);
      return;
    }
    this.pending.push({ kind, unit, ms });
    if (this.ready(ms)) this.give();
  }

  /** A track appeared or changed. */
  private changed() {
    if (this.given) this.give();
    else if (this.ready(this.pending.at(-1)?.ms)) this.give();
  }

  /** Whether the tracks are known well enough to give them. */
  private ready(nowMs: number | undefined): boolean {
    const { video, audio } = this;
    if (!video && !audio) return false;
    if (this.pending.length >= (this.opts.maxPending ?? 600)) return true;
    const wantVideo = this.hints.video !== false;
    const wantAudio = this.opts.audio && this.hints.audio !== false && !this.said.has('audio');
    if ((video || !wantVideo) && (audio || !wantAudio)) return true;
    // Audio being encoded is there for sure (its messages came): its AAC is waited for as for a named track.
    const announced =
      (!video && this.hints.video === true && !this.said.has('video')) || (!audio && wantAudio && (this.hints.audio === true || this.audioEncoded));
    const wait = announced ? (this.opts.announcedWaitMs ?? 5000) : (this.opts.waitMs ?? 1000);
    const first = this.pending[0]?.ms;
    return first !== undefined && nowMs !== undefined && nowMs - first >= wait;
  }

  private give() {
    const tracks: Track[] = [];
    const given = { video: -1, audio: -1 };
    if (this.video) given.video = tracks.push(this.video.track) - 1;
    if (this.audio && (!this.given || this.given.audio >= 0)) given.audio = tracks.push(this.audio.track) - 1;
    this.given = given;
    this.sink.tracks(tracks);
    const held = this.pending;
    this.pending = [];
    for (const p of held) if (given[p.kind] >= 0) this.sink.unit(given[p.kind], p.unit);
  }

  private unsupported(kind: 'audio' | 'video', codec: string) {
    if (this.said.has(kind)) return;
    this.said.add(kind);
    this.sink.unsupported(kind, codec);
  }

  private codec<T>(f: () => T): T {
    try {
      return f();
    } catch (err) {
      if (err instanceof CodecError) throw new RtmpMediaError(err.message);
      throw err;
    }
  }
}

function sameTrack(a: Track, b: Track): boolean {
  if (a.kind === 'video' && b.kind === 'video')
    return a.codec === b.codec && sameBytes(a.sps, b.sps) && sameBytes(a.pps, b.pps) && (a.vps === b.vps || (!!a.vps && !!b.vps && sameBytes(a.vps, b.vps)));
  if (a.kind === 'audio' && b.kind === 'audio') return a.codec === b.codec && a.channels === b.channels && a.sampleRate === b.sampleRate && sameBytes(a.config, b.config);
  return false;
}
