/**
 * Spec 2 "Search-all … jumps to a page with query": the site map's 添加用户 / 添加角色 actions lead to
 * /user/index?action=add and /user/role?action=add, where the page opens its add dialog once and drops
 * the parameter (a reload or going back does not open it again).
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import type { ComponentType } from 'react';
import RolesPage from '../src/features/users/pages/RolesPage';
import UsersPage from '../src/features/users/pages/UsersPage';
import { actionHref, buildSiteMap } from '../src/app/layout/siteMap';
import { adminSessionPerTest } from './helpers/session';
import { renderConsole, stubApi } from './helpers/console';
import { user, userRoles } from './helpers/dialogs';
import { Where } from './helpers/where';

adminSessionPerTest();

/** The href of the site map action labelled `label`. */
const hrefOf = (label: string) => {
  const t = (k: string) => ({ 'sitemap.addUser': '添加用户', 'sitemap.addRole': '添加角色' })[k] ?? k;
  const action = buildSiteMap(t, true)
    .flatMap((e) => e.actions)
    .find((a) => a.label === label)!;
  return actionHref(action);
};

async function jump(href: string, path: string, Page: ComponentType, title: string) {
  stubApi({
    '/api/v1/userlist': () => ({ count: 1, data: [user(7, 'alice')] }),
    '/api/v1/rolelist': () => ({ count: userRoles.length, data: userRoles }),
  });
  renderConsole(
    <Routes>
      <Route path={path} element={<><Page /><Where /></>} />
    </Routes>,
    { path: href },
  );
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(title)).toBeInTheDocument();
  await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(new RegExp(`^${path}$`)));
}

describe('search-all jumps with a query', { timeout: 60_000 }, () => {
  it('添加用户 opens the add-user dialog on the users page', async () => {
    const href = hrefOf('添加用户');
    expect(href).toBe('/user/index?action=add');
    await jump(href, '/user/index', UsersPage, '添加用户');
  });

  it('添加角色 opens the add-role dialog on the roles page', async () => {
    const href = hrefOf('添加角色');
    expect(href).toBe('/user/role?action=add');
    await jump(href, '/user/role', RolesPage, '添加角色');
  });

  it('without the query the page opens no dialog', async () => {
    stubApi({ '/api/v1/userlist': () => ({ count: 1, data: [user(7, 'alice')] }), '/api/v1/rolelist': () => ({ count: userRoles.length, data: userRoles }) });
    renderConsole(<UsersPage />, { path: '/user/index' });
    await screen.findByText('alice');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
