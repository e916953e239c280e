import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { sections, type SectionName, type SectionValue } from './sections.js';

/** Reads and writes configuration sections; keeps a cache since every request reads some. */
export class ConfigStore {
  private cache = new Map<SectionName, unknown>();
  private readonly watchers = new Map<SectionName, Set<(next: unknown, prev: unknown) => void>>();

  constructor(private readonly db: Kysely<Database>) {}

  async get<K extends SectionName>(name: K): Promise<SectionValue<K>> {
    const cached = this.cache.get(name);
    if (cached) return cached as SectionValue<K>;
    const row = await this.db.selectFrom('config').select('value').where('key', '=', name).executeTakeFirst();
    let stored: unknown = {};
    if (row) {
      try {
        stored = JSON.parse(row.value);
      } catch {
        stored = {};
      }
    }
    // A stored value that no longer validates (hand-edited, older schema) falls back field by field.
    const parsed = sections[name].safeParse(stored);
    const value = (parsed.success ? parsed.data : sections[name].parse({})) as SectionValue<K>;
    this.cache.set(name, value);
    return value;
  }

  /** Merges a partial change into a section, validates the result and stores it atomically. */
  async set<K extends SectionName>(name: K, patch: Partial<SectionValue<K>>): Promise<SectionValue<K>> {
    const current = await this.get(name);
    const next = sections[name].parse({ ...current, ...patch }) as SectionValue<K>;
    const value = JSON.stringify(next);
    const updated_at = new Date().toISOString();
    await this.db
      .insertInto('config')
      .values({ key: name, value, updated_at })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at }))
      .execute();
    this.cache.set(name, next);
    for (const fn of this.watchers.get(name) ?? []) {
      try {
        fn(next, current);
      } catch {
        // A watcher's failure is its own; the write has happened.
      }
    }
    return next;
  }

  /**
   * Calls `fn` after each write of a section (whoever wrote it: a settings page, initialisation, a
   * switch), so long-running services (the SIP server) apply a change without a restart.
   */
  onChange<K extends SectionName>(name: K, fn: (next: SectionValue<K>, prev: SectionValue<K>) => void): () => void {
    let set = this.watchers.get(name);
    if (!set) this.watchers.set(name, (set = new Set()));
    const wrapped = fn as (next: unknown, prev: unknown) => void;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }
}
