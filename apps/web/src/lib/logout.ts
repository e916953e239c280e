import { logoutCall } from './api/system';
import { clearSession } from './session';
import { navigateTo } from './navigation';
import { disconnectEvents } from './ws';

/** Log out on the server (best effort: the token may already be dead), then clean up and go to /login. */
export async function logout(): Promise<void> {
  try {
    await logoutCall();
  } catch {
    // The session is ended locally whatever the server answered.
  }
  // Leave the page first: cleared first, the route guard would redirect with ?redirect= of this page.
  await navigateTo('/login');
  disconnectEvents();
  clearSession();
}
