/**
 * Which channels a user may see (spec 6, issue 3). An administrator sees everything. Anyone else sees
 * the channels given to their role directly, the channels in the labels given to the role (and in
 * those labels' sub-labels), and every channel of a device placed in one of those labels. Every query
 * that lists, searches or plays channels goes through `visibleChannelIds` so no path forgets it.
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database, User } from '../../db/schema.js';
import { isAdmin } from '../../http/auth.js';

export type Scope = { all: true } | { all: false; roleId: number; labelIds: number[] };

/** The labels given to a role and all their descendants. */
export async function roleLabelClosure(db: Kysely<Database>, roleId: number): Promise<number[]> {
  const given = (await db.selectFrom('role_labels').select('label_id').where('role_id', '=', roleId).execute()).map((r) => r.label_id);
  if (!given.length) return [];
  const all = await db.selectFrom('labels').select(['id', 'parent_id']).execute();
  const children = new Map<number, number[]>();
  for (const l of all) children.set(l.parent_id, [...(children.get(l.parent_id) ?? []), l.id]);
  const out = new Set<number>();
  const stack = [...given];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...out];
}

export async function scopeOf(db: Kysely<Database>, user: User): Promise<Scope> {
  if (isAdmin(user)) return { all: true };
  return { all: false, roleId: user.role_id, labelIds: await roleLabelClosure(db, user.role_id) };
}

/**
 * A condition on `channels.id` for the scope; `undefined` for administrators. Use inside a where():
 *   .where((eb) => visibleChannelIds(eb, scope) ?? eb.lit(true))
 */
export function visibleChannelIds(eb: ExpressionBuilder<Database, 'channels'>, scope: Scope): Expression<SqlBool> | undefined {
  if (scope.all) return undefined;
  const byRole = roleChannelPks(eb, scope.roleId);
  const byLabels = labelChannelPks(eb, scope.labelIds);
  if (!byLabels) return eb('channels.id', 'in', byRole);
  const [byLabel, byLabelDevice] = byLabels;
  // One IN over a UNION, not an OR of three INs: both engines build the visible set once (SQLite
  // as an ephemeral index) and probe it per row, instead of re-running subqueries per row.
  return eb('channels.id', 'in', byRole.union(byLabel).union(byLabelDevice));
}

/**
 * The channels given to a role one by one that none of its labels reaches (issue 4: the group tree
 * shows them under their devices at its top, else an operator given only channels saw no tree).
 */
export function directOnlyChannelIds(eb: ExpressionBuilder<Database, 'channels'>, scope: Exclude<Scope, { all: true }>): Expression<SqlBool> {
  const byRole = eb('channels.id', 'in', roleChannelPks(eb, scope.roleId));
  const byLabels = labelChannelPks(eb, scope.labelIds);
  return byLabels ? eb.and([byRole, eb('channels.id', 'not in', byLabels[0].union(byLabels[1]))]) : byRole;
}

function roleChannelPks(eb: ExpressionBuilder<Database, 'channels'>, roleId: number) {
  return eb.selectFrom('role_channels').select('role_channels.channel_pk as pk').where('role_channels.role_id', '=', roleId);
}

/** Channels placed in the labels and every channel of a device placed in them; undefined for none. */
function labelChannelPks(eb: ExpressionBuilder<Database, 'channels'>, labelIds: number[]) {
  if (!labelIds.length) return undefined;
  const byLabel = eb.selectFrom('label_channels').select('label_channels.channel_pk as pk').where('label_channels.label_id', 'in', labelIds);
  const byLabelDevice = eb
    .selectFrom('label_devices')
    .innerJoin('devices as ld_dev', 'ld_dev.id', 'label_devices.device_pk')
    .innerJoin('channels as ld_ch', 'ld_ch.parent_device_id', 'ld_dev.device_id')
    .select('ld_ch.id as pk')
    .where('label_devices.label_id', 'in', labelIds);
  return [byLabel, byLabelDevice] as const;
}
