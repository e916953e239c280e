/**
 * The GB28181 registration whitelist and blacklist. The SIP server asks `admits()` on every
 * REGISTER, so both lists are kept compiled in memory and rebuilt after each write here.
 * Rules (as EasyCVR's): an entry names a device ID, an address (IP or CIDR) or both, and every
 * field it names must match; the blacklist wins; the whitelist applies only when its switch is on.
 */
import type { Kysely } from 'kysely';
import type { Database, GbListEntry } from '../../db/schema.js';
import type { ConfigStore } from '../config/store.js';
import { ApiError, duplicate, notFound } from '../../http/errors.js';
import { CompiledList, parseAddress } from './matcher.js';

export type ListKind = 'white' | 'black';
export type Admission = 'ok' | 'black' | 'not-white';

export interface ListEntryInput {
  deviceId: string;
  ip: string;
  name: string;
  description: string;
}

export interface ListPage {
  total: number;
  items: GbListEntry[];
}

const table = (kind: ListKind) => (kind === 'white' ? 'gb_whitelist' : 'gb_blacklist') as 'gb_whitelist';

export class GbLists {
  private compiled = new Map<ListKind, Promise<CompiledList>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: ConfigStore,
  ) {}

  /** Whether a device registering from `ip` may register. */
  async admits(deviceId: string, ip: string): Promise<Admission> {
    if ((await this.compiledList('black')).matches(deviceId, ip)) return 'black';
    const { WhiteSwitch } = await this.config.get('gb');
    if (WhiteSwitch && !(await this.compiledList('white')).matches(deviceId, ip)) return 'not-white';
    return 'ok';
  }

  async whiteSwitch(): Promise<boolean> {
    return (await this.config.get('gb')).WhiteSwitch;
  }

  async setWhiteSwitch(on: boolean): Promise<boolean> {
    return (await this.config.set('gb', { WhiteSwitch: on })).WhiteSwitch;
  }

  /** A page of one list, newest first; `q` filters by device ID, address or name. */
  async list(kind: ListKind, opts: { start: number; limit: number; q?: string }): Promise<ListPage> {
    const q = opts.q?.trim().toLowerCase();
    let query = this.db.selectFrom(table(kind));
    if (q) {
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or(
          (['device_id', 'ip', 'name'] as const).map((col) => eb(eb.fn('lower', [col]), 'like', eb.val(like))),
        ),
      );
    }
    const { total } = await query.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow();
    const items = await query.selectAll().orderBy('id', 'desc').limit(opts.limit).offset(opts.start).execute();
    return { total: Number(total), items };
  }

  async get(kind: ListKind, id: number): Promise<GbListEntry> {
    const row = await this.db.selectFrom(table(kind)).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(kind === 'white' ? 'whitelistEntry' : 'blacklistEntry');
    return row;
  }

  async add(kind: ListKind, input: ListEntryInput): Promise<GbListEntry> {
    const entry = normalise(input);
    await this.refuseDuplicate(kind, entry);
    const now = new Date().toISOString();
    const row = await this.db
      .insertInto(table(kind))
      .values({ device_id: entry.deviceId, ip: entry.ip, name: entry.name, description: entry.description, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    this.invalidate(kind);
    return row;
  }

  async edit(kind: ListKind, id: number, input: ListEntryInput): Promise<GbListEntry> {
    await this.get(kind, id);
    const entry = normalise(input);
    await this.refuseDuplicate(kind, entry, id);
    const row = await this.db
      .updateTable(table(kind))
      .set({ device_id: entry.deviceId, ip: entry.ip, name: entry.name, description: entry.description, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    this.invalidate(kind);
    return row;
  }

  /** Deletes entries by id; returns how many existed. */
  async remove(kind: ListKind, ids: number[]): Promise<number> {
    if (!ids.length) return 0;
    let removed = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const res = await this.db.deleteFrom(table(kind)).where('id', 'in', ids.slice(i, i + 500)).executeTakeFirst();
      removed += Number(res.numDeletedRows);
    }
    this.invalidate(kind);
    return removed;
  }

  private async refuseDuplicate(kind: ListKind, entry: ListEntryInput, exceptId?: number) {
    let q = this.db.selectFrom(table(kind)).select('id').where('device_id', '=', entry.deviceId).where('ip', '=', entry.ip);
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) throw duplicate({ name: entry.deviceId || entry.ip });
  }

  private invalidate(kind: ListKind) {
    this.compiled.delete(kind);
  }

  private compiledList(kind: ListKind): Promise<CompiledList> {
    let p = this.compiled.get(kind);
    if (!p) {
      p = this.db
        .selectFrom(table(kind))
        .select(['device_id', 'ip'])
        .execute()
        .then((rows) => new CompiledList(rows));
      // A failed read is not cached: the next REGISTER tries again.
      p.catch(() => this.compiled.get(kind) === p && this.compiled.delete(kind));
      this.compiled.set(kind, p);
    }
    return p;
  }
}

/** Trims and checks an entry: at least one of device ID and address; an address must parse. */
function normalise(input: ListEntryInput): ListEntryInput {
  const entry = {
    deviceId: input.deviceId.trim(),
    ip: input.ip.trim(),
    name: input.name.trim(),
    description: input.description.trim(),
  };
  if (!entry.deviceId && !entry.ip) throw new ApiError(400, 'gbListEntryEmpty');
  if (entry.ip) {
    const parsed = parseAddress(entry.ip);
    if (!parsed) throw new ApiError(400, 'gbListBadAddress', { ip: entry.ip });
    entry.ip = parsed.prefix === undefined ? parsed.address : `${parsed.address}/${parsed.prefix}`;
  }
  return entry;
}
