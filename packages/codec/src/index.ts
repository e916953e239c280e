export * from './types.js';
export { CodecError, type CodecErrorCode } from './errors.js';
export { BitReader, BitWriter } from './bits.js';
export { addEmulationPrevention, concatBytes, fromHex, joinAnnexB, removeEmulationPrevention, sameBytes, splitAnnexB, toHex } from './annexb.js';
export * from './h264.js';
export * from './h265.js';
export * from './aac.js';
export { aacTrack, findParameterSets, g711Track, videoTrackFromParameterSets } from './track.js';
export { copyUnit, copyUnitInto, unitByteLength } from './unit.js';
