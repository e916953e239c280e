/**
 * One computed style per element while the document does not change.
 *
 * antd writes its styles into the page at run time (about 400 kB of CSS in jsdom), and jsdom answers
 * every getComputedStyle by copying the element's declaration property by property, each value parsed
 * again. Testing Library calls it for every element a *ByRole query or toBeVisible looks at, and a
 * waitFor repeats the query every 50 ms: in the dialog tests most of a test's time (RoleChannelsModalReopen:
 * 74 s of 98 s) went into answering the same question about an unchanged page.
 *
 * The answer only changes when the document does. Every change to the tree, an attribute (inline style,
 * class) or a text (a <style> tag's CSS) is seen by the MutationObserver; its records are taken
 * synchronously on each call, so a change made just before a call is never answered from the cache. The
 * cache is dropped then, as jsdom drops its own. (A rule changed through the CSSOM, insertRule, is not a
 * mutation and would go unseen: neither antd nor the console writes CSS that way.) jsdom ignores the pseudo-element argument (it answers
 * for the element), so one entry per element serves both. The declarations jsdom returns are read-only,
 * so sharing one between callers is safe.
 */
export function cacheComputedStyle(win: Window & typeof globalThis = window): void {
  const compute = win.getComputedStyle.bind(win);
  const changes = new win.MutationObserver(() => {});
  changes.observe(win.document, { subtree: true, childList: true, attributes: true, characterData: true });
  let known = new WeakMap<Element, CSSStyleDeclaration>();
  win.getComputedStyle = (element: Element, pseudoElement?: string | null) => {
    if (changes.takeRecords().length) known = new WeakMap();
    let style = known.get(element);
    if (!style) {
      style = compute(element, pseudoElement);
      known.set(element, style);
    }
    return style;
  };
}
