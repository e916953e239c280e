/**
 * What the specs of a player that must keep its MediaSource count in the page: MediaSources made (a
 * wrapper around window.MediaSource installed before the page's scripts) and changeType calls. Read
 * them with `page.evaluate(() => window.__mse)`.
 */
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __mse?: { sources: number; changeTypes: string[] };
  }
}

/** Installs the counters for the page's next loads (`refuse`: changeType throws, as a browser without it may). */
export const countMse = (page: Page, refuse = false) =>
  page.addInitScript((refuseChangeType) => {
    const counts = { sources: 0, changeTypes: [] as string[] };
    window.__mse = counts;
    const Original = window.MediaSource;
    window.MediaSource = class extends Original {
      constructor() {
        super();
        counts.sources++;
      }
    };
    const changeType = SourceBuffer.prototype.changeType;
    SourceBuffer.prototype.changeType = function (this: SourceBuffer, type: string) {
      counts.changeTypes.push(type);
      if (refuseChangeType) throw new DOMException('refused by the test', 'NotSupportedError');
      return changeType.call(this, type);
    };
  }, refuse);
