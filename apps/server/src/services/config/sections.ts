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
  /** GB28181 access: the global device password set at initialisation (used by the SIP issue). */
  gb: z.object({
    DevicePassword: z.string().max(64).default(''),
  }),
  /** EHome access password set at initialisation. */
  ehome: z.object({
    Password: z.string().max(64).default(''),
  }),
} as const;

export type Sections = typeof sections;
export type SectionName = keyof Sections;
export type SectionValue<K extends SectionName> = z.output<Sections[K]>;
