/**
 * Program Stream → frames: PES payloads gathered into access units per elementary stream.
 *
 * Video: a PES with a PTS different from the frame being gathered starts a new frame (devices split
 * one picture into several PES: SPS, PPS, SEI and slices with one PTS, or a large slice cut at 64 KiB
 * with the PTS only on the first), so a frame is complete when the next one starts, or at once when
 * the transport marks the frame's end (`endOfFrame()`, the RTP marker bit). Audio: each PES is one or
 * more frames (ADTS frames for AAC; a run of samples for G.711).
 *
 * Codec: from the program stream map when there is one; without a PSM (devices that send it only
 * with keyframes, or never) from the elementary stream itself (H.265 VPS / H.264 SPS; ADTS sync →
 * AAC, else the configured G.711 law). Streams of a type this platform cannot play are counted and
 * dropped (`unsupported`). Timestamps are 90 kHz, unwrapped past the 33-bit wrap.
 */
import {
  adtsToAudioSpecificConfig,
  AAC_SAMPLE_RATES,
  CodecError,
  type AudioCodec,
  isH264Keyframe,
  isH265Keyframe,
  splitAdts,
  splitAnnexB,
  type VideoCodec,
} from '@opencvr/codec';
import { codecOfStreamType, isAudioStreamId, isVideoStreamId, PTS_MODULO } from './constants.js';
import { PsParser, type PsmEntry, type PsPacketHandler, type PsParserStats } from './parser.js';
import { VideoUnitSplitter, type RawVideoUnit } from './video-au.js';

export interface PsVideoFrame {
  kind: 'video';
  codec: VideoCodec;
  streamId: number;
  /** 90 kHz, unwrapped. */
  pts: number;
  dts: number;
  keyframe: boolean;
  /** The frame's Annex-B bytes. */
  data: Uint8Array;
  /** Its NAL units, without start codes (views into `data`). */
  nalus: Uint8Array[];
  /** Part of the frame was lost in transport or cut short. */
  damaged: boolean;
}

export interface PsAudioFrame {
  kind: 'audio';
  codec: AudioCodec;
  streamId: number;
  /** 90 kHz, unwrapped. */
  pts: number;
  /** One raw AAC frame (ADTS header removed) or a run of G.711 samples. */
  data: Uint8Array;
  sampleRate: number;
  channels: number;
  /** AAC AudioSpecificConfig (from the ADTS header); undefined for G.711. */
  config?: Uint8Array;
}

export type PsFrame = PsVideoFrame | PsAudioFrame;

export interface PsDemuxerOptions {
  /** Audio without a PSM entry and without ADTS sync is taken as this G.711 law (GB28181's default is A-law). */
  defaultAudio?: 'pcma' | 'pcmu';
  /** A video frame larger than this is dropped (a device that never changes PTS cannot grow memory without end). */
  maxFrameBytes?: number;
}

export interface PsDemuxerStats extends PsParserStats {
  videoFrames: number;
  audioFrames: number;
  damagedFrames: number;
  /** Frames dropped: unsupported stream type, codec not recognised yet, too large. */
  dropped: number;
}

interface StreamState {
  id: number;
  /** From the PSM (undefined: not mapped). */
  streamType?: number;
  codec?: VideoCodec | AudioCodec;
  /** Audio: the open PES's payload. */
  parts: Uint8Array[];
  bytes: number;
  pts?: number;
  /** A PES is open. */
  open: boolean;
  oversize: boolean;
  /** Video: access units found in the elementary stream. */
  video?: VideoUnitSplitter;
  lastPts?: number;
  lastDuration: number;
  /** AAC: bytes of an ADTS frame cut by the PES end. */
  adtsRest?: Uint8Array;
}

const DEFAULT_MAX_FRAME = 16 * 1024 * 1024;

export class PsDemuxer {
  private readonly parser: PsParser;
  private readonly streams = new Map<number, StreamState>();
  private out: PsFrame[] = [];
  private lastTs: number | undefined;
  private tsValue = 0;
  private readonly defaultAudio: 'pcma' | 'pcmu';
  private readonly maxFrameBytes: number;
  private readonly counts = { videoFrames: 0, audioFrames: 0, damagedFrames: 0, dropped: 0 };
  /** The last program stream map, and the streams it names with a type this platform cannot play. */
  streamMap: PsmEntry[] = [];
  readonly unsupported = new Map<number, number>();

  constructor(options: PsDemuxerOptions = {}) {
    this.defaultAudio = options.defaultAudio ?? 'pcma';
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME;
    const handler: PsPacketHandler = {
      streamMap: (entries) => this.onStreamMap(entries),
      pesStart: (id, pts, dts) => this.onPesStart(id, pts, dts),
      pesData: (id, data) => this.onPesData(id, data),
      pesEnd: (id, complete) => this.onPesEnd(id, complete),
    };
    this.parser = new PsParser(handler);
  }

