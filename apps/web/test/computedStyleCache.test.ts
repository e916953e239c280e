/**
 * The test setup keeps computed styles while the page does not change (helpers/computedStyleCache):
 * every kind of change a test or antd makes is answered at once, never from the cache.
 */
import { afterEach, describe, expect, it } from 'vitest';

afterEach(() => {
  document.body.innerHTML = '';
  document.head.querySelectorAll('style[data-test]').forEach((s) => s.remove());
});

function box() {
  const el = document.createElement('div');
  el.className = 'box';
  document.body.append(el);
  return el;
}

function addStyle(css: string) {
  const tag = document.createElement('style');
  tag.dataset.test = '';
  tag.textContent = css;
  document.head.append(tag);
  return tag;
}

describe('computed styles in the test setup', () => {
  it('the same answer for an unchanged page', () => {
    const el = box();
    expect(getComputedStyle(el)).toBe(getComputedStyle(el));
  });

  it('follows an inline style, a class, a new style tag and a changed one, each at once', () => {
    const el = box();
    expect(getComputedStyle(el).display).toBe('block');
    el.style.display = 'none';
    expect(getComputedStyle(el).display).toBe('none');
    el.style.display = '';
    expect(getComputedStyle(el).display).toBe('block');

    const tag = addStyle('.hidden { visibility: hidden }');
    expect(getComputedStyle(el).visibility).toBe('visible');
    el.classList.add('hidden');
    expect(getComputedStyle(el).visibility).toBe('hidden');

    tag.textContent = '.hidden { visibility: visible }';
    expect(getComputedStyle(el).visibility).toBe('visible');
    tag.firstChild!.nodeValue = '.hidden { visibility: collapse }';
    expect(getComputedStyle(el).visibility).toBe('collapse');
    tag.remove();
    expect(getComputedStyle(el).visibility).toBe('visible');
  });

  it('follows a change of an ancestor (inherited visibility) and of where the element is', () => {
    addStyle('.away { visibility: hidden }');
    const outer = document.createElement('section');
    document.body.append(outer);
    const el = box();
    expect(getComputedStyle(el).visibility).toBe('visible');
    outer.append(el);
    outer.className = 'away';
    expect(getComputedStyle(el).visibility).toBe('hidden');
    document.body.append(el);
    expect(getComputedStyle(el).visibility).toBe('visible');
  });
});
