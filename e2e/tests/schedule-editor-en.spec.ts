/**
 * The weekly schedule editor in English: every day's name fits in front of its row of cells. The
 * name column was 72 px wide, made for 星期三; "Wednesday" ran under the cells and showed as
 * "Wednesda". Layout needs a browser, hence e2e.
 */
import { STORAGE_KEYS } from '../../packages/shared/src/constants';
import { WEEKDAYS } from '../../packages/shared/src/schedule';
import { expect, test } from '../support/fixtures';
import { openAs } from '../support/page';

test('the English day names fit before their cells', async ({ page, admin }) => {
  await page.addInitScript(([key]) => localStorage.setItem(key, 'en-US'), [STORAGE_KEYS.language]);
  await openAs(page, admin, '/config/program/form');
  await expect(page.getByTestId('schedule-row-Wednesday')).toContainText('Wednesday', { timeout: 30_000 });
  for (const [d, day] of WEEKDAYS.entries()) {
    const label = page.getByTestId(`schedule-day-${day}`);
    const fits = await label.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits, `${day}'s name is not cut`).toBe(true);
    const name = (await label.boundingBox())!;
    const first = (await page.getByTestId(`cell-${d}-0`).boundingBox())!;
    expect(name.x + name.width, `${day}'s name ends before its first cell`).toBeLessThanOrEqual(first.x);
  }
});
