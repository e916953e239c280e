/**
 * A condition on a channel row: it hangs somewhere below one folder of its device, at any depth. A GB
 * NVR or platform nests its cameras under civil codes (province / city / district…), business groups
 * and virtual organisations, so "the cameras of this folder" are those of its sub-folders too; the
 * picker takes them all when the folder's box is ticked.
 *
 * One recursive query, not the folder IDs gathered in the server and sent back as a list: a platform
 * has thousands of folders, more than a statement's parameters allow. UNION (not UNION ALL) stops at a
 * cycle (A under B under A, which a hand-made channel's ParentID can make). The seed reads the folder
 * from the table, so its type is the column's on PostgreSQL (a bare parameter is text, not varchar,
 * and the recursive part would not match it) and an unknown folder has nothing below it.
 */
import { sql, type Expression, type SqlBool } from 'kysely';

export function belowFolder(device: string, folder: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref('channels.parent_id')} in (
    with recursive below_folder(id) as (
      select f.channel_id from channels f where f.parent_device_id = ${device} and f.channel_id = ${folder}
      union
      select c.channel_id from channels c inner join below_folder b on c.parent_id = b.id where c.parent_device_id = ${device}
    )
    select id from below_folder
  )`;
}