  get stats(): PsDemuxerStats {
    return { ...this.parser.stats, ...this.counts };
  }

  /** Bytes of the stream in any chunking; returns the frames completed by them. Never throws on bad input. */
  push(chunk: Uint8Array): PsFrame[] {
    this.parser.push(chunk);
    return this.take();
  }

  /**
   * The transport says a frame ends here (RTP marker bit). Video pictures gathered so far are
   * finished now instead of when the next one starts; a marker in the middle of a packet is ignored.
   */
  endOfFrame(): PsFrame[] {
    if (this.parser.atBoundary)
      for (const s of this.streams.values()) if (s.video) this.finishVideo(s, s.video.endOfFrame());
    return this.take();
  }

  /** A gap in the transport: the packet in progress is cut and the pictures it touched are marked damaged. */
  lost(): PsFrame[] {
    this.parser.lost();
    for (const s of this.streams.values()) s.video?.lost();
    return this.take();
  }

  /** Finishes every open frame (end of a file or session). */
  flush(): PsFrame[] {
    this.parser.lost();
    for (const s of this.streams.values()) if (s.video) this.finishVideo(s, s.video.flush());
    return this.take();
  }

  private take(): PsFrame[] {
    if (!this.out.length) return [];
    const out = this.out;
    this.out = [];
    return out;
  }

  private stream(id: number): StreamState {
    let s = this.streams.get(id);
    if (!s) {
      s = { id, parts: [], bytes: 0, open: false, oversize: false, lastDuration: 0 };
      if (isVideoStreamId(id)) s.video = new VideoUnitSplitter(undefined, this.maxFrameBytes);
      this.streams.set(id, s);
    }
    return s;
  }

  private onStreamMap(entries: PsmEntry[]) {
    this.streamMap = entries;
    for (const e of entries) {
      if (!isAudioStreamId(e.streamId) && !isVideoStreamId(e.streamId)) continue;
      const s = this.stream(e.streamId);
      const codec = codecOfStreamType(e.streamType);
      const fits =
        codec &&
        (isVideoStreamId(e.streamId) ? codec === 'h264' || codec === 'h265' : codec !== 'h264' && codec !== 'h265');
      s.streamType = e.streamType;
      if (fits) {
        s.codec = codec;
        if (s.video) s.video.codec = codec as VideoCodec;
        this.unsupported.delete(e.streamId);
      } else this.unsupported.set(e.streamId, e.streamType);
    }
  }

  /** 33-bit timestamps to a monotonic 90 kHz count (each step taken as the shortest way round). */
  private unwrap(ts: number | undefined): number | undefined {
    if (ts === undefined) return undefined;
    if (this.lastTs === undefined) this.tsValue = ts;
    else {
      let d = (ts - this.lastTs) % PTS_MODULO;
      if (d < 0) d += PTS_MODULO;
      if (d >= PTS_MODULO / 2) d -= PTS_MODULO;
      this.tsValue += d;
    }
    this.lastTs = ts;
    return this.tsValue;
  }

  private onPesStart(id: number, rawPts: number | undefined, rawDts: number | undefined) {
    const s = this.stream(id);
    const pts = this.unwrap(rawPts);
    const dts = rawDts === undefined ? pts : this.unwrap(rawDts);
    s.open = true;
    if (s.video) {
      if (pts !== undefined) s.video.mark(pts, dts ?? pts);
      return;
    }
    // Audio: each PES stands alone.
    s.parts = [];
    s.bytes = 0;
    s.pts = pts;
  }

  private onPesData(id: number, data: Uint8Array) {
    const s = this.streams.get(id);
    if (!s?.open) return;
    if (s.video) {
      if (s.streamType !== undefined && !s.video.codec) return; // a mapped type we do not play
      this.finishVideo(s, s.video.append(data));
      if (!s.video.codec) this.detectVideo(s);
      return;
    }
    if (s.oversize) return;
    if (s.bytes + data.length > this.maxFrameBytes) {
      s.oversize = true;
      s.parts = [];
      s.bytes = 0;
      return;
    }
    s.parts.push(data);
    s.bytes += data.length;
  }

  private onPesEnd(id: number, complete: boolean) {
    const s = this.streams.get(id);
    if (!s?.open) return;
    s.open = false;
    if (s.video) {
      if (s.streamType !== undefined && !s.video.codec) this.counts.dropped++;
      if (!complete) s.video.lost();
      return;
    }
    if (complete && !s.oversize) this.finishAudio(s);
    else if (s.oversize) this.counts.dropped++;
    s.parts = [];
    s.bytes = 0;
    s.oversize = false;
  }

