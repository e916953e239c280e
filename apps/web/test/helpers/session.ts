/**
 * The set-up of the console tests that need no more than a signed-in admin: for each test the
 * admin's session and the notices captured; afterwards the stubbed globals (fetch) and the session
 * gone. Call it at the top of a file or a describe block: it registers that scope's hooks.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { clearSession } from '../../src/lib/session';
import { captureNotices } from './console';
import { loginAdmin } from './dialogs';

export function adminSessionPerTest() {
  let notices: string[] = [];
  beforeEach(() => {
    notices = captureNotices();
    loginAdmin();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
  });
  return {
    /** This test's notices, as "kind:text" (see captureNotices). */
    get notices() {
      return notices;
    },
  };
}
