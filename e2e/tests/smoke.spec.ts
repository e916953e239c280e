import { expect, test } from '@playwright/test';

test('the login page renders', async ({ page }) => {
  await page.goto('/');
  // The console sends visitors without a session to the login page.
  await expect(page.locator('input').first()).toBeVisible();
  const userName = page.locator(
    'input#username, input[name="username"], input[autocomplete="username"], input[type="text"]',
  );
  await expect(userName.first()).toBeVisible();
  await expect(page).toHaveTitle(/\S/);
});
