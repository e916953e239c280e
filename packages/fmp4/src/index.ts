export { BoxWriter } from './box.js';
export { initSegment, mimeType, timescaleOf } from './init.js';
export { keepNal, parameterSetsChanged, videoSampleSize } from './nal.js';
export {
  dtsOf,
  mediaFragment,
  trackRun,
  NON_SYNC_FLAGS,
  SYNC_FLAGS,
  type FragmentOptions,
  type FragmentSample,
  type TrackRun,
} from './fragment.js';
export { Fragmenter, type Fragment, type FragmenterOptions, type FragmentTrackInfo } from './fragmenter.js';
export { boxHeader, childBox, childBoxes, findBox, mimeOfInit, readInit, readMoof, rewriteMoof, truncateFragment, BoxError, type BoxRef, type InitInfo, type InitTrack, type MoofInfo, type TrafInfo } from './reader.js';
export { withEditList, withTracks, type EditListOptions } from './edit.js';
export { readFragmentSamples, type TrafSamples } from './reader.js';
export { progressiveHeader, type ProgressiveOptions, type ProgressiveTrack } from './progressive.js';
export { LiveFragmenter, type BatchItem, type LiveFragmenterOptions } from './live-fragmenter.js';
export { Fmp4StreamReader, type SkippedTrack, type StreamEvent, type StreamReaderOptions, type StreamTrack } from './stream-reader.js';
