import { expect, test } from '../support/fixtures';

test('the login page renders', async ({ page, request }) => {
  // The platform's title, as the login page shows it.
  const res = await request.get('/api/v1/getloginconfig');
  expect(res.ok()).toBeTruthy();
  const title: string = (await res.json())?.EasyDarwin?.Body?.Title ?? 'OpenCVR';

  await page.goto('/');
  // Visitors without a session land on the login page: a user-name box and the title.
  await expect(page.getByRole('textbox', { name: /用户名|user ?name/i })).toBeVisible();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
});
