import type { SourceFactory } from '../../services/media/streams.js';
import { RtspSource } from './rtsp-source.js';

/** RTSP/ONVIF channels are pulled from their RTSP URL (the sub-stream URL comes with ONVIF profiles later). */
export const rtspSourceFactory: SourceFactory = (device, channel) => {
  if (!['RTSP', 'ONVIF'].includes(device.device_type) || !channel.rtsp_url.startsWith('rtsp://')) return undefined;
  return new RtspSource(channel.rtsp_url, {
    username: channel.username || device.device_username,
    password: channel.password || device.device_password,
    // The channel's Transport (TCP by default); UDP falls back to TCP when the camera refuses it.
    transport: channel.transport === 'UDP' ? 'udp' : 'tcp',
    audio: channel.enable_audio !== 0,
  });
};
