/**
 * Rows of the console's sidebar trees, reached as a user reaches them.
 *
 * The video and group trees are virtual lists (antd Tree with a height): only the rows in view are
 * in the page, about 25 at 390×844 and 30 at 1440×900. The e2e files of a worker share its server and
 * each adds its devices, so a file's device sorts later in the tree as files are added, and a wait for its row
 * finds nothing once it is out of view (square.spec.ts failed so in CI, its device 27th of 28).
 * Where the test is about the tree itself, the row is scrolled to with the mouse wheel over the
 * list, and the tree's "load more" row is clicked at the end of a level, until the row is there.
 */
import { expect, type Locator } from '@playwright/test';

/** The tree's "load more" row (zh-CN and en-US), shown under a level that has more pages. */
const LOAD_MORE = /^\s*(加载更多|Load more)\s*$/;
/** A row of the list: antd Tree also renders a hidden one of its own, to measure a row's height. */
const ROW = '.ant-tree-treenode:not([aria-hidden="true"])';

interface Scroll {
  top: number;
  height: number;
  end: number;
}

/**
 * Scrolls `tree` (a container of one antd Tree) down with the wheel until `target`, a locator inside
 * it, is attached; returns `target`. From where the list is: a row still in view is found at once.
 * Fails naming `what` when the list's end (after its last "load more") still lacks it at `timeout`
 * ms: a level may be loading there.
 */
export async function scrollTreeTo(tree: Locator, target: Locator, what: string, timeout = 30_000): Promise<Locator> {
  const page = tree.page();
  const deadline = Date.now() + timeout;
  // The tree's first rows: the console's first load, then the first page of the level.
  await expect(tree.locator(ROW).first(), `the tree shows rows (looking for ${what})`).toBeVisible({ timeout });
  const holder = tree.locator('.ant-tree-list-holder');
  const scroll = (): Promise<Scroll> =>
    holder.evaluate((el) => ({ top: el.scrollTop, height: el.clientHeight, end: el.scrollHeight - el.clientHeight }));

  for (let steps = 0; ; steps++) {
    if ((await target.count()) > 0) return target;
    if (Date.now() > deadline) throw new Error(`${what}: not in the tree after ${steps} scroll steps in ${timeout} ms`);
    const before = await scroll();
    if (before.top >= before.end - 1) {
      // The end of the list: a "load more" row there is the user's next step, else the row is not in the tree.
      const more = tree.locator(ROW).last().filter({ hasText: LOAD_MORE });
      if ((await more.count()) === 0) {
        // Rows may still come: a level loading after its node was opened, the last step's rows
        // mounting a frame late. Wait there for the row or a longer list, then name where it ended.
        const grown = await expect
          .poll(async () => (await target.count()) > 0 || (await scroll()).end > before.end, { timeout: Math.max(1000, deadline - Date.now()) })
          .toBe(true)
          .then(() => true, () => false);
        if (grown) continue;
        const last = (await tree.locator(ROW).last().innerText()).replace(/\s+/g, ' ').trim();
        throw new Error(`${what}: not in the tree, scrolled to its end (${steps} steps, ${before.end + before.height} px; last row "${last}")`);
      }
      // The next page replaces the "load more" row with rows of the level: the list grows, or
      // (a page of one row) its last row is another.
      const ending = async () => `${(await scroll()).end} ${await tree.locator(ROW).last().innerText()}`;
      const was = await ending();
      await more.click();
      await expect
        .poll(ending, { message: `${what}: the tree's next page loads`, timeout: Math.max(1000, deadline - Date.now()) })
        .not.toBe(was);
      continue;
    }
    // Most of a view per step: rows of one step overlap the last, so none is skipped.
    const box = (await holder.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, Math.ceil(before.height * 0.6));
    // The list scrolls on the next frame.
    await expect
      .poll(async () => (await scroll()).top, { message: `${what}: the tree scrolls on the wheel`, timeout: 5000 })
      .toBeGreaterThan(before.top);
  }
}

/** The first row of `tree` with `text`, scrolled into the page as a user would (see scrollTreeTo). */
export const treeRow = (tree: Locator, text: string, timeout?: number): Promise<Locator> =>
  scrollTreeTo(tree, tree.locator(ROW, { hasText: text }).first(), `the row "${text}"`, timeout);
