/**
 * Table types for Kysely. Both engines store the same shapes: integers for flags (SQLite has no
 * boolean), ISO-8601 UTC text for times (sortable as text on both).
 */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface RolesTable {
  id: Generated<number>;
  name: string;
  describe: string;
  builtin: number;
  created_at: string;
}
export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  nick_name: string;
  /** argon2id of the lowercase md5 hex digest the console sends; never the digest itself. */
  password_hash: string;
  role_id: number;
  enable: number;
  must_change_password: number;
  created_at: string;
  updated_at: string;
}
export interface TokensTable {
  /** sha256 of the token: a stolen database does not yield usable tokens. */
  token_hash: string;
  user_id: number;
  kind: string;
  created_at: string;
  expires_at: string;
  ip: string;
}
export interface LoginFailuresTable {
  username: string;
  ip: string;
  count: number;
  first_failed_at: string;
  locked_until: string | null;
}
export interface ConfigTable {
  key: string;
  value: string;
  updated_at: string;
}
export interface NewsTable {
  id: Generated<number>;
  device_id: string;
  channel_id: string;
  channel_name: string;
  status: string;
  news_time: string;
}
export interface NewsStateTable {
  user_id: number;
  news_id: number;
  read: number;
  deleted: number;
}
export interface DevicesTable {
  id: Generated<number>;
  device_id: string;
  device_name: string;
  device_type: string;
  online: number;
  enable: number;
  created_at: string;
}
export interface ChannelsTable {
  id: Generated<number>;
  channel_id: string;
  parent_device_id: string;
  name: string;
  online: number;
  enable: number;
  created_at: string;
}

export interface Database {
  roles: RolesTable;
  users: UsersTable;
  tokens: TokensTable;
  login_failures: LoginFailuresTable;
  config: ConfigTable;
  news: NewsTable;
  news_state: NewsStateTable;
  devices: DevicesTable;
  channels: ChannelsTable;
}

export type Role = Selectable<RolesTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type News = Selectable<NewsTable>;
