/**
 * @opencvr/manscdp: GB/T 28181 bodies as pure code (no sockets, no clock of its own).
 * MANSCDP XML decode/encode (GB2312/GB18030/UTF-8, DTD refused), PTZCmd, GB SDP, SSRC allocation,
 * MANSRTSP, and the aggregation of paged Catalog/RecordInfo answers.
 */
export { ManscdpError, type ManscdpErrorCode } from './errors.js';
export {
  declaredEncoding,
  decodeBody,
  encodeBody,
  replyEncoding,
  type BodyEncoding,
  type DecodedBody,
} from './charset.js';
export { attr, child, childText, children, MAX_BODY_CHARS, parseXml, type XmlElement } from './xml.js';
export { isCatalogItemId, isDeviceId, normaliseGbTime } from './decode/fields.js';
export type { ManscdpHeader, ManscdpRoot } from './decode/header.js';
export {
  decodeManscdp,
  parseManscdp,
  peekHeader,
  type DecodeResult,
  type ManscdpKind,
  type ManscdpMessage,
  type OtherMessage,
  type ParsedManscdp,
} from './decode/index.js';
export type { Keepalive } from './decode/keepalive.js';
export {
  CATALOG_EVENTS,
  typeCodeOf,
  type CatalogEvent,
  type CatalogItem,
  type CatalogNotify,
  type CatalogResponse,
  type RejectedItem,
} from './decode/catalog.js';
export type {
  AlarmDutyStatus,
  ConfigDownloadResponse,
  DeviceControlResponse,
  DeviceInfoResponse,
  DeviceStatusResponse,
  Preset,
  PresetQueryResponse,
} from './decode/device.js';
export type { RecordInfoResponse, RecordItem } from './decode/record.js';
export type { ControlMessage, DragZoomFields, QueryMessage } from './decode/query.js';
export type { AlarmNotify, MediaStatusNotify, MobilePositionNotify } from './decode/notify.js';
export { writeManscdp, type EncodeOptions, type ManscdpBody, type XmlOut } from './encode/writer.js';
export {
  CONFIG_TYPES,
  RECORD_TYPES,
  encodeAlarmSubscribe,
  encodeCatalogQuery,
  encodeCatalogSubscribe,
  encodeConfigDownloadQuery,
  encodeDeviceInfoQuery,
  encodeDeviceStatusQuery,
  encodeMobilePositionSubscribe,
  encodePresetQuery,
  encodeRecordInfoQuery,
  type AlarmSubscribe,
  type ConfigType,
  type QueryTarget,
  type RecordInfoQuery,
  type RecordType,
} from './encode/query.js';
export {
  encodeAlarmResponse,
  encodeDragZoom,
  encodeGuardControl,
  encodePtzControl,
  encodeRecordControl,
  encodeResetAlarm,
  encodeTeleBoot,
  type DragZoom,
} from './encode/control.js';
export {
  encodeAlarmNotify,
  encodeCatalogNotify,
  encodeCatalogPages,
  encodeCatalogResponse,
  encodeDeviceControlResponse,
  encodeDeviceInfoResponse,
  encodeDeviceStatusResponse,
  encodeKeepalive,
  encodeMediaStatus,
  encodeMobilePosition,
  encodePresetQueryResponse,
  encodeRecordInfoResponse,
} from './encode/device.js';
export {
  CONSOLE_PTZ_COMMANDS,
  consolePtzAction,
  decodePtzCmd,
  encodePtzCmd,
  ptzBytes,
  ptzChecksum,
  type ConsolePtzCommand,
  type ConsoleSpeed,
  type PtzAction,
} from './ptz.js';
export { SsrcAllocator, ssrcKind, ssrcNumber, ssrcText, type SsrcKind } from './ssrc.js';
export {
  buildGbOffer,
  DEFAULT_PAYLOADS,
  gbSubject,
  parseGbAnswer,
  type GbAnswer,
  type GbOffer,
  type GbPayload,
  type GbSessionName,
  type GbTransport,
} from './sdp.js';
export {
  encodeMansrtsp,
  MANSRTSP_CONTENT_TYPE,
  MANSRTSP_SCALES,
  mansrtspPause,
  mansrtspResume,
  mansrtspScale,
  mansrtspSeek,
  mansrtspTeardown,
  parseMansrtspRequest,
  parseMansrtspResponse,
  type MansrtspRequest,
  type MansrtspResponse,
} from './mansrtsp.js';
export {
  CatalogAggregator,
  PagedAggregator,
  RecordInfoAggregator,
  type AggregateResult,
  type AggregatorOptions,
  type PageAdded,
} from './aggregator.js';
export {
  ALARM_METHODS,
  CONSOLE_ALARM_TYPES,
  consoleAlarmType,
  gbAlarmOf,
  type ConsoleAlarmType,
} from './alarm-types.js';
