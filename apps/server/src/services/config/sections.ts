/**
 * The persisted configuration sections, each a zod schema with defaults. A section is stored as one
 * JSON row; reading fills defaults, writing validates, so a stored value is always well-formed.
 */
import { z } from 'zod';
import { DEFAULT_PLAYER, DEFAULT_TITLE, VERSION } from '@opencvr/shared';

export const sections = {
  /** Spec 3 otherConfig. DefaultPlayer is always 'ep'; Version is the product's, not editable. */
  other: z.object({
    Copyright: z.string().max(255).default('© OpenCVR'),
    Initial: z.boolean().default(true),
    DefaultPlayer: z.literal(DEFAULT_PLAYER).default(DEFAULT_PLAYER),
    Title: z.string().max(64).default(DEFAULT_TITLE),
    Version: z.literal(VERSION).default(VERSION),
    RecordVersion: z.boolean().default(true),
    MapKey: z.string().max(255).default(''),
  }),
  /** The addresses announced to devices and browsers (spec 3 network form). */
  network: z.object({
    sip_host: z.string().max(255).default(''),
    rtc_host: z.string().max(255).default(''),
    terminal_host: z.string().max(255).default(''),
    ehome_host: z.string().max(255).default(''),
    /** False until the administrator has chosen a network: drives check_ip. */
    chosen: z.boolean().default(false),
  }),
  /** Basic switches: which optional modules the navigation shows. */
  switch: z.object({
    ai_platform: z.boolean().default(false),
    vqd_show: z.boolean().default(false),
  }),
  /** Video-quality diagnostics base config. */
  vqd: z.object({
    is_show: z.boolean().default(false),
  }),
  /**
   * GB28181 access (issue 6), the flat object of EasyCVR's getbaseconfig. The SIP listening port comes
   * from SIP_PORT (default 15060) when set, else Port. Secrets (DevicePassword) go to admins only.
   */
  gb: z.object({
    /** The platform's 20-digit SIP ID (domain 10 digits + type 200 + serial). */
    Serial: z.string().regex(/^\d{20}$/).default('34020000002000000001'),
    /** SIP domain / digest realm: the first 10 digits of Serial by convention. */
    Realm: z.string().regex(/^\d{10}$/).default('3402000000'),
    /** Address announced to devices in SIP (Contact/Via); '' = the network sip_host or the listening address. */
    Host: z.string().max(255).default(''),
    Port: z.number().int().min(1).max(65535).default(15060),
    /** Global registration password, used when a device has no DeviceUserPW of its own. */
    DevicePassword: z.string().max(64).default(''),
    /** Address announced in SDP for RTP; '' = Host. Separate because media often crosses another NIC/NAT. */
    MediaIP: z.string().max(255).default(''),
    /** Inclusive UDP/TCP port range for RTP receivers. */
    RtpPortMin: z.number().int().min(1024).max(65535).default(30000),
    RtpPortMax: z.number().int().min(1024).max(65535).default(30500),
    /** Default media transport asked of devices: UDP, or TCP with the platform passive (listening) or active (connecting). */
    MediaTransport: z.enum(['UDP', 'TCP']).default('UDP'),
    MediaTransportMode: z.enum(['passive', 'active']).default('passive'),
    /** Seconds between keepalives a device is expected to send; offline after KeepaliveCount missed. */
    KeepaliveTimeout: z.number().int().min(5).max(3600).default(60),
    KeepaliveCount: z.number().int().min(1).max(10).default(3),
    /** Longest registration accepted (seconds); a device asking more is granted this. */
    RegisterExpires: z.number().int().min(60).max(86400).default(3600),
    /** Seconds to wait for a device's answer (catalog, INVITE 200, first RTP packet). */
    AckTimeout: z.number().int().min(1).max(120).default(10),
    /** Whitelist switch: when on, only listed devices may register. */
    WhiteSwitch: z.boolean().default(false),
  }),
  /** Play address authentication: media URLs carry a signed play_token that expires. */
  play: z.object({
    /** On by default: a media URL without a valid token is refused. */
    PlayAuth: z.boolean().default(true),
    /** Lifetime of the play tokens handed out with stream URLs, seconds. */
    TokenTimeout: z.number().int().min(60).max(7 * 86400).default(3600),
    /** Longest lifetime an administrator may give a shared link, seconds. */
    ShareMaxTimeout: z.number().int().min(60).max(365 * 86400).default(30 * 86400),
  }),
  /**
   * The platform's signing secret (play tokens, shared links), made at first start and kept so
   * links survive a restart. Never sent to a client.
   */
  secret: z.object({
    PlayKey: z.string().default(''),
  }),
  /** EHome access password set at initialisation. */
  ehome: z.object({
    Password: z.string().max(64).default(''),
  }),
  /** Recording (issue 5). */
  record: z.object({
    /** Absolute folder of the recordings; '' = DATA_DIR/records. */
    RecordPath: z.string().max(1024).default(''),
    /** Earlier RecordPath values: their segments stay playable and are still cleaned by retention. */
    OldPaths: z.array(z.string().max(1024)).max(32).default([]),
    /** Length of a segment file; a segment is cut at the first keyframe after it. */
    SegmentSeconds: z.number().int().min(1).max(3600).default(300),
    /** Keep this much free under RecordPath: below it the oldest non-important segments are deleted. */
    MinFreeBytes: z.number().int().min(0).default(2 * 1024 ** 3),
    /** Days a segment is kept for a channel in no record plan. */
    DefaultSaveDays: z.number().int().min(1).max(3650).default(30),
  }),
} as const;

export type Sections = typeof sections;
export type SectionName = keyof Sections;
export type SectionValue<K extends SectionName> = z.output<Sections[K]>;
