/**
 * Spec 2 "Top bar" and spec 6: the search-all-functions modal (admins only; filters the site map by
 * title, at most 600 px high, jumps to a page with its query) and the user dropdown's plugin centre,
 * API docs and version entries (admins only).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SEARCH_MODAL_MAX_HEIGHT, type UserInfo } from '@opencvr/shared';
import { TopBar } from '../src/app/layout/TopBar';
import { clearSession } from '../src/lib/session';
import { useSession } from '../src/lib/stores/session';
import { useUi } from '../src/lib/stores/ui';
import { captureNotices, renderConsole, stubApi, v1 } from './helpers/console';
import { atAnyPath } from './helpers/where';

vi.mock('../src/lib/ws', () => ({
  useWsTopic: () => {},
  connectEvents: () => {},
  disconnectEvents: () => {},
}));

const person = (role: string): UserInfo => ({ id: 2, name: 'someone', nick_name: '', role, role_name: role, role_id: 2, Status: 1, MustChangePassword: false });

const bar = atAnyPath(<TopBar />);

beforeEach(() => {
  captureNotices();
  useUi.setState({ isMobile: false });
  stubApi({ '/api/v1/newslist': () => v1({ total: 0, unread: 0, list: [] }) });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  clearSession();
});

const searchButton = () => screen.findByRole('button', { name: '搜索全部功能' });

async function openUserMenu() {
  fireEvent.click(await screen.findByTestId('user-menu'));
  // The main menu is a menu too: the dropdown's is the one in the open .ant-dropdown.
  return waitFor(() => {
    const menu = document.querySelector<HTMLElement>('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]');
    if (!menu) throw new Error('the user dropdown is not open');
    return menu;
  });
}

describe('search-all-functions modal', { timeout: 30_000 }, () => {
  it('an admin opens it: the site map at most 600 px high, filtered by title, an action jumps with its query', async () => {
    useSession.getState().login('tok', person('admin'));
    renderConsole(bar, { path: '/video/browse' });
    fireEvent.click(await searchButton());
    const dialog = await screen.findByRole('dialog');
    const results = await within(dialog).findByTestId('search-all-results');
    expect(SEARCH_MODAL_MAX_HEIGHT).toBe(600);
    expect(results.style.maxHeight).toBe('600px');
    expect(results.style.overflowY).toBe('auto');
    const titles = () => [...results.querySelectorAll('.ant-list-item-meta-title')].map((e) => e.textContent);
    expect(titles()).toContain('视频广场');

    fireEvent.change(within(dialog).getByPlaceholderText('输入功能名称'), { target: { value: '用户' } });
    await waitFor(() => expect(titles()).toEqual(['用户管理']));
    // The describe line names what the entry is for.
    expect(within(results).getByText('用户的添加、编辑、删除与密码重置')).toBeInTheDocument();

    fireEvent.click(within(results).getByRole('button', { name: '添加用户' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/user/index?action=add');
  });

  it('a filter matching nothing shows the empty state', async () => {
    useSession.getState().login('tok', person('admin'));
    renderConsole(bar, { path: '/video/browse' });
    fireEvent.click(await searchButton());
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByPlaceholderText('输入功能名称'), { target: { value: 'no such page' } });
    await waitFor(() => expect(within(dialog).queryAllByRole('listitem')).toHaveLength(0));
    expect(dialog.querySelector('.ant-empty')).not.toBeNull();
  });

  it('a non-admin has no search button', async () => {
    useSession.getState().login('tok', person('operators'));
    renderConsole(bar, { path: '/video/browse' });
    // The controls render one step after the logo: wait for them before asserting an absence.
    await screen.findByTestId('user-menu');
    expect(screen.queryByRole('button', { name: '搜索全部功能' })).toBeNull();
  });
});

describe('user dropdown: plugin centre, API docs, version', { timeout: 30_000 }, () => {
  it('an admin has the three entries; plugin and version go to their pages, API docs opens the static page', async () => {
    useSession.getState().login('tok', person('admin'));
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderConsole(bar, { path: '/video/browse' });

    let menu = await openUserMenu();
    fireEvent.click(within(menu).getByText('插件中心'));
    expect(screen.getByTestId('where')).toHaveTextContent('/plugin');

    menu = await openUserMenu();
    fireEvent.click(within(menu).getByText('版本信息'));
    expect(screen.getByTestId('where')).toHaveTextContent('/version/index');

    menu = await openUserMenu();
    fireEvent.click(within(menu).getByText('接口文档'));
    expect(open).toHaveBeenCalledWith('/apidoc/', '_blank', 'noopener');
    // A new tab: the console stays where it was.
    expect(screen.getByTestId('where')).toHaveTextContent('/version/index');
  });

  it('a non-admin sees only change password and log out', async () => {
    useSession.getState().login('tok', person('operators'));
    renderConsole(bar, { path: '/video/browse' });
    const menu = await openUserMenu();
    expect(within(menu).getByText('修改密码')).toBeInTheDocument();
    expect(within(menu).getByText('退出登录')).toBeInTheDocument();
    for (const text of ['插件中心', '接口文档', '版本信息']) expect(within(menu).queryByText(text)).toBeNull();
  });
});