  /** Without a PSM: H.265 by its VPS, H.264 by its SPS, in the bytes gathered so far. */
  private detectVideo(s: StreamState) {
    const video = s.video!;
    const held = video.peek();
    // Both parameter sets of one codec, so a stray byte pattern in damaged data does not decide it.
    let vps = false;
    let sps265 = false;
    let sps264 = false;
    let pps264 = false;
    for (const n of splitAnnexB(held)) {
      if (n.length < 2) continue;
      if (n[0] === 0x40 && n[1] === 0x01) vps = true;
      else if (n[0] === 0x42 && n[1] === 0x01) sps265 = true;
      else if ((n[0] & 0x9f) === 0x07) sps264 = true;
      else if ((n[0] & 0x9f) === 0x08) pps264 = true;
      if (vps && sps265) video.codec = 'h265';
      else if (sps264 && pps264) video.codec = 'h264';
      if (video.codec) break;
    }
    if (video.codec) {
      s.codec = video.codec;
      this.finishVideo(s, video.append(new Uint8Array(0)));
    } else if (held.length > 4 * 1024 * 1024) {
      // Megabytes without a parameter set: not H.264/H.265 we can recognise; start over.
      this.counts.dropped++;
      s.video = new VideoUnitSplitter(undefined, this.maxFrameBytes);
    }
  }

  private join(s: StreamState): Uint8Array {
    if (s.parts.length === 1) return s.parts[0];
    const data = new Uint8Array(s.bytes);
    let at = 0;
    for (const p of s.parts) {
      data.set(p, at);
      at += p.length;
    }
    s.parts = [data];
    return data;
  }

  private finishVideo(s: StreamState, units: RawVideoUnit[]) {
    const codec = s.video?.codec;
    if (!codec) return;
    for (const u of units) {
      const nalus = splitAnnexB(u.data);
      if (!nalus.length) continue;
      // A picture without a PTS of its own follows the previous one by the last frame interval.
      const pts = u.pts ?? (s.lastPts !== undefined ? s.lastPts + (s.lastDuration || 3600) : 0);
      const dts = u.pts === undefined ? pts : (u.dts ?? pts);
      if (s.lastPts !== undefined && pts > s.lastPts && pts - s.lastPts < 90000) s.lastDuration = pts - s.lastPts;
      s.lastPts = pts;
      const keyframe = nalus.some(codec === 'h264' ? isH264Keyframe : isH265Keyframe);
      this.counts.videoFrames++;
      if (u.damaged) this.counts.damagedFrames++;
      this.out.push({
        kind: 'video',
        codec,
        streamId: s.id,
        pts,
        dts,
        keyframe,
        data: u.data,
        nalus,
        damaged: u.damaged,
      });
    }
  }

  private finishAudio(s: StreamState) {
    if (!s.parts.length) return;
    let data = this.join(s);
    const pts = s.pts ?? (s.lastPts !== undefined ? s.lastPts + s.lastDuration : 0);
    let codec = s.codec;
    if (!codec && s.streamType !== undefined) {
      this.counts.dropped++;
      return;
    }
    if (!codec) {
      // ADTS: 12-bit sync, layer 00 (MPEG audio has a non-zero layer).
      codec = data.length >= 2 && data[0] === 0xff && (data[1] & 0xf6) === 0xf0 ? 'aac' : this.defaultAudio;
      s.codec = codec;
    }
    if (codec === 'aac') {
      if (s.adtsRest?.length) {
        const joined = new Uint8Array(s.adtsRest.length + data.length);
        joined.set(s.adtsRest);
        joined.set(data, s.adtsRest.length);
        data = joined;
      }
      const { frames, rest } = splitAdts(data);
      s.adtsRest = rest.length && rest.length < 8192 ? rest.slice() : undefined;
      let t = pts;
      for (const f of frames) {
        const rate = f.header.sampleRate || AAC_SAMPLE_RATES[4];
        const duration = Math.round((1024 * f.header.rawBlocks * 90000) / rate);
        let config: Uint8Array;
        try {
          config = adtsToAudioSpecificConfig(f.header);
        } catch (err) {
          // Channel configuration 0 (channels in a PCE inside the frame) or a damaged header: no MP4
          // config can describe it. The frame is dropped and its time passes.
          if (!(err instanceof CodecError)) throw err;
          this.counts.dropped++;
          t += duration;
          continue;
        }
        this.counts.audioFrames++;
        this.out.push({
          kind: 'audio',
          codec,
          streamId: s.id,
          pts: t,
          data: f.data,
          sampleRate: rate,
          channels: f.header.channelConfig === 7 ? 8 : f.header.channelConfig || 1,
          config,
        });
        t += duration;
        s.lastDuration = duration;
      }
      if (frames.length) s.lastPts = t - s.lastDuration;
      return;
    }
    if (codec !== 'pcma' && codec !== 'pcmu') {
      this.counts.dropped++;
      return;
    }
    // G.711: 8000 samples/s, one byte each.
    s.lastDuration = Math.round((data.length * 90000) / 8000);
    s.lastPts = pts;
    this.counts.audioFrames++;
    this.out.push({ kind: 'audio', codec, streamId: s.id, pts, data, sampleRate: 8000, channels: 1 });
  }
}
