import type { RoleList, UserList } from '@opencvr/shared';
import { postV1, request } from '../../lib/request';
import { md5hex } from '../../lib/md5';

export interface UserInput {
  id?: number;
  username?: string;
  name?: string;
  nick_name?: string;
  /** Plain text from the form; sent as md5. Empty on edit means "keep". */
  password?: string;
  roleid: number;
  enable: boolean;
  mustchange: boolean;
}

export const fetchUsers = (pageindex: number, pagesize: number, q: string) =>
  request<UserList>('/api/v1/userlist', { data: { pageindex, pagesize, q: q || undefined } });

export const fetchRoles = (pageindex: number, pagesize: number, q = '') =>
  request<RoleList>('/api/v1/rolelist', { data: { pageindex, pagesize, q: q || undefined } });

function userFields(u: UserInput) {
  return {
    name: u.name ?? '',
    nick_name: u.nick_name ?? '',
    roleid: u.roleid,
    enable: u.enable ? 1 : 0,
    mustchange: u.mustchange ? 1 : 0,
    ...(u.password ? { password: md5hex(u.password) } : {}),
  };
}

export const addUser = (u: UserInput) => postV1<{ ID: number }>('/api/v1/adduser', { username: u.username, ...userFields(u) });
export const updateUser = (u: UserInput) => postV1<Record<string, never>>('/api/v1/updateuser', { id: u.id, ...userFields(u) });
export const deleteUser = (id: number) => postV1<Record<string, never>>('/api/v1/deleteuser', { id });

export const addRole = (name: string, describe: string) => postV1<{ ID: number }>('/api/v1/addrole', { name, describe });
export const updateRole = (id: number, name: string, describe: string) => postV1<Record<string, never>>('/api/v1/role', { id, name, describe });
export const deleteRole = (id: number) => postV1<Record<string, never>>('/api/v1/deleterole', { id });
